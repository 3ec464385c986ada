/* Table hub page script: live state by Server-Sent Events, rendering, PIN, moves, set-up.
   Plain JavaScript, no libraries: the table's network has no internet. */
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const page = document.body.dataset.page;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.setAttribute("style", v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/* ------------------------------------------------------------------ toast, PIN, API */

let toastTimer = null;
function toast(text, bad = false) {
  const t = $("#toast");
  t.textContent = text;
  t.classList.toggle("bad", bad);
  t.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove("show"), bad ? 4500 : 2500);
}

const csrf = () => $('meta[name="csrf-token"]').content;

// Every change says which state of the game it was made on: the hub refuses it ("the game
// moved on", 409) when another phone, the camera or a button changed the game since.
// Requests that change no game carry no version (the voice settings are the hub's, not the game's).
const UNVERSIONED = new Set(["/api/unlock", "/api/lock", "/api/voice", "/api/voice/test"]);

async function api(path, body = {}, retried = false) {
  let resp;
  const sent = UNVERSIONED.has(path) ? body : { version: state.game_version, ...body };
  try {
    resp = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(sent),
    });
  } catch (e) {
    throw new Error(t("the hub did not answer (is the phone on the table's Wi-Fi?)"));
  }
  let data = {};
  try { data = await resp.json(); } catch (e) { data = { error: t("the hub answered {status}", { status: resp.status }) }; }
  if (resp.status === 401 && !retried) {
    if (await askPin()) return api(path, body, true);
    throw new Error(t("not unlocked: the PIN is needed to change the game"));
  }
  if (!resp.ok || data.ok === false) throw new Error(data.error || t("the hub answered {status}", { status: resp.status }));
  if (typeof data.game_version === "string") state.game_version = data.game_version;  // this phone's own change
  return data;
}

function setUnlocked(on) {
  document.body.dataset.unlocked = on ? "1" : "0";
  $("#pin-lock").hidden = !on;
}

let pinResolve = null;
function askPin() {
  const dlg = $("#pin-dialog");
  $("#pin-error").textContent = "";
  $("#pin-input").value = "";
  $("#pin-lock").hidden = document.body.dataset.unlocked !== "1";
  if (!dlg.open) dlg.showModal();
  setTimeout(() => $("#pin-input").focus(), 50);
  return new Promise((resolve) => { pinResolve = resolve; });
}
function closePin(result) {
  const dlg = $("#pin-dialog");
  if (dlg.open) dlg.close();
  if (pinResolve) { pinResolve(result); pinResolve = null; }
}
$("#pin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await api("/api/unlock", { pin: $("#pin-input").value.trim() }, true);
    setUnlocked(true);
    toast(t("Unlocked: this phone may change the game"));
    closePin(true);
  } catch (e) {
    $("#pin-error").textContent = e.message;
  }
});
$("#pin-cancel").addEventListener("click", () => closePin(false));
$("#pin-dialog").addEventListener("cancel", () => closePin(false));
$("#pin-lock").addEventListener("click", async () => {
  try { await api("/api/lock", {}, true); setUnlocked(false); toast(t("Locked")); } catch (e) { toast(e.message, true); }
  closePin(false);
});
$("#lock-btn").addEventListener("click", () => askPin());

async function act(path, body, okText) {
  try {
    const data = await api(path, body);
    if (okText) toast(okText);
    return data;
  } catch (e) {
    toast(e.message, true);
    return null;
  }
}

/* ------------------------------------------------------------------ live state */

let state = JSON.parse($("#initial-state").textContent);
const renderers = [];
function onState(fn) { renderers.push(fn); fn(state, null); }
function setState(next) {
  const prev = state;
  state = next;
  for (const fn of renderers) {
    try { fn(state, prev); } catch (e) { console.error(e); }
  }
}

let source = null;
let lastId = null;
function connect() {
  const live = $("#live");
  const url = lastId === null ? "/events" : `/events?last=${lastId}`;
  source = new EventSource(url);
  source.addEventListener("open", () => { live.className = "live on"; live.querySelector("b").textContent = t("live"); });
  source.addEventListener("state", (ev) => {
    lastId = ev.lastEventId ? Number(ev.lastEventId) : lastId;
    setState(JSON.parse(ev.data));
  });
  source.addEventListener("error", () => {
    live.className = "live off";
    live.querySelector("b").textContent = t("reconnecting");
    if (source.readyState === EventSource.CLOSED) {  // refused (hub busy): retry by hand
      source = null;
      setTimeout(connect, 3000 + Math.random() * 2000);
    }
  });
}
connect();
// Leaving the page (or going into the back-forward cache) closes the stream at once, so the
// hub's thread is free for the next phone; coming back reconnects.
window.addEventListener("pagehide", () => { if (source) { source.close(); source = null; } });
window.addEventListener("pageshow", (ev) => { if (ev.persisted && !source) connect(); });
window.tablehub = { get state() { return state; }, get lastId() { return lastId; } };

/* ------------------------------------------------------------------ formatting */

const KEY_INFO = {
  figures: ["♟", t("figures")], figures_in_supply: ["♟", t("figures in supply")], supply: ["♟", t("in supply")],
  tiles_left: ["▦", t("tiles left")], tiles: ["▦", t("tiles")], box: ["▦", t("tiles in the box")],
  islanders: ["♟", t("islanders")], islanders_in_supply: ["♟", t("islanders in supply")],
  goods: ["⚖", t("goods")],
  ships: ["⚓", t("ships")], ship_points: ["⚓", t("ship points")], face_up: ["⚓", t("face-up ships")],
  display: ["⚓", t("face-up ships")], boats: ["⚓", t("boats")],
  cash: ["$", t("cash")], vault: ["▣", t("vault")], boats_left: ["⚓", t("boats left")], boats_on_map: ["⚓", t("boats on the map")],
  letter: ["✉", t("letter")], pearl: ["●", t("pearl")], pearls_left: ["●", t("pearls left")], sailboat: ["△", t("sailboat on space")],
  waiting_for: ["…", t("waiting for")],
  shells: ["⚖", t("shells")], bananas: ["⚖", t("bananas")], fish: ["⚖", t("fish")], placed: ["♟", t("placed")],
  tiles_placed: ["▦", t("tiles placed")], tiles_discarded: ["▦", t("tiles discarded")], pieces: ["▦", t("pieces")],
  pieces_left: ["▦", t("pieces left")], pieces_placed: ["▦", t("pieces placed")], pawns_left: ["♟", t("pawns left")],
  pawns_placed: ["♟", t("pawns placed")], markers_left: ["●", t("markers left")], boat_tokens_left: ["⚓", t("boat tokens left")],
  ships_in_pile: ["⚓", t("ships in the pile")], ships_taken: ["⚓", t("ships taken")], face_up_ships: ["⚓", t("face-up ships")],
  doubloons: ["$", t("doubloons")], allowance: ["⚓", t("allowance")], chests_in_play: ["▣", t("chests in play")],
  piles_left: ["▣", t("piles left")], hideouts: ["▣", t("hideouts")], round: ["↻", t("round")], phase: ["…", t("phase")],
  spaces_left: ["▦", t("spaces left")], cards: ["▭", t("cards")], cards_shown: ["▭", t("cards shown")],
  water_rights: ["≈", t("water rights")], tribes_led: ["♟", t("tribes led")], levels: ["▤", t("levels")],
  land_nodes: ["●", t("land nodes")], challenge: ["!", t("challenge")], last_challenge: ["!", t("last challenge")],
  figures_on_board: ["♟", t("figures on the board")], islanders_on_board: ["♟", t("islanders on the board")],
  auction: ["⚖", t("auction")], die: ["⚄", t("die")], disc: ["●", t("disc")], exhausted: ["●", t("pearls run out")],
  because: ["⚓", t("why this allowance")], colour: ["●", t("colour")], mover: ["⚓", t("moving the ship")],
  secured: ["▣", t("chests secured")], seventh: ["▭", t("seventh card")], ship: ["⚓", t("ship")],
  threshold: ["$", t("doubloons to win")],
};
const HIDE_KEYS = new Set(["letter_space", "note", "board", "waiting_for"]);
/* The keys inside a grouped value (Karibik's ships and hideouts, Tahiti's auction and pearls, Südsee's face-up
   ships), and the colour words among its values. Names (ships, towns, players, space numbers) stay as written. */
