// Small DOM helpers, seat-key storage and renderer loading shared by every page.

import { refusalText } from "./codes.js";
import { addWords, has, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** el("div", {class: "x", onclick: fn}, child, "text") */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** The same for SVG elements. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Make an SVG shape a keyboard-usable button that plays ``move``. */
export function moveTarget(node, move, ctx, label) {
  node.setAttribute("data-move", move);
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label || move);
  node.classList.add("target");
  node.addEventListener("click", () => ctx.play(move));
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      ctx.play(move);
    }
  });
  return node;
}

// ---- seat keys: kept in this browser only ----------------------------------------------
export function loadKeys(room) {
  try {
    return JSON.parse(localStorage.getItem(`asobiba.keys.${room}`) || "[]");
  } catch {
    return [];
  }
}

export function saveKeys(room, keys) {
  const merged = new Map(loadKeys(room).map((k) => [k.seat, k.key]));
  for (const k of keys) merged.set(k.seat, k.key);
  localStorage.setItem(`asobiba.keys.${room}`, JSON.stringify([...merged].map(([seat, key]) => ({ seat, key }))));
}

export function loadInvites(room) {
  try {
    return JSON.parse(localStorage.getItem(`asobiba.invites.${room}`) || "[]");
  } catch {
    return [];
  }
}

export function saveInvites(room, invites) {
  localStorage.setItem(`asobiba.invites.${room}`, JSON.stringify(invites));
}

// ---- renderers -----------------------------------------------------------------------
const cache = new Map();
const wordsLoaded = new Map();

/** Add a game's own words (its folder's words.json, served as /static/games/<id>.words.json)
 * to the i18n table, once per page: every page that shows a game's words (its renderer, its
 * options, levels, codes, puzzle sets, explorers) awaits this first — loadRenderer does. */
export function loadWords(gameId) {
  if (!wordsLoaded.has(gameId)) {
    wordsLoaded.set(gameId, (async () => {
      try {
        const words = await fetch(`/static/games/${encodeURIComponent(gameId)}.words.json`);
        if (words.ok) addWords(gameId, await words.json());
      } catch {
        // no words of its own (the generic renderer): the key is shown
      }
    })());
  }
  return wordsLoaded.get(gameId);
}

/** The words of several games at once (a page listing every game's puzzle sets or books). */
export function loadAllWords(gameIds) {
  return Promise.all([...new Set(gameIds)].map(loadWords));
}

/** The renderer module of a game (served from the game's folder as /static/games/<id>.js,
 * with its words, /static/games/<id>.words.json), or the generic one. */
export async function loadRenderer(gameId) {
  if (cache.has(gameId)) return cache.get(gameId);
  let mod;
  const id = encodeURIComponent(gameId);
  try {
    mod = (await import(`/static/games/${id}.js`)).default;
  } catch {
    mod = (await import("/static/games/generic.js")).default;
  }
  await loadWords(gameId);
  // the renderer for this game: its methods (through the prototype) and the id its words are
  // filed under in the one i18n table (js/i18n.js, "<game>.<key>")
  const renderer = Object.assign(Object.create(mod), { game: gameId });
  cache.set(gameId, renderer);
  return renderer;
}

// The API's one error shape is {"error": {"code", "message", "args"?}}: a refusal is shown
// from its code (``err:<code>`` with its arguments, through js/codes.js) in the page's
// language; the server's English ``message`` only for a code the table does not know. A 5xx
// is the server's fault and is shown as such, never as a fault of what the person sent.
export function errorMessage(body, status, game = null) {
  const err = body && typeof body.error === "object" && body.error ? body.error : null;
  if (status < 500 && err && err.code && has(`err:${err.code}`, game)) return refusalText(err, game);
  const msg = err && err.message ? err.message : `HTTP ${status}`;
  return status >= 500 ? `${t("error.server")} (${msg})` : msg;
}

/** An Error for a refused HTTP call: its text in the page's language (errorMessage), and the
 * refusal's ``code``, ``args`` and ``status`` for a page that words some codes its own way. */
export function httpError(body, status) {
  const err = body && typeof body.error === "object" && body.error ? body.error : {};
  return Object.assign(new Error(errorMessage(body, status)), { code: err.code, args: err.args || {}, status });
}

export async function api(path, options = {}) {
  const res = await fetch(path, options);
  const type = res.headers.get("content-type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw httpError(body, res.status);
  return body;
}

/** Make an SVG shape a keyboard-usable button that picks something (a piece, a card, a
 * cell) before the move is chosen; ``attr`` names it so focus can find it again. */
export function pickTarget(node, attr, value, label, selected, onPick) {
  node.setAttribute(attr, value);
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.setAttribute("aria-pressed", String(!!selected));
  node.classList.add("target", "pickable");
  if (selected) node.classList.add("selected");
  node.addEventListener("click", onPick);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onPick();
    }
  });
  return node;
}

/** A row of big HTML buttons under a board (≥ 44 px each, so a finger can hit them): the
 * second step of a two-step move, e.g. the CP call or the colour to play. */
export function movePad(title, moves, ctx, label) {
  return el(
    "div",
    { class: "move-pad", role: "group", "aria-label": title },
    el("span", { class: "pad-title" }, title),
    ...moves.map((m) => el("button", { type: "button", class: "pad-move", "data-move": m, onclick: () => ctx.play(m) }, label(m))),
  );
}

/** A small SVG swatch for the rules panel's legend. */
export function swatch(...children) {
  return svg("svg", { viewBox: "0 0 40 40", width: 28, height: 28, class: "swatch", "aria-hidden": "true" }, ...children);
}
