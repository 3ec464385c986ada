/* The "Trace the board" screen (web/templates/trace.html): the owner's Karibik board traced from
   a photo and corrected by taps, Tahiti's track order recorded space by space. Uses app.js's
   $, $$, el, api, toast and askPin. The draft lives on the hub: every tap that changes it is one
   request, and the picture is drawn again from the hub's copy (a reload loses nothing). */
"use strict";

(function traceScreen() {
  const root = $("#trace-screen");
  if (!root) return;
  const game = root.dataset.game;
  const PART = Number(root.dataset.part);
  const base = `/api/trace/${game}`;
  let selected = [];      // Karibik: selected space numbers; Tahiti: [the track space being recorded]
  let mode = null;        // Karibik: "line" (split by two taps) or "pile"
  let linePoints = [];
  let current = null;     // the hub's state of this screen

  function say(text, bad = false) {
    $("#trace-msg").textContent = text;
    $("#trace-msg").classList.toggle("error", bad);
    if (text) toast(text, bad);
  }

  async function read(path) {
    const resp = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (resp.status === 401) { $("#trace-locked").hidden = false; return null; }
    $("#trace-locked").hidden = true;
    return resp;
  }

  async function send(action, body = {}) {
    try {
      const data = await api(`${base}/${action}`, body);
      say(data.message);
      current = data.state;
      await draw();
      return data;
    } catch (e) { say(e.message, true); return null; }
  }

  /* ---------------------------------------------------------------- drawing */

  async function draw() {
    const resp = await read(base);
    if (!resp) return;
    if (!resp.ok) { const d = await resp.json(); say(d.error || "", true); return; }
    current = await resp.json();
    renderStatus();
    $("#trace-use").checked = !!current.use;
    $("#trace-use").disabled = !current.saved;
    const box = $("#trace-svg");
    if (current.draft) {
      const svg = await read(`${base}/board.svg`);
      box.innerHTML = svg && svg.ok ? await svg.text() : "";
    } else box.replaceChildren(el("p", { class: "muted empty", text: t("No traced board yet: take or upload a photo.") }));
    const saved = $("#trace-saved");
    saved.hidden = !current.saved;
    if (current.saved) {
      $("#trace-saved-desc").textContent = [current.saved.name || t("saved"), current.saved.when, current.saved.path].join(" · ");
      const svg = await read(`${base}/board.svg?which=saved`);
      $("#trace-saved-svg").innerHTML = svg && svg.ok ? await svg.text() : "";
    }
    paintSelection();
  }

  function renderStatus() {
    const lines = [];
    if (current.progress) {
      const p = current.progress;
      lines.push(el("li", { text: t("{spaces} spaces, {pairs} adjacent pairs · towns {towns}/16 · hideouts {hideouts}/12 · skulls {skulls}/6 · piles {piles}/5", p) }));
    }
    if (current.draft) lines.push(current.problem ? el("li", { class: "bad", text: t("Not complete: {why}", { why: current.problem }) })
                                                  : el("li", { class: "good", text: t("Complete: the board loads. Save it.") }));
    if (current.counts) {
      const c = current.counts;
      $("#trace-counts").textContent = t("Recorded:") + " " + Object.entries(c.letters).map(([k, v]) => `${k}×${v}`).join(" ")
        + " · " + Object.entries(c.pearls).map(([k, v]) => `${k}×${v}`).join(" ");
    }
    $("#trace-status").replaceChildren(...lines);
    if (current.size_mm) { $("#trace-w").value = current.size_mm[0]; $("#trace-h").value = current.size_mm[1]; }
    if (current.colours && $("#trace-colour") && !$("#trace-colour").options.length) {
      $("#trace-colour").replaceChildren(...current.colours.map((c) => el("option", { value: c, text: c })));
    }
  }

  function paintSelection() {
    for (const g of $$("#trace-svg [data-space]")) g.classList.toggle("selected", selected.includes(Number(g.dataset.space)));
    $("#trace-selected").textContent = selected.length ? selected.join(", ") : (game === "tahiti" ? "0" : t("none"));
    const svg = $("#trace-svg svg");
    if (svg) { svg.classList.toggle("mode-line", mode === "line"); svg.classList.toggle("mode-pile", mode === "pile"); }
    const tag = $("#trace-mode");
    if (tag) {
      tag.hidden = !mode;
      tag.textContent = mode === "line" ? tn("tap one point of the cut", "tap {n} points of the cut", 2 - linePoints.length) : mode === "pile" ? t("tap where a pile lies") : "";
    }
    for (const b of $$("#trace-tools [data-need]")) b.disabled = selected.length !== Number(b.dataset.need);
  }

  function boardPoint(ev) {  // a tap on the picture in board millimetres
    const svg = $("#trace-svg svg");
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10];
  }

  /* ---------------------------------------------------------------- Karibik */

  function initKaribik() {
    $("#trace-svg").addEventListener("click", async (ev) => {
      if (!$("#trace-svg svg")) return;
      if (mode === "line") {
        linePoints.push(boardPoint(ev));
        if (linePoints.length < 2) { paintSelection(); return; }
        const line = linePoints;
        mode = null; linePoints = [];
        const s = selected[0];
        selected = [];
        await send("edit", { op: "split", space: s, line });
        return;
      }
      if (mode === "pile") {
        const pile = ev.target.closest("[data-pile]");
        if (pile) await send("edit", { op: "unpile", index: Number(pile.dataset.pile) });
        else await send("edit", { op: "pile", at: boardPoint(ev) });
        return;
      }
      const g = ev.target.closest("[data-space]");
      if (!g) return;
      const s = Number(g.dataset.space);
      selected = selected.includes(s) ? selected.filter((x) => x !== s) : [...selected, s].slice(-2);
      paintSelection();
    });
    for (const b of $$("#trace-tools [data-op]")) {
      b.addEventListener("click", async () => {
        const op = b.dataset.op;
        const body = { op };
        if (b.dataset.need === "2") body.spaces = selected.slice();
        else body.space = selected[0];
        if (op === "port") { body.name = $("#trace-town").value; body.chest = Number($("#trace-chest").value); }
        if (op === "hideout") body.colour = $("#trace-colour").value;
        const done = await send("edit", body);
        if (done) {
          selected = op === "merge" ? [selected[0]] : op === "split" ? [] : selected;
          if (op === "port") $("#trace-town").value = "";
          paintSelection();
        }
      });
    }
    for (const b of $$("#trace-tools [data-mode]")) {
      b.addEventListener("click", () => {
        mode = mode === b.dataset.mode ? null : b.dataset.mode;
        linePoints = [];
        paintSelection();
      });
    }
    $("#trace-zoom").addEventListener("click", (ev) => {  // small spaces on a phone: the picture 2.5x, scrolled in its box
      const on = $("#trace-svg").classList.toggle("zoom");
      ev.target.textContent = on ? t("Zoom out") : t("Zoom in");
      ev.target.setAttribute("aria-pressed", on ? "true" : "false");
    });
    $("#trace-none").addEventListener("click", () => { selected = []; mode = null; linePoints = []; paintSelection(); });
    const size = () => [Number($("#trace-w").value), Number($("#trace-h").value)];
    $("#trace-capture").addEventListener("click", async () => {
      say(t("Tracing the camera's view…"));
      selected = [];
      await send("capture", { size_mm: size() });
    });
    $("#trace-file").addEventListener("change", async (ev) => {
      const file = ev.target.files[0];
      ev.target.value = "";
      if (file) { selected = []; await upload(file, size()); }
    });
    $("#trace-reset").addEventListener("click", async () => {
      if (confirm(t("Forget the traced draft? (a saved board stays)"))) { selected = []; await send("reset"); }
    });
  }

  async function shrink(file) {  // a phone photo, scaled to at most 1600 px and sent as JPEG
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
      const canvas = el("canvas", { width: Math.round(bitmap.width * scale), height: Math.round(bitmap.height * scale) });
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise((ok) => canvas.toBlob(ok, "image/jpeg", 0.88));
      return new Uint8Array(await blob.arrayBuffer());
    } catch (e) {
      return new Uint8Array(await file.arrayBuffer());  // the hub says if it cannot read it
    }
  }

  async function upload(file, size) {
    const bytes = await shrink(file);
    const parts = Math.max(1, Math.ceil(bytes.length / PART));
    for (let i = 0; i < parts; i++) {
      let bin = "";
      const piece = bytes.subarray(i * PART, (i + 1) * PART);
      for (let k = 0; k < piece.length; k += 8192) bin += String.fromCharCode.apply(null, piece.subarray(k, k + 8192));
      const body = { part: i, parts, data: btoa(bin) };
      if (i === parts - 1) body.size_mm = size;
      say(i === parts - 1 ? t("Tracing the photo…") : t("Sending the photo ({part}/{parts})…", { part: i + 1, parts }));
      if (i < parts - 1) {
        try { await api(`${base}/upload`, body); } catch (e) { say(e.message, true); return; }
      } else await send("upload", body);
    }
  }

  /* ---------------------------------------------------------------- Tahiti */

  function initTahiti() {
    selected = [0];
    $("#trace-svg").addEventListener("click", (ev) => {
      const g = ev.target.closest("[data-space]");
      if (!g) return;
      selected = [Number(g.dataset.space)];
      paintSelection();
    });
    let letter = null;
    const record = async (pearl) => {
      const index = selected[0];
      const done = await send("edit", { op: "set", index, letter, pearl });
      if (done) { selected = [(index + 1) % 12]; letter = null; paintLetter(); paintSelection(); }
    };
    const paintLetter = () => { for (const b of $$("#trace-letters [data-letter]")) b.classList.toggle("primary", b.dataset.letter === letter); };
    for (const b of $$("#trace-letters [data-letter]")) b.addEventListener("click", () => { letter = b.dataset.letter; paintLetter(); });
    for (const b of $$("#trace-pearls [data-pearl]")) {
      b.addEventListener("click", () => {
        if (!letter) { say(t("choose the space's letter first, then its pearl"), true); return; }
        record(b.dataset.pearl);
      });
    }
    $("#trace-clear").addEventListener("click", () => send("edit", { op: "clear", index: selected[0] }));
  }

  /* ---------------------------------------------------------------- both */

  $("#trace-save").addEventListener("click", async () => {
    const name = $("#trace-name").value.trim();
    await send("save", name ? { name, use: true } : { use: true });
  });
  $("#trace-use").addEventListener("change", (ev) => send("use", { use: ev.target.checked }));
  $("#trace-unlock").addEventListener("click", async () => { if (await askPin()) draw(); });
  if (game === "karibik") initKaribik(); else initTahiti();
  draw();
})();