const SUB_KEYS = {
  space: t("on space"), chest: t("chest"), value: t("value"), colour: t("colour"), owner: t("owner"),
  move: t("move"), bid: t("bid"), bidder: t("bidder"), passed: t("passed"), requirement: t("requirement"),
  green: t("green"), white: t("white"), black: t("black"), blue: t("blue"), red: t("red"), yellow: t("yellow"),
};
const SUB_WORDS = {
  red: t("red"), blue: t("blue"), green: t("green"), yellow: t("yellow"), white: t("white"), black: t("black"),
};

function label(key) {
  return (KEY_INFO[key] ? KEY_INFO[key][1] : String(key).replace(/_/g, " "));
}
function subLabel(key) {
  return Object.prototype.hasOwnProperty.call(SUB_KEYS, key) ? SUB_KEYS[key] : String(key).replace(/_/g, " ");
}
function scalar(v) {
  if (v === null || v === undefined) return "—";
  if (v === true) return t("yes");
  if (v === false) return t("no");
  return String(v);
}
function compact(v) {
  if (v === null || v === undefined || typeof v !== "object") return scalar(v);
  if (Array.isArray(v)) return v.length ? v.map(compact).join(", ") : t("none");
  return Object.entries(v).map(([k, x]) => `${subLabel(k)} ${inner(x)}`).join(" · ");
}
/* A value inside a grouped value: a colour word in the reader's language, else as compact() shows it. */
function inner(v) {
  return typeof v === "string" && Object.prototype.hasOwnProperty.call(SUB_WORDS, v) ? SUB_WORDS[v] : compact(v);
}

/* Keys shown together as one chip when all are present (per-game touches, matched by key). */
const COMBINE = [
  { keys: ["shells", "bananas", "fish"], label: "goods", total: "goods" },
  { keys: ["figures_in_supply", "figures_on_board"], label: "figures", icon: "♟", parts: [t("in supply"), t("placed")] },
  { keys: ["islanders_in_supply", "islanders_on_board"], label: "islanders", icon: "♟", parts: [t("in supply"), t("placed")] },
  { keys: ["ships_taken", "ship_points"], label: "ships", icon: "⚓", parts: [t("taken"), t("points")], extra: "ships" },
  { keys: ["boats_left", "boats_on_map"], label: "boats", icon: "⚓", parts: [t("left"), t("on the map")] },
];

function combinedChip(combo, res) {
  const bits = [];
  if (combo.total !== undefined) {
    combo.keys.forEach((k, i) => { if (i) bits.push(" · "); bits.push(el("b", { text: res[k] }), ` ${label(k)}`); });
    return el("li", { class: "group", "data-key": combo.label }, `${label(combo.label)} `, el("b", { text: res[combo.total] }), ": ", bits);
  }
  combo.keys.forEach((k, i) => { if (i) bits.push(" · "); bits.push(el("b", { text: res[k] }), ` ${combo.parts[i]}`); });
  const extra = combo.extra && Array.isArray(res[combo.extra]) && res[combo.extra].length ? ` (${res[combo.extra].join(", ")})` : "";
  return el("li", { class: "group", "data-key": combo.label },
    combo.icon ? el("span", { class: "ico", "aria-hidden": "true", text: combo.icon }) : null, `${label(combo.label)}: `, bits, extra);
}

/* A resources dict as chips: numbers as "icon n label", dicts and lists grouped. */
function resourceChips(res) {
  const ul = el("ul", { class: "res" });
  const done = new Set();
  for (const combo of COMBINE) {
    if (!res || !combo.keys.every((k) => typeof res[k] === "number")) continue;
    ul.append(combinedChip(combo, res));
    combo.keys.forEach((k) => done.add(k));
    if (combo.total) done.add(combo.total);
    if (combo.extra) done.add(combo.extra);
  }
  for (const [key, value] of Object.entries(res || {})) {
    if (done.has(key)) continue;
    if (HIDE_KEYS.has(key) || value === null || value === undefined) continue;
    const icon = KEY_INFO[key] ? el("span", { class: "ico", "aria-hidden": "true", text: KEY_INFO[key][0] }) : null;
    if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      // a list of things (face-up ships...): one line each, its id first
      ul.append(el("li", { class: "group list", "data-key": key }, icon, `${label(key)}:`,
        el("ul", {}, value.map((item) => {
          const { id, ...rest } = item;
          return el("li", {}, id !== undefined ? el("b", { text: `${id} ` }) : null,
            Object.entries(rest).map(([k, v]) => `${subLabel(k)} ${inner(v)}`).join(" · "));
        }))));
    } else if (typeof value === "object") {
      if (Array.isArray(value) && value.length === 0) continue;
      ul.append(el("li", { class: "group", "data-key": key }, icon, `${label(key)}: `, el("b", { text: compact(value) })));
    } else if (typeof value === "number") {
      ul.append(el("li", { "data-key": key }, icon, el("b", { text: value }), ` ${label(key)}`));
    } else {
      ul.append(el("li", { "data-key": key }, icon, `${label(key)} `, el("b", { text: scalar(value) })));
    }
  }
  return ul;
}

function pts(n) { return (n >= 0 ? "+" : "−") + Math.abs(n); }
function playerInfo(name) { return (state.game && state.game.players.find((p) => p.name === name)) || null; }
function cssOf(name) { const p = playerInfo(name); return p ? p.css : "#556"; }
const COLOUR_WORDS = { red: t("red"), blue: t("blue"), yellow: t("yellow"), green: t("green"), black: t("black"),
  white: t("white"), orange: t("orange"), purple: t("purple"), pink: t("pink"), grey: t("grey"), gray: t("grey"),
  brown: t("brown") };
