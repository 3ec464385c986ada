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

function joinNames(names) {
  return names.length < 2 ? names.join("") : [names.slice(0, -1).join(", "), t("and"), names[names.length - 1]].join(" ");
}

const ONLINE_WORDS = { online: t("online"), offline: t("offline"), unknown: t("unknown") };

function tableCard(tb) {
  const online = tb.online === true ? "online" : tb.online === false ? "offline" : "unknown";
  const card = el("article", { class: `vb-table ${online}${tb.finished ? " finished" : ""}`, "data-table": tb.table });
  card.append(el("header", {}, el("h3", {}, tb.table),
    el("span", { class: `vb-status ${online}` }, ONLINE_WORDS[online])));
  card.append(el("p", { class: "vb-game" }, tb.title || tb.game || t("no game"),
    tb.game_id ? " · " + t("game {id}", { id: tb.game_id }) : "", tb.finished ? " · " + t("finished") : (tb.turn ? " · " + t("turn {turn}", { turn: tb.turn }) : "")));
  const list = el("ol", { class: "vb-players" });
  for (const p of tb.players) {
    const li = el("li", { class: (p.name === tb.current ? "turn " : "") + (tb.winners.includes(p.name) ? "winner" : "") },
      el("span", { class: "vb-name" }, p.name), el("span", { class: "vb-score" }, p.score));
    if (p.colour) li.style.setProperty("--player", p.colour);
    list.append(li);
  }
  card.append(list);
  if (tb.current) card.append(el("p", { class: "vb-current" }, t("{player} to play", { player: tb.current })));
  if (tb.finished && tb.winners.length) card.append(el("p", { class: "vb-current" },
    tb.winners.length === 1 ? t("{player} wins", { player: tb.winners[0] }) : t("{players} share the win", { players: joinNames(tb.winners) })));
  if (tb.last_event) card.append(el("p", { class: "vb-last" }, tb.last_event));
  return card;
}

function draw() {
  if (!board) return;
  const tables = $("vb-tables");
  tables.replaceChildren(...(board.tables.length ? board.tables.map(tableCard)
    : [el("p", { class: "vb-empty" }, t("No table has published yet."))]));
  const rows = (board.standings[rule] || []).map((r) => el("tr", {},
    el("td", {}, r.rank), el("td", {}, r.player), el("td", {}, r.games), el("td", {}, r.wins),
    el("td", {}, r.points), el("td", {}, r.average), el("td", {}, r.tables.join(" "))));
  $("vb-standings").replaceChildren(...rows);
  $("vb-results").replaceChildren(...board.results.map((g) => el("li", {},
    el("b", {}, g.table), ` ${clock(g.ended)} · ${g.title || g.game}: `,
    g.players.map((p) => `${p.name} ${p.score}`).join(", "),
    g.winners.length ? ` — ${joinNames(g.winners)}` : "")));
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
  source.addEventListener("open", () => { live.className = "vb-live on"; live.textContent = t("live"); });
  source.addEventListener("state", (ev) => { board = JSON.parse(ev.data); draw(); });
  source.addEventListener("error", () => {
    live.className = "vb-live off"; live.textContent = t("reconnecting");
    if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(connect, 3000); }
  });
}
connect();
window.venueBoard = { get board() { return board; } };
