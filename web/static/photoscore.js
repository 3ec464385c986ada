// Score a finished table from a photo (docs/web.md): the photo goes to /api/photoscore/part in base64 parts
// (each request within the page's 64 KiB), then /api/photoscore reads and scores it; the explained scores and
// the unsure cells come back. Nothing about the game on the table changes.
(() => {
  "use strict";
  const form = document.getElementById("photoscore-form");
  if (!form) return;
  const input = document.getElementById("photoscore-file");
  const out = document.getElementById("photoscore-result");
  const error = document.getElementById("photoscore-error");
  const token = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  const read = (file) => new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error(t("the photo could not be read")));
    r.readAsDataURL(file);
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    out.textContent = "";
    const file = input.files && input.files[0];
    if (!file) { error.textContent = t("choose a photo of the finished table first"); return; }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = {};
      const before = document.getElementById("photoscore-before").value.trim();
      if (before) body.before = before;
      const given = document.getElementById("photoscore-given").value.trim();
      if (given) body.given = given;  // Sunda's tribes, Tahiti's vaults, Karibik's money (web/views/photoscore.py)
      const holdings = document.getElementById("photoscore-holdings").value.trim();
      if (holdings) {
        try { body.holdings = JSON.parse(holdings); } catch (e) {
          out.textContent = ""; error.textContent = t("Südsee holdings: not valid JSON"); return;
        }
      }
      const url = await read(file);
      const text = url.slice(url.indexOf(",") + 1);
      const PART = 60000;  // base64 characters a request (web/views/photoscore.py PART_CHARS)
      const post = async (path, body) => {
        const resp = await fetch(path, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": token() },
          body: JSON.stringify(body),
        });
        return resp.json().catch(() => ({ ok: false, error: t("the hub answered {status}", { status: resp.status }) }));
      };
      for (let i = 0; i * PART < text.length; i++) {
        out.textContent = t("Sending the photo… {percent} %", { percent: Math.round(100 * i * PART / text.length) });
        const part = await post("/api/photoscore/part", { index: i, data: text.slice(i * PART, (i + 1) * PART) });
        if (!part.ok) { out.textContent = ""; error.textContent = part.error || t("refused"); return; }
      }
      out.textContent = t("Reading the photo…");
      const data = await post("/api/photoscore", body);
      if (!data.ok) { out.textContent = ""; error.textContent = data.error || t("refused"); return; }
      out.textContent = data.lines.join("\n");
    } catch (e) {
      out.textContent = "";
      error.textContent = String(e.message || e);
    } finally {
      button.disabled = false;
    }
  });
})();