function colourName(c) { return COLOUR_WORDS[String(c).toLowerCase()] || c; }
const SOURCE_WORDS = { phone: t("phone"), camera: t("camera"), button: t("button"), manual: t("by hand"), auto: t("automatic") };
function sourceName(s) { return SOURCE_WORDS[s] || s; }

/* ------------------------------------------------------------------ the play page */

function initPlay() {
  const tabs = ["scores", "board", "history", "enter"];
  function showTab() {
    const want = (location.hash || "#scores").slice(1);
    const tab = tabs.includes(want) ? want : "scores";
    for (const s of $$(".layout > .panel")) s.classList.toggle("active", (s.dataset.section || s.id) === tab);
    for (const a of $$(".tabbar a")) a.classList.toggle("active", a.dataset.tab === tab);
    if (tab === "board") loadBoard();
  }
  window.addEventListener("hashchange", showTab);
  showTab();

  onState(renderHeader);
  onState(renderScores);
  onState(renderBanners);
  onState(renderPending);
  onState(renderOffer);
  onState(renderStatus);
  onState(renderHistory);
  onState((s, prev) => { if (!prev || prev.version !== s.version) loadBoard(); });
  onState(loadForms);

  $("#undo-turn").addEventListener("click", () => undo("turn"));
  $("#undo-action").addEventListener("click", () => undo("action"));
  $("#flag-clear").addEventListener("click", () => act("/api/flag/clear", {}, t("Flag dismissed")));
  $("#pending-commit").addEventListener("click", () => {
    const p = state.pending;
    act("/api/pending/commit", {}, p ? t("Logged: {actions}", { actions: p.actions.map((a) => a.label).join("; ") }) : "");
  });
  $("#offer-none").addEventListener("click", async () => {
    await act("/api/offer/dismiss", {});
    location.hash = "#enter";
  });
  initBoard();
  initHints();
  initMoveForm();
}

async function undo(scope) {
  const g = state.game;
  if (!g || !g.history.length) { toast(t("Nothing to undo yet"), true); return; }
  if (!confirm(scope === "turn" ? t("Undo the last turn?") : t("Undo the last action?"))) return;
  const data = await act("/api/undo", { scope });
  if (data) toast(tn("Undone: one action", "Undone: {n} actions", data.undone.length));
}

function renderHeader(s) {
  const g = s.game;
  $("#game-title").textContent = g ? t("{title} · game {id}", { title: g.title, id: g.id }) : "";
  document.title = g ? g.title + " · " + t("Table hub") : t("Table hub");
}

function renderScores(s, prev) {
  const g = s.game;
  $("#no-game").hidden = !!g;
  $(".layout").hidden = !g;
  for (const b of $$("[data-needs-game]")) b.disabled = !g || g.finished || !g.actions;
  if (!g) return;
  $("#turn").textContent = g.finished ? t("Game over") : g.turn ? t("Turn {turn}", { turn: g.turn }) : t("Before the first turn");
  const cur = g.current ? playerInfo(g.current) : null;
  const waiting = g.table && typeof g.table.waiting_for === "string" ? g.table.waiting_for : null;
  $("#whose").textContent = g.finished ? "" : waiting || (cur ? t("{player} ({colour}) to play", { player: cur.name, colour: colourName(cur.colour) }) : "");
  const before = {};
  if (prev && prev.game && prev.game.id === g.id) for (const p of prev.game.players) before[p.name] = p.score;
  const list = $("#players");
  list.replaceChildren(...g.players.map((p) => {
    const score = el("div", { class: "score", "aria-label": tn("{n} point", "{n} points", p.score), text: p.score });
    if (before[p.name] !== undefined && before[p.name] !== p.score) score.classList.add("bump");
    return el("li", { class: "player" + (p.current ? " current" : ""), style: `--pc:${p.css}`, "data-player": p.name },
      el("div", { class: "bar" }),
      el("div", { class: "who" },
        el("span", { class: "name", text: p.name }),
        el("span", { class: "colour" }, el("i"), colourName(p.colour)),
        el("span", { class: "turn-badge", text: t("to play") })),
      score,
      el("div", { class: "resources" }, resourceChips(p.resources)));
  }));
  const tr = $("#table-res");
  const table = Object.fromEntries(Object.entries(g.table || {}).filter(([k, v]) => !HIDE_KEYS.has(k) && v !== null));
  tr.hidden = Object.keys(table).length === 0;
  tr.replaceChildren(el("h3", { text: t("On the table") }), resourceChips(table));
  renderResults(g);
}

function renderResults(g) {
  const box = $("#results");
  box.hidden = !g.finished || !g.results;
  if (box.hidden) return;
  const places = [t("1st"), t("2nd"), t("3rd"), t("4th"), t("5th"), t("6th")];
  box.replaceChildren(
    el("h3", { text: t("Final results") }),
    el("ol", {}, g.results.map((r) => el("li", { class: "rank" + (r.winner ? " winner" : ""), style: `--pc:${cssOf(r.player)}` },
      el("span", { class: "place", text: r.winner ? "★" : places[r.rank - 1] || r.rank }),
      el("span", {}, el("strong", { text: r.player }), " ",
        el("span", { class: "muted small", text: t("{during} in play, {end} at the end", { during: r.during_play, end: pts(r.at_end) }) })),
      el("span", { class: "total", text: r.score }),
      el("details", {}, el("summary", { text: t("How {player} scored {score}", { player: r.player, score: r.score }) }),
        el("ul", {}, r.events.length ? r.events.map((e) => el("li", {},
          el("b", { text: pts(e.points) }), ` ${e.reason}`, e.kind === "final" ? " " + t("(final scoring)") : "")) :
          el("li", { text: t("no points") })))))),
  );
}

function renderBanners(s) {
  const g = s.game;
  const prov = $("#provisional");
  prov.hidden = !(g && g.provisional);
  if (g && g.provisional) prov.textContent = t("Provisional component data: {what}", { what: g.provisional });
  const f = s.flag;
  $("#flag").hidden = !f;
  if (f) {
    $("#flag-reason").textContent = f.reason;
    $("#flag-where").textContent = f.where || (f.x !== null && f.x !== undefined ? t("at ({x}, {y})", { x: f.x, y: f.y }) : "");
  }
}

const CAMERA_TOPICS = new Set(["calibration", "enrolment"]);
function renderStatus(s) {
  const items = Object.entries(s.status || {}).filter(([k]) => !CAMERA_TOPICS.has(k));
  const strip = $("#status-strip");
  strip.hidden = !items.length;
  strip.replaceChildren(...items.map(([k, v]) => el("li", { "data-topic": k }, el("b", { text: k }), v)));
}

/* The record's ids in small print under the table words, for whoever corrects a record. */
function code(text) {
  return text ? el("small", { class: "code", text }) : null;
}

