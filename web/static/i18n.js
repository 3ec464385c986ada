/* The page's words in the reader's language (docs/web.md). The hub puts this phone's dictionary
   (page.po for its language: English reads {}) in <script id="page-dictionary">; every script
   writes its English sentence in t("...") and gets the translation, {placeholders} filled as in
   Python: t("{player} to play", { player: "Ana" }). Loaded before every other script. */
"use strict";

const PAGE_LANG = document.documentElement.lang || "en";
const PAGE_WORDS = (() => {
  const node = document.getElementById("page-dictionary");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
})();

function fillIn(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

/* A sentence in the reader's language. */
function t(template, params) {
  const found = PAGE_WORDS[template];
  return fillIn(typeof found === "string" && found ? found : template, params);
}

/* A sentence with a count: tn("one move", "{n} moves", n); {n} is filled in either form. */
function tn(singular, plural, n, params) {
  const all = Object.assign({ n }, params || {});
  const found = PAGE_WORDS[singular];
  // French counts 0 and 1 as one; German and English only 1
  const other = PAGE_LANG === "fr" ? n > 1 : n !== 1;
  if (Array.isArray(found) && found.length === 2 && found[0] && found[1]) return fillIn(found[other ? 1 : 0], all);
  return fillIn(other ? plural : singular, all);
}
