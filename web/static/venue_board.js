// The venue board: one EventSource, a fresh snapshot per "state" event, drawn with DOM nodes
// (text only, never HTML from the tables: names come from other people's phones).
"use strict";
let board = null;
let rule = document.body.dataset.rule || "wins";
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function clock(at) {
  if (!at) return "";
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function tableCard(t) {
  const online = t.online === true ? "online" : t.online === false ? "offline" : "unknown";
  const card = el("article", { class: `vb-table ${online}${t.finished ? " finished" : ""}`, "data-table": t.table });
  card.append(el("header", {}, el("h3", {}, t.table),
    el("span", { class: `vb-status ${online}` }, online)));
  card.append(el("p", { class: "vb-game" }, t.title || t.game || "no game",
    t.game_id ? ` · game ${t.game_id}` : "", t.finished ? " · finished" : (t.turn ? ` · turn ${t.turn}` : "")));
  const list = el("ol", { class: "vb-players" });
  for (const p of t.players) {
    const li = el("li", { class: (p.name === t.current ? "turn " : "") + (t.winners.includes(p.name) ? "winner" : "") },
      el("span", { class: "vb-name" }, p.name), el("span", { class: "vb-score" }, p.score));
    if (p.colour) li.style.setProperty("--player", p.colour);
    list.append(li);
  }
  card.append(list);
  if (t.current) card.append(el("p", { class: "vb-current" }, `${t.current} to play`));
  if (t.finished && t.winners.length) card.append(el("p", { class: "vb-current" },
    t.winners.join(" and ") + (t.winners.length === 1 ? " wins" : " share the win")));
  if (t.last_event) card.append(el("p", { class: "vb-last" }, t.last_event));
  return card;
}

function draw() {
  if (!board) return;
  const tables = $("vb-tables");
  tables.replaceChildren(...(board.tables.length ? board.tables.map(tableCard)
    : [el("p", { class: "vb-empty" }, "No table has published yet.")]));
  const rows = (board.standings[rule] || []).map((r) => el("tr", {},
    el("td", {}, r.rank), el("td", {}, r.player), el("td", {}, r.games), el("td", {}, r.wins),
    el("td", {}, r.points), el("td", {}, r.average), el("td", {}, r.tables.join(" "))));
  $("vb-standings").replaceChildren(...rows);
  $("vb-results").replaceChildren(...board.results.map((g) => el("li", {},
    el("b", {}, g.table), ` ${clock(g.ended)} · ${g.title || g.game}: `,
    g.players.map((p) => `${p.name} ${p.score}`).join(", "),
    g.winners.length ? ` — ${g.winners.join(" and ")}` : "")));
}

$("vb-rule").addEventListener("change", (ev) => {
  rule = ev.target.value;
  $("vb-csv").setAttribute("href", `standings.csv?rule=${encodeURIComponent(rule)}`);
  draw();
});

let source = null;
function connect() {
  const live = $("vb-live");
  source = new EventSource("events");
  source.addEventListener("open", () => { live.className = "vb-live on"; live.textContent = "live"; });
  source.addEventListener("state", (ev) => { board = JSON.parse(ev.data); draw(); });
  source.addEventListener("error", () => {
    live.className = "vb-live off"; live.textContent = "reconnecting";
    if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(connect, 3000); }
  });
}
connect();
window.venueBoard = { get board() { return board; } };