function renderPending(s) {
  const p = s.pending;
  $("#pending").hidden = !p || !s.game || s.game.finished;
  if (!p) return;
  // one action: the heading says it all; several: the heading counts them and the list says each once
  $("#pending-summary").textContent = p.actions.length < 2 ? p.actions[0].label : tn("one action", "{n} actions", p.actions.length);
  $("#pending-list").hidden = p.actions.length < 2;
  $("#pending-list").replaceChildren(...p.actions.map((a) => el("li", {}, a.label, code(a.code))));
  $("#pending-code").textContent = p.actions.length < 2 ? p.actions[0].code || "" : "";
  $("#pending-note").hidden = !p.note;
  $("#pending-note").textContent = p.note || "";
  $("#pending-refused").hidden = !p.refused;
  $("#pending-refused").textContent = p.refused ? t("The rules refuse it: {why}", { why: p.refused }) : "";
  $("#pending-commit").disabled = !!p.refused;
}

function renderOffer(s) {
  const o = s.offer;
  $("#offer").hidden = !o;
  if (!o) return;
  $("#offer-note").textContent = o.note || t("Tap what really happened on the table.");
  $("#offer-list").replaceChildren(...o.candidates.map((c, i) => el("li", {},
    el("button", {
      class: "btn" + (i === 0 && !c.refused ? " primary" : ""), type: "button", disabled: !!c.refused,
      onclick: () => act("/api/offer/accept", { offer: o.id, index: i }, t("Played: {action}", { action: c.label })),
    }, el("span", {}, c.label, code(c.code), c.refused ? el("span", { class: "refused", text: c.refused }) : null),
    el("span", { class: "conf", text: `${Math.round(c.confidence * 100)}%` })))));
}

function renderHistory(s) {
  const g = s.game;
  const list = $("#turns");
  if (!g) { list.replaceChildren(); return; }
  const turns = [];
  for (const e of g.history) {
    let t = turns[turns.length - 1];
    if (!t || t.turn !== e.turn || t.player !== e.player) { t = { turn: e.turn, player: e.player, entries: [] }; turns.push(t); }
    t.entries.push(e);
  }
  const items = turns.reverse().map((t) => el("li", { style: `--pc:${cssOf(t.player)}` },
    el("div", { class: "head" }, el("span", { text: t.player || "—" }), el("span", { class: "n", text: t.turn ? window.t("turn {turn}", { turn: t.turn }) : window.t("set-up") })),
    t.entries.map((e) => [
      el("p", { class: "act" }, e.label, el("span", { class: "src", text: sourceName(e.source) }), code(e.code)),
      e.events.map((ev) => el("p", { class: "ev" }, el("span", { class: "pts" + (ev.points < 0 ? " neg" : ""), text: pts(ev.points) }), ` ${ev.player}: ${ev.reason}`)),
    ])));
  if (g.finals && g.finals.length) {
    items.unshift(el("li", { class: "final" }, el("div", { class: "head" }, el("span", { text: t("Final scoring") })),
      g.finals.map((ev) => el("p", { class: "ev" }, el("span", { class: "pts" + (ev.points < 0 ? " neg" : ""), text: pts(ev.points) }), ` ${ev.player}: ${ev.reason}`))));
  }
  if (!items.length) items.push(el("li", { class: "muted", text: t("No moves yet.") }));
  list.replaceChildren(...items);
}

/* ------------------------------------------------------------------ board: load, zoom, pan, tap */

let boardVersion = null;
let boardLoading = false;
const view = { box: null, fit: null, user: false };

async function loadBoard() {
  const section = $("#board");
  if (!section || !state.game) return;
  const visible = section.classList.contains("active") || getComputedStyle(section).display !== "none";
  if (!visible || boardLoading || boardVersion === state.version) return;
  boardLoading = true;
  const want = state.version;
  try {
    const resp = await fetch(`/api/board.svg?v=${want}`, { credentials: "same-origin" });
    if (resp.ok) {
      $("#board-wrap").innerHTML = await resp.text();
      boardVersion = want;
      const svg = $("#board-wrap svg");
      const fit = svg.dataset.view.split(" ").map(Number);
      view.fit = fit;
      if (!view.user || !view.box) view.box = fit.slice();
      applyView();
      renderBoardCaption();
      loadHints();
    }
  } finally {
    boardLoading = false;
    if (state.version !== boardVersion) setTimeout(loadBoard, 50);
  }
}

function renderBoardCaption() {
  const g = state.game;
  const bits = [];
  const f = state.flag;
  if (f) bits.push(`⚠ ${f.reason}`);
  const p = state.pending;
  if (p) bits.push(t("Pending (dashed): {actions}", { actions: p.actions.map((a) => a.label).join("; ") }));
  const last = g && g.history.length ? g.history[g.history.length - 1] : null;
  if (last) bits.push(t("Last: {action}", { action: `${last.player ? `${last.player}: ` : ""}${last.label}` }));
  $("#board-caption").textContent = bits.join(" · ");
  fetch("/api/board.json").then((r) => r.json()).then((d) => {
    $("#legend").replaceChildren(...(d.legend || []).map((t) => el("li", {},
      el("i", { style: `background:${t.fill}` }), `${t.name}${t.pattern ? ` (${t.pattern})` : ""}`)));
  }).catch(() => {});
}

function applyView() {
  const svg = $("#board-wrap svg");
  if (svg && view.box) svg.setAttribute("viewBox", view.box.join(" "));
}

function zoom(factor, cx, cy) {
  if (!view.box) return;
  const [x, y, w, h] = view.box;
  const nw = Math.min(Math.max(w * factor, 120), (view.fit ? view.fit[2] : w) * 4);
  const f = nw / w;
  const px = cx === undefined ? x + w / 2 : cx;
  const py = cy === undefined ? y + h / 2 : cy;
  view.box = [px - (px - x) * f, py - (py - y) * f, w * f, h * f];
  view.user = true;
  applyView();
}

function toBoard(svg, clientX, clientY) {
  const r = svg.getBoundingClientRect();
  const [x, y, w, h] = view.box;
  const scale = Math.max(w / r.width, h / r.height);  // preserveAspectRatio meet
  const ox = x - (r.width * scale - w) / 2;
  const oy = y - (r.height * scale - h) / 2;
  return [ox + (clientX - r.left) * scale, oy + (clientY - r.top) * scale, scale];
}

