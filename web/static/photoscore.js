// Score a finished table from a photo (docs/web.md): the photo goes to /api/photoscore as base64 JSON;
// the explained scores and the unsure cells come back. Nothing about the game on the table changes.
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
    r.onerror = () => reject(new Error("the photo could not be read"));
    r.readAsDataURL(file);
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    out.textContent = "";
    const file = input.files && input.files[0];
    if (!file) { error.textContent = "choose a photo of the finished table first"; return; }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    out.textContent = "Reading the photo…";
    try {
      const photo = await read(file);
      const resp = await fetch("/api/photoscore", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token() },
        body: JSON.stringify({ photo }),
      });
      const data = await resp.json().catch(() => ({ ok: false, error: `the hub answered ${resp.status}` }));
      if (!data.ok) { out.textContent = ""; error.textContent = data.error || "refused"; return; }
      out.textContent = data.lines.join("\n");
    } catch (e) {
      out.textContent = "";
      error.textContent = String(e.message || e);
    } finally {
      button.disabled = false;
    }
  });
})();