function initBoard() {
  const wrap = $("#board-wrap");
  $("#zoom-in").addEventListener("click", () => zoom(1 / 1.4));
  $("#zoom-out").addEventListener("click", () => zoom(1.4));
  $("#zoom-fit").addEventListener("click", () => { view.box = view.fit && view.fit.slice(); view.user = false; applyView(); });
  wrap.addEventListener("wheel", (ev) => {
    const svg = $("svg", wrap);
    if (!svg) return;
    ev.preventDefault();
    const [bx, by] = toBoard(svg, ev.clientX, ev.clientY);
    zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, bx, by);
  }, { passive: false });
  const pointers = new Map();
  let moved = false;
  let pinch = null;
  wrap.addEventListener("pointerdown", (ev) => {
    wrap.setPointerCapture(ev.pointerId);
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    moved = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
    }
  });
  wrap.addEventListener("pointermove", (ev) => {
    const svg = $("svg", wrap);
    if (!pointers.has(ev.pointerId) || !svg || !view.box) return;
    const [px, py] = pointers.get(ev.pointerId);
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d > 0 && pinch.d > 0) {
        const [cx, cy] = toBoard(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        zoom(pinch.d / d, cx, cy);
        pinch.d = d;
        moved = true;
      }
      return;
    }
    const dx = ev.clientX - px;
    const dy = ev.clientY - py;
    if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
    const scale = toBoard(svg, 0, 0)[2];
    view.box[0] -= dx * scale;
    view.box[1] -= dy * scale;
    view.user = true;
    applyView();
  });
  const up = (ev) => {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!moved && ev.type === "pointerup") tapBoard(ev);
  };
  wrap.addEventListener("pointerup", up);
  wrap.addEventListener("pointercancel", up);
}

function tapBoard(ev) {
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  if (tapHint(target)) return;
  const named = target && target.closest("[data-cell], [data-space]");
  if (named) {  // fixed boards: a map cell or a track space fills the field of that name
    const [field, value] = named.dataset.cell !== undefined ? ["cell", named.dataset.cell] : ["space", named.dataset.space];
    const path = field === "space" && $('#move-fields [name="path"]');
    if (path) {  // a path field (Karibik's sail) collects the spaces tapped, in order
      let spaces = [];
      try { spaces = JSON.parse(path.value || "[]"); } catch (e) { spaces = []; }
      spaces.push(Number(value));
      path.value = JSON.stringify(spaces);
      toast(t("path {spaces}", { spaces: spaces.join(" → ") }));
      return;
    }
    const input = $(`#move-fields [name="${field}"]`);
    // the field named by its label in the reader's language
    if (input) { input.value = value; toast(t("{field} {value} filled in the move form", { field: input.dataset.label || field, value })); }
    else toast(field === "cell" ? t("cell {cell} tapped", { cell: value }) : t("space {space} tapped", { space: value }));
    return;
  }
  const cell = target && target.closest("[data-x]");
  if (!cell) return;
  const x = cell.dataset.x;
  const y = cell.dataset.y;
  $$(".board-wrap .picked").forEach((n) => n.classList.remove("picked"));
  if (cell.classList.contains("free")) cell.classList.add("picked");
  const fx = $('#move-fields [name="x"]');
  const fy = $('#move-fields [name="y"]');
  if (fx && fy) {
    fx.value = x;
    fy.value = y;
    toast(t("Cell ({x}, {y}) filled in the move form", { x, y }));
  } else {
    toast(cell.dataset.name ? t("{name} ({tile} at {x}, {y})", { name: cell.dataset.name, tile: cell.dataset.tile, x, y })
      : cell.dataset.tile ? t("Cell ({x}, {y}): tile {tile}", { x, y, tile: cell.dataset.tile }) : t("Cell ({x}, {y})", { x, y }));
  }
}

/* ------------------------------------------------------------------ "Where can it go?": hints on the board */
/* The ghosts come from GET /api/hints (the engine's own legal moves, each checked by validate): a
   layer put inside the board's <svg>. Tapping a ghost shows the piece there each way it may lie, in
   turn, and fills the move form with that move. Kept apart from the board code above. */

const hints = { key: null, show: true, seq: 0 };

function hintField() {  // the action field that names the piece to place: tile games "tile", Sunda "piece"
  const kind = state.game && state.game.view_kind;
  return kind === "tiles" ? "tile" : kind === "sunda" ? "piece" : null;
}

function hintPiece() {
  const own = $("#hint-piece").value.trim();
  if (own) return own;
  const field = hintField();
  const input = field && $(`#move-fields [name="${field}"]`);
  return input ? input.value.trim() : "";
}

function initHints() {
  const box = $("#hint-show");
  if (!box) return;
  hints.show = localStorage.getItem("tablehub.hints") !== "off";
  box.checked = hints.show;
  box.addEventListener("change", () => {
    hints.show = box.checked;
    localStorage.setItem("tablehub.hints", hints.show ? "on" : "off");
    loadHints();
  });
  $("#hint-piece").addEventListener("change", () => loadHints());
  $("#move-fields").addEventListener("change", (ev) => { if (ev.target.name === hintField()) loadHints(); });
}

function renderHintBar() {
  const field = hintField();
  const box = $("#hint-piece-box");
  box.hidden = !field || !hints.show;
  if (!field) return;
  $("#hint-piece-label").textContent = field === "tile" ? t("Drawn tile") : t("Piece");
  const known = (forms && forms.hints && forms.hints[field]) || [];
  const list = $("#hint-piece-list");
  if (list.childElementCount !== known.length) list.replaceChildren(...known.map((v) => el("option", { value: v })));
}

function hintNote(d) {
  const line = hintLine(d);
  return line.charAt(0).toUpperCase() + line.slice(1);
}

function hintLine(d) {
  if (d.note) return d.note;
  const n = d.count;
  const from = d.source === "pending" ? " " + t("(the camera's read)") : "";
  if (d.kind === "tiles") return tn("{name}: one place. Tap a ghost to see it turned.", "{name}: {n} places. Tap a ghost to see it turned.", n, { name: `${d.name}${from}` });
  if (d.kind === "karibik") return tn("{ship} can reach one space ({left} left). Tap spaces in order to build the path.", "{ship} can reach {n} spaces ({left} left). Tap spaces in order to build the path.", n, { ship: d.ship, left: d.left });
  if (d.kind === "tahiti") return tn("{player}'s boat: one cell in sector {sector}. Tap one to fill it in.", "{player}'s boat: {n} cells in sector {sector}. Tap one to fill it in.", n, { player: d.player, sector: d.sector });
  if (d.kind === "sunda") return tn("piece {piece} fits at one point. Tap a ghost to see it turned.", "piece {piece} fits at {n} points. Tap a ghost to see it turned.", n, { piece: `${d.piece}${from}` });
  return tn("one place", "{n} places", n);
}

async function loadHints() {  // again only when the state, the piece or the board picture changed
  const wrap = $("#board-wrap");
  const svg = $("svg", wrap);
  wrap.classList.toggle("no-hints", !hints.show);
  renderHintBar();
  if (!hints.show) { $("#hint-note").textContent = ""; return; }
  if (!svg || !state.game) return;
  const piece = hintPiece();
  const key = `${state.version}|${piece}`;
  if (hints.key === key && $(".hints", svg)) return;
  hints.key = key;
  const seq = ++hints.seq;
  const resp = await fetch(`/api/hints${piece ? `?piece=${encodeURIComponent(piece)}` : ""}`, { credentials: "same-origin" });
  const data = await resp.json().catch(() => ({ error: t("no answer") }));
  const now = $("#board-wrap svg");
  if (seq !== hints.seq || !now) return;  // a newer request or board took over
  $$(".hints", now).forEach((n) => n.remove());
  if (!resp.ok) { $("#hint-note").textContent = data.error || t("no hints"); return; }
  now.insertAdjacentHTML("beforeend", data.svg);
  fitHints(now);
  $("#hint-note").textContent = hintNote(data);
}

function fitHints(svg) {  // a ghost may lie beyond the board's own frame: widen the fit to show it
  const layer = $(".hints", svg);
  if (!layer || !view.fit || !layer.childElementCount) return;
  const b = layer.getBBox();
  const [x, y, w, h] = view.fit;
  const pad = 6;
  const nx = Math.min(x, b.x - pad), ny = Math.min(y, b.y - pad);
  const fit = [nx, ny, Math.max(x + w, b.x + b.width + pad) - nx, Math.max(y + h, b.y + b.height + pad) - ny];
  if (fit.every((v, i) => Math.abs(v - view.fit[i]) < 0.5)) return;
  view.fit = fit;
  if (!view.user) { view.box = fit.slice(); applyView(); }
}

function tapHint(target) {
  const g = target && target.closest(".hints .hint");
  if (!g) return false;
  const actions = JSON.parse(g.dataset.actions || "[]");
  const looks = $$(".hint-look", g);
  const ways = Math.max(1, looks.length || actions.length);
  const k = g.classList.contains("shown") ? (Number(g.dataset.k) + 1) % ways : 0;
  for (const other of $$(".hints .hint.shown")) {
    if (other !== g) { other.classList.remove("shown"); $$(".hint-look", other).forEach((l) => l.setAttribute("display", "none")); }
  }
  looks.forEach((l, i) => l.setAttribute("display", i === k ? "inline" : "none"));
  g.classList.add("shown");
  g.dataset.k = String(k);
  const action = actions[Math.min(k, actions.length - 1)];
  if (action && forms) fillForm(action);
  const way = ways > 1 ? t(", {k} of {ways}", { k: k + 1, ways }) : "";
  const what = action && action.rotation !== undefined ? t("{rotation}° at ({x}, {y})", { rotation: action.rotation, x: action.x, y: action.y })
    : action && action.turn !== undefined ? t("Turn {turn} at {q},{r}", { turn: action.turn, q: action.q, r: action.r })
    : action && action.path ? t("Sail {path}", { path: action.path.join(" → ") })
    : action && action.cell ? t("Cell {cell}", { cell: action.cell }) : t("This place");
  toast(t("{what}{way}: in the move form", { what, way }));
  return true;
}

/* ------------------------------------------------------------------ hand entry */

let forms = null;
let formsGame = null;

async function loadForms(s, prev, force = false) {
  const g = s.game;
  if (!g || (formsGame === g.id && !force)) return;
  formsGame = g.id;
  const resp = await fetch("/api/forms");
  if (!resp.ok) return;
  forms = await resp.json();
  const sel = $("#move-type");
  const chosen = sel.value;
  sel.replaceChildren(...forms.forms.map((f) => el("option", { value: f.type, text: f.label })));
  if (chosen && forms.forms.some((f) => f.type === chosen)) sel.value = chosen;
  buildFields();
}

function buildFields() {
  const f = forms.forms.find((x) => x.type === $("#move-type").value);
  $("#move-help").textContent = f ? f.help.replace(/``/g, "") : "";
  $("#move-error").textContent = "";
  $("#move-legal-list").replaceChildren();
  const box = $("#move-fields");
  box.replaceChildren();
  if (!f) return;
  const tiles = state.game && state.game.view_kind === "tiles";
  for (const field of f.fields) {
    let input;
    const hint = forms.hints[field.name];
    if (field.choices) {
      input = el("select", { name: field.name }, field.optional ? el("option", { value: "", text: "—" }) : null,
        field.choices.map((c) => el("option", { value: c, text: c })));
      if (field.name === "player" && state.game.current) input.value = state.game.current;
    } else if (field.name === "rotation" && tiles) {
      input = el("select", { name: field.name }, [0, 90, 180, 270].map((r) => el("option", { value: r, text: `${r}°` })));
    } else if (field.kind === "bool") {
      input = el("input", { name: field.name, type: "checkbox", checked: field.default === true });
    } else if (field.kind === "int" || field.kind === "float") {
      input = el("input", { name: field.name, type: "number", inputmode: "numeric", step: field.kind === "int" ? 1 : "any", placeholder: field.optional ? t("optional") : "" });
      if (field.default !== null && field.default !== undefined) input.value = field.default;
    } else {
      const listId = hint ? `hint-${field.name}` : null;
      input = el("input", { name: field.name, type: "text", list: listId, placeholder: field.kind === "str" ? (field.optional ? t("optional") : "") : t("JSON, e.g. [1, 2]"), autocapitalize: "off" });
      if (field.default !== null && field.default !== undefined) input.value = typeof field.default === "string" ? field.default : JSON.stringify(field.default);
      if (hint) box.append(el("datalist", { id: listId }, hint.map((h) => el("option", { value: h }))));
    }
    input.dataset.kind = field.kind;
    input.dataset.optional = field.optional ? "1" : "0";
    // the label in the reader's language (/api/forms renders it); the input keeps the JSON key as its name
    input.dataset.label = field.label || field.name.replace(/_/g, " ");
    box.append(el("label", { class: "field" }, el("span", { text: input.dataset.label }), input));
  }
}

function readAction(partial = false) {
  const action = { type: $("#move-type").value };
  for (const input of $$("#move-fields [name]")) {
    const kind = input.dataset.kind;
    const name = input.name;
    const label = input.dataset.label || name;  // what the reader reads next to the input, in their language
    if (input.type === "checkbox") { action[name] = input.checked; continue; }
    const raw = input.value.trim();
    if (raw === "") {
      if (input.dataset.optional === "1" || partial) continue;
      throw new Error(t("fill in {field}", { field: label }));
    }
    if (kind === "int" || kind === "float" || name === "rotation") {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new Error(t("{field} must be a number", { field: label }));
      action[name] = n;
    } else if (kind === "str") {
      action[name] = raw;
    } else {
      try { action[name] = JSON.parse(raw); } catch (e) { throw new Error(t("{field} must be JSON, e.g. [1, 2] or {example}", { field: label, example: '{"fish": 1}' })); }
    }
  }
  return action;
}

function fillForm(action) {
  if (action.type !== $("#move-type").value) { $("#move-type").value = action.type; buildFields(); }
  for (const [k, v] of Object.entries(action)) {
    const input = $(`#move-fields [name="${CSS.escape(k)}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = !!v;
    else input.value = typeof v === "object" && v !== null ? JSON.stringify(v) : v;
  }
}

function initMoveForm() {
  $("#move-type").addEventListener("change", buildFields);
  $("#move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#move-error").textContent = "";
    let action;
    try { action = readAction(); } catch (e) { $("#move-error").textContent = e.message; return; }
    try {
      await api("/api/submit", { action });
      toast(t("Played"));
      loadForms(state, null, true);  // fresh fields and tile hints
    } catch (e) { $("#move-error").textContent = e.message; }
  });
  $("#move-legal").addEventListener("click", async () => {
    $("#move-error").textContent = "";
    let partial;
    try { partial = readAction(true); } catch (e) { $("#move-error").textContent = e.message; return; }
    const q = new URLSearchParams(Object.entries(partial).filter(([, v]) => typeof v !== "object").map(([k, v]) => [k, String(v)]));
    const resp = await fetch(`/api/legal?${q}`);
    const data = await resp.json();
    if (!resp.ok) { $("#move-error").textContent = data.error; return; }
    const list = $("#move-legal-list");
    // each filled-in field named by its label in the reader's language (the value is the game's own data)
    const labels = Object.fromEntries([...$$("#move-fields [name]")].map((i) => [i.name, i.dataset.label || i.name]));
    if (!data.actions.length) { list.replaceChildren(el("li", { class: "muted", text: t("No legal move matches what is filled in.") })); return; }
    list.replaceChildren(...data.actions.map((a) => el("li", {}, el("button", {
      class: "btn small", type: "button", text: Object.entries(a).filter(([k]) => k !== "type" && !(k in partial)).map(([k, v]) => `${labels[k] || k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ") || a.type,
      onclick: () => { fillForm(a); toast(t("Filled in: check it and press Play it")); },
    }))));
  });
  $("#json-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#json-error").textContent = "";
    let action;
    try { action = JSON.parse($("#json-action").value); } catch (e) { $("#json-error").textContent = t("not valid JSON: {why}", { why: e.message }); return; }
    try { await api("/api/submit", { action }); toast(t("Played")); $("#json-action").value = ""; } catch (e) { $("#json-error").textContent = e.message; }
  });
}

/* ------------------------------------------------------------------ set-up page */

function initSetup() {
  const colours = JSON.parse($("#setup-colours").textContent);
  let games = null;

  function colourSelect(i) {
    const sel = el("select", { name: "colour", "aria-label": t("colour of player {n}", { n: i + 1 }) },
      colours.map((c) => el("option", { value: c.name, text: colourName(c.name) })));
    sel.value = colours[i % colours.length].name;
    const sw = el("i");
    const paint = () => { sw.style.background = colours.find((c) => c.name === sel.value).css; };
    sel.addEventListener("change", paint);
    paint();
    return el("span", { class: "swatch-select" }, sw, sel);
  }
  function addPlayer() {
    const rows = $("#player-rows");
    const i = rows.children.length;
    rows.append(el("li", {}, el("input", { name: "player", type: "text", maxlength: 24, placeholder: t("Player {n}", { n: i + 1 }), "aria-label": t("name of player {n}", { n: i + 1 }), autocapitalize: "words" }), colourSelect(i)));
  }
  function selectedGame() {
    const r = $('input[name="game"]:checked');
    return r && games ? games.available.find((g) => g.name === r.value) : null;
  }
  function renderOptions() {
    const g = selectedGame();
    const box = $("#options");
    box.replaceChildren();
    const opts = g ? g.options.filter((o) => !["catalog", "board", "data"].includes(o.name)) : [];
    $("#options-box").hidden = !opts.length;
    for (const o of opts) {
      let input;
      if (o.choices) {
        input = el("select", { name: o.name }, o.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) })));
        input.value = JSON.stringify(o.default);
      } else if (o.kind === "bool") {
        input = el("input", { type: "checkbox", name: o.name, checked: o.default === true });
      } else if (o.kind === "int") {
        input = el("input", { type: "number", name: o.name, value: o.default ?? "" });
      } else {
        input = el("input", { type: "text", name: o.name, value: o.default ?? "" });
      }
      input.dataset.kind = o.choices ? "choice" : o.kind;
      box.append(el("label", { class: "option" }, el("span", { text: o.name.replace(/_/g, " ") }), input, el("small", { text: o.help })));
    }
    if (g) {
      const rows = $("#player-rows");
      while (rows.children.length < g.min_players) addPlayer();
      while (rows.children.length > g.max_players) rows.lastElementChild.remove();
    }
  }
  async function loadGames() {
    const resp = await fetch("/api/games");
    games = await resp.json();
    const box = $("#game-choices");
    const before = $('input[name="game"]:checked');
    box.replaceChildren(...games.available.map((g, i) => el("label", { class: "game-choice" + (g.available ? "" : " off") },
      el("input", { type: "radio", name: "game", value: g.name, disabled: !g.available, checked: before ? before.value === g.name : false }),
      el("span", {}, el("strong", { text: g.title }),
        el("small", { text: g.available ? t("{min}–{max} players", { min: g.min_players, max: g.max_players }) + (g.provisional ? " · " + t("provisional data") : "") : g.why })))));
    if (!$('input[name="game"]:checked')) {
      const first = $('input[name="game"]:not([disabled])');
      if (first) first.checked = true;
    }
    for (const r of $$('input[name="game"]')) r.addEventListener("change", renderOptions);
    renderOptions();
    renderSaved();
  }
  function renderSaved() {
    const list = $("#saved");
    if (!games.saved.length) { list.replaceChildren(el("li", { class: "muted", text: t("No saved games yet.") })); return; }
    list.replaceChildren(...games.saved.map((g) => el("li", {},
      el("div", {}, el("strong", { text: `#${g.id} ${g.game}` }), g.current ? el("span", { class: "tag live", text: t("on the table") }) : null,
        g.ended ? el("span", { class: "tag", text: t("ended") }) : null,
        el("div", { class: "meta", text: [g.players.join(", "), tn("one action", "{n} actions", g.actions), new Date(g.created * 1000).toLocaleString(PAGE_LANG)].join(" · ") })),
      g.current ? null : el("button", { class: "btn small", type: "button", text: g.ended ? t("Open") : t("Resume"),
        onclick: async () => { if (await act("/api/game/resume", { id: g.id }, t("Game {id} is on the table", { id: g.id }))) location.href = "/"; } }))));
  }
  $("#add-player").addEventListener("click", () => {
    const g = selectedGame();
    if (g && $("#player-rows").children.length >= g.max_players) { toast(t("{game}: at most {n} players", { game: g.title, n: g.max_players }), true); return; }
    addPlayer();
  });
  $("#remove-player").addEventListener("click", () => {
    const g = selectedGame();
    const rows = $("#player-rows");
    if (rows.children.length <= (g ? g.min_players : 1)) { toast(t("{game} needs at least {n} players", { game: g ? g.title : t("A game"), n: g ? g.min_players : 1 }), true); return; }
    rows.lastElementChild.remove();
  });
  $("#setup-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#setup-error").textContent = "";
    const g = selectedGame();
    if (!g) { $("#setup-error").textContent = t("choose a game"); return; }
    const players = $$('#player-rows input[name="player"]').map((i) => i.value.trim());
    const colorsChosen = $$('#player-rows select[name="colour"]').map((s) => s.value);
    const options = {};
    for (const input of $$("#options [name]")) {
      const k = input.dataset.kind;
      if (k === "choice") options[input.name] = JSON.parse(input.value);
      else if (k === "bool") options[input.name] = input.checked;
      else if (k === "int") { if (input.value !== "") options[input.name] = Number(input.value); }
      else if (input.value !== "") options[input.name] = input.value;
    }
    if (state.game && !state.game.finished && !confirm(t("Game {id} is still running: it stays saved and can be resumed. Start a new one?", { id: state.game.id }))) return;
    try {
      await api("/api/game/start", { game: g.name, players, colors: colorsChosen, options });
      location.href = "/";
    } catch (e) { $("#setup-error").textContent = e.message; }
  });
  $("#end-game").addEventListener("click", async () => {
    if (confirm(t("End the game now and run the final scoring?"))) await act("/api/game/end", {}, t("Game ended: final scores are on the scoreboard"));
  });
  $("#reopen-game").addEventListener("click", () => act("/api/game/reopen", {}, t("Game reopened")));
  $("#close-game").addEventListener("click", () => act("/api/game/close", {}, t("Game put away: resume it from Saved games")));

  onState((s, prev) => {
    const g = s.game;
    $("#current").hidden = !g;
    if (g) {
      const when = g.finished ? t("ended") : t("turn {turn}", { turn: g.turn });
      $("#current-desc").textContent = `#${g.id} ${g.title}: ${g.players.map((p) => `${p.name} (${colourName(p.colour)}) ${p.score}`).join(", ")} · ${when}`;
      $("#end-game").hidden = g.finished;
      $("#reopen-game").hidden = !g.finished;
    }
    if (!prev || (prev.game && prev.game.id) !== (g && g.id) || (prev.game && prev.game.finished) !== (g && g.finished)) loadGames();
  });
  for (let i = 0; i < 2; i++) addPlayer();
}

/* ------------------------------------------------------------------ camera screens */

function initCamera() {
  const screen = $("#camera-screen").dataset.screen;
  const img = $("#camera-img");
  let timer = null;
  function refresh() {
    if (!state.camera) { $("#camera-none").hidden = false; img.hidden = true; return; }
    const next = new Image();
    next.onload = () => { img.src = next.src; img.hidden = false; $("#camera-none").hidden = true; timer = setTimeout(refresh, 500); };
    next.onerror = async () => {
      // a locked phone gets 401: the camera films someone's home, it needs the table PIN
      const r = await fetch(next.src).catch(() => null);
      if (r && r.status === 401) { $("#camera-none").textContent = t("Enter the table PIN (the lock button) to see the camera."); $("#camera-none").hidden = false; }
      timer = setTimeout(refresh, 2000);
    };
    next.src = `/camera.jpg?overlay=${screen}&t=${Date.now()}`;
  }
  document.addEventListener("visibilitychange", () => { clearTimeout(timer); if (!document.hidden) refresh(); });
  refresh();
  // a printed board (Karibik, Tahiti): its corners tapped on the picture, as fractions of the frame
  let boardSteps = false;
  img.addEventListener("click", async (e) => {
    if (!boardSteps || !img.naturalWidth) return;
    const box = img.getBoundingClientRect();  // object-fit: contain: the frame is letterboxed in the box
    const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
    const w = img.naturalWidth * scale, h = img.naturalHeight * scale;
    const x = (e.clientX - box.left - (box.width - w) / 2) / w, y = (e.clientY - box.top - (box.height - h) / 2) / h;
    if (x < 0 || x > 1 || y < 0 || y > 1) return;
    const d = await act("/api/enrolment/corner", { x, y });
    if (d) $("#camera-msg").textContent = d.message;
  });
  onState((s) => {
    const game = s.game && s.game.name;
    const shown = s.commands.filter((c) => c.screen === screen && (!c.games || c.games.includes(game)));
    boardSteps = shown.some((c) => c.name === "board_enrol_board");
    img.classList.toggle("tappable", boardSteps);
    if ($("#camera-board-help")) {
      $("#camera-board-help").hidden = !boardSteps;
      $("#camera-tiles-help").hidden = boardSteps;
      $("#camera-guides").style.display = boardSteps ? "none" : "";  // the tile square means nothing on a board (an SVG has no .hidden)
    }
    $("#camera-status").replaceChildren(...Object.entries(s.status).map(([k, v]) => el("li", {}, el("b", { text: k }), v)));
    $("#camera-commands").replaceChildren(...shown.map((c) => el("button", {
      class: "btn primary", type: "button", title: c.help, text: c.label,
      onclick: async () => { const d = await act(`/api/command/${encodeURIComponent(c.name)}`, {}); if (d) $("#camera-msg").textContent = d.message; },
    })));
  });
}

/* ------------------------------------------------------------------ join page */

function initJoin() {
  const b = $("#join-unlock");
  if (b) b.addEventListener("click", async () => { if (await askPin()) location.reload(); });
}

setUnlocked(document.body.dataset.unlocked === "1");
if (page === "play") initPlay();
else if (page === "setup") initSetup();
else if (page === "calibration" || page === "enrolment") initCamera();
else if (page === "join") initJoin();
if (page !== "play") for (const a of $$(".tabbar a")) a.classList.toggle("active", a.dataset.tab === page);
onState(renderHeaderAny);

/* ------------------------------------------------------------------ notices (every page) */

const CHOICE_TEXT = { continue: t("Continue from the last good action"), new: t("Put it away, start a new game"),
                      dismiss: t("Dismiss") };
function renderNotices(s) {
  const box = $("#notices");
  if (!box) return;
  const items = s.notices || [];
  box.hidden = !items.length;
  box.replaceChildren(...items.map((n) => el("div", { class: `banner notice ${n.level === "error" ? "danger" : "warn"}`,
                                                      role: "alert", "data-notice": n.id },
    el("div", {}, el("strong", { text: n.title }), el("p", { text: n.text }),
       n.kept ? el("p", { class: "kept" }, t("Kept:"), " ", el("code", { text: n.kept })) : null),
    el("div", { class: "choices" }, (n.choices || []).map((c) => el("button", {
      type: "button", class: `btn small ${c === "dismiss" ? "light" : "primary"}`, "data-choice": c,
      onclick: async () => {
        const d = await act("/api/notice", { id: n.id, choice: c });
        if (d) toast(d.message);
        if (d && c === "new" && page !== "setup") location.href = "/setup";
      } }, CHOICE_TEXT[c] || c))))));
}

onState(renderNotices);

function renderHeaderAny(s) {
  if (page === "play") return;
  $("#game-title").textContent = s.game ? t("{title} · game {id}", { title: s.game.title, id: s.game.id }) : "";
}
