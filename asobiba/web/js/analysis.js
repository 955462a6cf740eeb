// The analysis board (/analysis/<game>): any position (a game at any ply, a pasted record or
// moves, a set-up board), a move tree with variations, the engine's best three lines
// deepening live over /ws/analysis (two-player perfect-information games), one seat's
// knowledge (hidden-information games), export with comments and a shareable link.
// The server checks every position; this page only keeps the tree and draws.
import { mountExplorer } from "./explorer.js";
import { applyStatic, lang, mountSwitch, onLangChange, t } from "./i18n.js";
import { el, loadRenderer } from "./util.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "");

let renderer = null;
let base = { game, options: {}, seed: 0 }; // the start: options and seed, or a set-up board
const root = { move: null, children: [], parent: null, comment: "" };
let current = root;
let info = null; // the server's answer for the current node
let seat = 0; // hidden-information games: whose knowledge
let socket = null;
let analysing = false;
let editing = null; // the board being edited (rows of symbols, or one string), and its turn

function tt(key, params) {
  return t(key, params, game);
}

function $(id) {
  return document.getElementById(id);
}

/** A coded error ({code, args}) in the page's language. */
function said(error) {
  if (!error || !error.code) return t("error.unreachable");
  const args = { ...(error.args || {}) };
  if (args.reason) args.reason = t(`analysis.why.${args.reason}`);
  if (args.why) args.why = t(`analysis.why.${args.why}`);
  if (args.what) args.what = t(`analysis.what.${args.what}`);
  const key = `analysis.err.${error.code}`;
  const text = t(key, args);
  return text === key ? error.code : text;
}

function line(node = current) {
  const out = [];
  for (let n = node; n.parent; n = n.parent) out.unshift(n.move);
  return out;
}

function spec(node = current) {
  return { ...base, moves: line(node) };
}

function seatName(s) {
  const ctx = { t: tt, lang: lang() };
  return renderer && renderer.seatName ? renderer.seatName(s, ctx) : tt("room.seat_name", { n: s + 1 });
}

function label(move) {
  return renderer && renderer.moveLabel ? renderer.moveLabel(move, { t: tt, lang: lang() }) : move;
}

async function post(path, body) {
  try {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => null);
    return { ok: res.ok, status: res.status, body: data };
  } catch {
    return { ok: false, status: 0, body: null };
  }
}

// ---- the position ---------------------------------------------------------------------------
// the latest position asked for: an answer to an older request (the player moved on while it
// was on its way) is dropped, so a slow answer never draws a position the player has left
// nor undoes a later move with its error
let asked = 0;
// answers received, stale ones included (data-answered, for the browser tests)
let answered = 0;

// true: drawn; false: refused or unreachable (shown); null: superseded by a later request
async function refresh() {
  const mine = ++asked;
  const answer = await post("/api/analysis/position", { ...spec(), seat });
  document.body.dataset.answered = String(++answered);
  if (mine !== asked) return null;
  if (!answer.ok || !answer.body) {
    const err = answer.body && answer.body.error ? answer.body.error : null;
    $("error").textContent = answer.status === 0 ? t("error.unreachable") : said(err);
    document.body.dataset.status = "error";
    return false;
  }
  $("error").textContent = "";
  info = answer.body;
  document.body.dataset.status = "ready";
  draw();
  if (analysing) startEngine();
  return true;
}

function isHidden() {
  return info ? info.engine === false && info.seat !== null && info.seat !== undefined : false;
}

function draw() {
  if (!info || !renderer) return;
  const legal = new Set(info.legal_moves || []);
  const ctx = { lang: lang(), t: tt, seat: isHidden() ? seat : null, view: info.view, legal, play: (m) => play(String(m)), replay: false };
  $("board").replaceChildren(renderer.render(info.view, ctx));
  const n = line().length;
  const last = current.move ? ` — ${label(current.move)}` : ` — ${t("replay.start")}`;
  const toMove = info.over ? t("analysis.over") : tt("analysis.to_move_is", { who: seatName(info.to_move) });
  $("status").textContent = `${t("analysis.ply", { n })}${last}. ${toMove}`;
  document.body.dataset.ply = String(n);
  drawTree();
  drawSeat();
  $("engine-box").hidden = !info.engine;
  $("editor-box").hidden = !palette();
  $("comment").value = current.comment || "";
  void writeTree();
  drawExplorer();
}

// the opening explorer (js/explorer.js) under the engine, for the games it indexes, from
// the start position only (an edited board has no games behind it)
let explorer = null;
let explorerId = null;
// the explorers and the game options each fixes (GET /api/explorer; null until answered)
let explorerList = null;

async function loadExplorers() {
  try {
    const res = await fetch("/api/explorer");
    explorerList = res.ok ? (await res.json()).explorers || [] : [];
  } catch {
    explorerList = [];
  }
}

function explorerFor() {
  if (base.setup || !explorerList) return null;
  const options = base.options || {};
  const fits = (e) => Object.entries(e.options).every(([k, v]) => (options[k] || e.defaults[k]) === v);
  const found = explorerList.find((e) => e.game === game && fits(e));
  return found ? found.explorer : null;
}

function drawExplorer() {
  const box = $("explorer");
  const id = explorerFor();
  box.hidden = !id;
  if (!id) return;
  if (id !== explorerId) {
    explorerId = id;
    explorer = mountExplorer(box, { game: id, moves: line(), onPlay: (m) => play(String(m)), label, seatName });
  } else explorer.update(line());
}

function play(move) {
  let child = current.children.find((c) => c.move === move);
  if (!child) {
    child = { move, children: [], parent: current, comment: "" };
    current.children.push(child);
  }
  go(child);
}

function go(node) {
  if (!node) return;
  const before = current;
  current = node;
  void refresh().then((ok) => {
    if (ok === false && before !== node) {
      // a move the server refused: take it out of the tree and stay where we were
      if (node.parent && node.children.length === 0 && !node.comment) node.parent.children = node.parent.children.filter((c) => c !== node);
      current = before;
      draw();
    }
  });
}

// ---- the move tree --------------------------------------------------------------------------
function moveButton(node, ply) {
  const number = ply % 2 === 1 || !node.parent.parent ? `${Math.ceil(ply / 2)}${ply % 2 ? "." : "…"} ` : "";
  const b = el("button", { type: "button", class: "tree-move", "data-ply": String(ply), "data-move": node.move }, `${number}${label(node.move)}`);
  if (node === current) b.setAttribute("aria-current", "true");
  b.addEventListener("click", () => go(node));
  const out = [b];
  if (node.comment) out.push(el("span", { class: "tree-comment" }, ` {${node.comment}} `));
  return out;
}

/** The main line from ``node`` on, with each branch's alternatives as nested variations. */
function drawLine(node, ply) {
  const out = [];
  let n = node;
  let p = ply;
  while (n.children.length) {
    const [main, ...rest] = n.children;
    out.push(...moveButton(main, p + 1));
    for (const alt of rest) {
      const v = el("span", { class: "variation", role: "group", "aria-label": t("analysis.variation") }, "( ", ...moveButton(alt, p + 1), ...drawLine(alt, p + 1), " )");
      out.push(v);
    }
    n = main;
    p += 1;
  }
  return out;
}

function drawTree() {
  const start = el("button", { type: "button", class: "tree-move", "data-ply": "0" }, t("replay.start"));
  if (current === root) start.setAttribute("aria-current", "true");
  start.addEventListener("click", () => go(root));
  $("tree").replaceChildren(start, " ", ...drawLine(root, 0));
}

function promote() {
  for (let n = current; n.parent; n = n.parent) {
    const kids = n.parent.children;
    kids.splice(kids.indexOf(n), 1);
    kids.unshift(n);
  }
  drawTree();
  void writeTree();
}

function remove() {
  if (!current.parent) return;
  const parent = current.parent;
  parent.children = parent.children.filter((c) => c !== current);
  go(parent);
}

function mainEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

// ---- the engine -----------------------------------------------------------------------------
function value(ln) {
  if (ln.verdict === "draw") return t("analysis.draw");
  if (ln.verdict) {
    const key = ln.margin === null || ln.margin === undefined ? `analysis.${ln.verdict}` : `analysis.${ln.verdict}_by`;
    return tt(key, { n: Math.abs(ln.margin || 0) });
  }
  const v = ln.value;
  return `${v > 0 ? "+" : ""}${Math.round(v * 10) / 10}`;
}

function drawLines(message) {
  const items = message.lines.map((ln, i) => {
    const moves = ln.pv.map((m, j) => {
      const b = el("button", { type: "button", class: "pv-move", "data-pv": `${i}:${j}` }, label(m));
      b.addEventListener("click", () => playLine(ln.pv.slice(0, j + 1)));
      return b;
    });
    return el("li", { "data-verdict": ln.verdict || "" }, el("strong", { class: "pv-value" }, value(ln)), " ", ...moves);
  });
  $("lines").replaceChildren(...items);
}

function playLine(moves) {
  let node = current;
  for (const move of moves) {
    let child = node.children.find((c) => c.move === move);
    if (!child) {
      child = { move, children: [], parent: node, comment: "" };
      node.children.push(child);
    }
    node = child;
  }
  go(node);
}

function stopEngine() {
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
}

function startEngine() {
  if (!info || !info.engine || info.over) {
    $("engine-status").textContent = info && info.over ? t("analysis.over") : "";
    $("lines").replaceChildren();
    return;
  }
  const position = spec();
  const send = () => socket.send(JSON.stringify({ type: "analyse", position }));
  $("lines").replaceChildren();
  $("engine-status").textContent = t("analysis.thinking");
  document.body.dataset.engine = "running";
  if (socket && socket.readyState === WebSocket.OPEN) {
    send();
    return;
  }
  stopEngine();
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/analysis`);
  socket.onopen = send;
  socket.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "depth") {
      drawLines(m);
      $("engine-status").textContent = t("analysis.depth", { n: m.depth, cpu: (m.used || 0).toFixed(1), budget: m.budget });
      document.body.dataset.depth = String(m.depth);
    } else if (m.type === "stopped") {
      $("engine-status").textContent = t(`analysis.stopped_${m.reason}`, { n: m.depth });
      document.body.dataset.engine = `stopped-${m.reason}`;
    } else if (m.type === "error") {
      $("engine-status").textContent = said(m);
      document.body.dataset.engine = "error";
    }
  };
  socket.onclose = () => {
    socket = null;
  };
}

function toggleEngine() {
  analysing = !analysing;
  $("engine-toggle").setAttribute("aria-pressed", String(analysing));
  $("engine-toggle").textContent = t(analysing ? "analysis.stop" : "analysis.start");
  if (analysing) startEngine();
  else {
    stopEngine();
    $("engine-status").textContent = "";
    document.body.dataset.engine = "off";
  }
}

// ---- one seat's knowledge (hidden-information games) ----------------------------------------
function pct(p) {
  return `${Math.round(p * 1000) / 10}%`;
}

function drawSeat() {
  const box = $("seat-box");
  const a = info.seat_analysis;
  box.hidden = !a;
  if (!a) return;
  const sel = $("seat");
  const n = info.view.seats || 2;
  sel.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s }, seatName(s))));
  sel.value = String(seat);
  const out = [el("p", { class: "help" }, t("analysis.seat_secret"))];
  // the game's own panel (its renderer's ``knowledge``); a game without one shows the help only
  if (renderer && renderer.knowledge) {
    const ctx = { t: tt, lang: lang(), label, play: (m) => play(String(m)), pct };
    out.push(...renderer.knowledge(a, ctx));
  }
  $("seat-analysis").replaceChildren(...out);
}

// ---- export and share -----------------------------------------------------------------------
// The server writes the tree (POST /api/analysis/export): the notation with every variation
// and comment, and the share token (that notation deflated, URL-safe) — the one writer, so
// what is exported pastes back and what is shared opens as the same tree.
/** The tree in the server's flat form: {comment, nodes: [[parent, move, comment], ...]} in
 * pre-order (a nested form would be as deep as the game is long). */
function treeJson() {
  const nodes = [];
  const todo = [...root.children].reverse().map((n) => [n, -1]);
  while (todo.length) {
    const [n, parent] = todo.pop();
    nodes.push([parent, n.move, n.comment || ""]);
    const here = nodes.length - 1;
    for (const c of [...n.children].reverse()) todo.push([c, here]);
  }
  return { comment: root.comment || "", nodes };
}

function pathOf(node = current) {
  const out = [];
  for (let n = node; n.parent; n = n.parent) out.unshift(n.parent.children.indexOf(n));
  return out.join(".");
}

let written = 0; // the latest export asked for: an older answer arriving later is dropped
async function writeTree() {
  const mine = ++written;
  document.body.dataset.link = "busy";
  const body = { game, options: base.options || {}, seed: base.seed || 0, tree: treeJson() };
  if (base.setup) body.setup = base.setup;
  const answer = await post("/api/analysis/export", body);
  if (mine !== written) return null;
  document.body.dataset.link = "ready";
  if (!answer.ok || !answer.body) {
    $("link").value = "";
    $("link-note").textContent = answer.status === 0 ? t("error.unreachable") : said(answer.body && answer.body.error);
    return null;
  }
  const out = answer.body;
  if (out.share) {
    const q = new URLSearchParams({ tree: out.share });
    const at = pathOf();
    if (at) q.set("at", at);
    if (isHidden()) q.set("seat", String(seat));
    $("link").value = `${location.origin}${location.pathname}?${q.toString()}`;
    $("link-note").textContent = "";
  } else {
    $("link").value = "";
    $("link-note").textContent = said(out.share_error);
  }
  return out;
}

/** The page's tree from the server's JSON (an import or a share link). */
function adopt(answer) {
  base = { game, options: answer.options || {}, seed: answer.seed || 0 };
  if (answer.setup) base.setup = answer.setup;
  root.comment = answer.tree.comment || "";
  root.children = [];
  const made = [];
  for (const [parent, move, comment] of answer.tree.nodes) {
    const above = parent < 0 ? root : made[parent];
    const node = { move, comment, parent: above, children: [] };
    above.children.push(node);
    made.push(node);
  }
  current = root;
}

async function importTree(body) {
  const answer = await post("/api/analysis/import", { game, ...body });
  if (!answer.ok || !answer.body) {
    $("error").textContent = answer.status === 0 ? t("error.unreachable") : said(answer.body && answer.body.error);
    document.body.dataset.status = "error";
    return false;
  }
  adopt(answer.body);
  return true;
}

// ---- loading: a record, pasted text, the URL ------------------------------------------------
function setMainLine(moves, ply) {
  root.children = [];
  let node = root;
  for (const move of moves) {
    const child = { move, children: [], parent: node, comment: "" };
    node.children.push(child);
    node = child;
  }
  current = root;
  for (let i = 0; i < Math.min(ply, moves.length); i++) current = current.children[0];
}

async function loadRecord(body, ply) {
  const answer = await post("/api/analysis/position", { game, ...body });
  if (!answer.ok || !answer.body) {
    $("error").textContent = answer.status === 0 ? t("error.unreachable") : said(answer.body && answer.body.error);
    return false;
  }
  base = { game, options: answer.body.options, seed: answer.body.seed };
  setMainLine(answer.body.moves, ply === null ? answer.body.moves.length : ply);
  return refresh();
}

async function loadPasted() {
  const text = $("paste").value.trim();
  if (!text) return;
  if (/^\[\s*Game\s+"/.test(text)) {
    // the board's own export: the whole tree, variations and comments
    if (await importTree({ notation: text })) await refresh();
    return;
  }
  if (text.startsWith("{")) {
    let record = null;
    try {
      record = JSON.parse(text);
    } catch {
      $("error").textContent = said({ code: "analysis_bad_record", args: { detail: "JSON" } });
      return;
    }
    await loadRecord({ record }, null);
  } else if (text.startsWith("[") || /^\s*\S+\s*=/.test(text)) {
    await loadRecord({ notation: text }, null);
  } else {
    const moves = text.includes("\n") ? text.split(/\n+/).map((s) => s.trim()).filter(Boolean) : text.split(/[\s,]+/).filter(Boolean);
    const answer = await post("/api/analysis/position", { ...base, moves });
    if (!answer.ok) {
      $("error").textContent = said(answer.body && answer.body.error);
      return;
    }
    setMainLine(moves, moves.length);
    await refresh();
  }
}

// ---- the board editor -----------------------------------------------------------------------
/** The symbols a cell of the game's editor cycles through (its renderer's ``palette``, the
 * first meaning empty), or null: a game without one has no board editor. */
function palette() {
  return renderer && typeof renderer.palette === "string" && renderer.palette ? renderer.palette : null;
}

function drawEditor() {
  const grid = $("edit-grid");
  const symbols = palette() || ".";
  if (typeof editing.board === "string") {
    const input = el("input", { type: "text", id: "edit-text", value: editing.board, "aria-label": t("analysis.board_text"), spellcheck: "false" });
    input.addEventListener("input", () => (editing.board = input.value));
    grid.replaceChildren(input);
  } else {
    const rows = editing.board.map((row, r) => el("div", { role: "row", class: "edit-row" }, ...[...row].map((ch, c) => {
      const b = el("button", { type: "button", role: "gridcell", class: "edit-cell", "data-cell": `${r}:${c}`, "aria-label": t("analysis.cell", { r: r + 1, c: c + 1, piece: t(`analysis.piece.${ch === "." ? "none" : ch}`) }) }, ch === "." ? "·" : ch);
      b.addEventListener("click", () => {
        const next = symbols[(symbols.indexOf(ch) + 1) % symbols.length];
        editing.board[r] = row.slice(0, c) + next + row.slice(c + 1);
        drawEditor();
        const again = document.querySelector(`[data-cell="${r}:${c}"]`);
        if (again) again.focus();
      });
      return b;
    })));
    grid.replaceChildren(...rows);
  }
  const turn = $("edit-turn");
  turn.replaceChildren(...[0, 1].map((s) => el("option", { value: s }, seatName(s))));
  turn.value = String(editing.turn);
}

function toggleEditor() {
  const open = $("editor").hidden;
  $("editor").hidden = !open;
  $("edit").setAttribute("aria-pressed", String(open));
  if (open && info) {
    const b = info.view.board;
    editing = { board: Array.isArray(b) ? [...b] : String(b), turn: info.to_move || 0 };
    drawEditor();
  }
}

async function applyEditor() {
  const setup = { board: editing.board, turn: Number($("edit-turn").value) };
  const answer = await post("/api/analysis/position", { game, options: base.options, setup, moves: [] });
  if (!answer.ok) {
    $("error").textContent = said(answer.body && answer.body.error);
    document.body.dataset.status = "error";
    return;
  }
  base = { game, options: base.options, seed: 0, setup };
  setMainLine([], 0);
  $("editor").hidden = true;
  $("edit").setAttribute("aria-pressed", "false");
  await refresh();
}

// ---- start ----------------------------------------------------------------------------------
function json(text, fallback) {
  try {
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

async function main() {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  [renderer] = await Promise.all([loadRenderer(game), loadExplorers()]);
  onLangChange(() => {
    $("engine-toggle").textContent = t(analysing ? "analysis.stop" : "analysis.start");
    draw();
  });
  $("first").addEventListener("click", () => go(root));
  $("back").addEventListener("click", () => go(current.parent || root));
  $("forward").addEventListener("click", () => go(current.children[0] || current));
  $("last").addEventListener("click", () => go(mainEnd(current)));
  $("engine-toggle").addEventListener("click", toggleEngine);
  $("promote").addEventListener("click", promote);
  $("delete").addEventListener("click", remove);
  $("comment").addEventListener("input", (e) => {
    current.comment = e.target.value;
  });
  $("comment").addEventListener("change", drawTree);
  $("export").addEventListener("click", async () => {
    $("export-box").hidden = false;
    const out = await writeTree();
    if (out) $("export-text").value = out.notation;
  });
  $("comment").addEventListener("change", () => void writeTree());
  $("copy-link").addEventListener("click", async () => {
    await writeTree();
    $("link").select();
    try {
      await navigator.clipboard.writeText($("link").value);
    } catch {
      // no clipboard here: the link is selected in its field
    }
  });
  $("paste-load").addEventListener("click", loadPasted);
  $("edit").addEventListener("click", toggleEditor);
  $("edit-apply").addEventListener("click", applyEditor);
  $("edit-clear").addEventListener("click", () => {
    editing.board = Array.isArray(editing.board) ? editing.board.map((r) => ".".repeat(r.length)) : editing.board.replace(/[^.]/g, ".");
    drawEditor();
  });
  $("seat").addEventListener("change", (e) => {
    seat = Number(e.target.value);
    void refresh();
  });
  document.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === "ArrowLeft") go(current.parent || root);
    else if (e.key === "ArrowRight") go(current.children[0] || current);
    else if (e.key === "Home") go(root);
    else if (e.key === "End") go(mainEnd(current));
    else return;
    e.preventDefault();
  });

  const q = new URLSearchParams(location.search);
  const ply = q.has("ply") ? Number(q.get("ply")) : null;
  seat = q.has("seat") ? Number(q.get("seat")) : 0;
  const room = q.get("room");
  const stored = q.get("record");
  if (room || stored) {
    let record = null;
    try {
      const res = await fetch(room ? `/api/rooms/${encodeURIComponent(room)}/record` : `/api/records/${encodeURIComponent(stored)}`);
      record = res.ok ? await res.json() : null;
    } catch {
      record = null;
    }
    if (!record) {
      $("error").textContent = t("analysis.err.no_record");
      document.body.dataset.status = "error";
      return;
    }
    await loadRecord({ record }, ply);
    return;
  }
  if (q.has("tree")) {
    if (!(await importTree({ share: q.get("tree") }))) return;
    for (const i of (q.get("at") || "").split(".").filter(Boolean)) {
      const next = current.children[Number(i)];
      if (!next) break;
      current = next;
    }
    await refresh();
    return;
  }
  base = { game, options: json(q.get("options"), {}), seed: Number(q.get("seed") || 0) };
  const setup = json(q.get("setup"), null);
  if (setup) base.setup = setup;
  const moves = json(q.get("moves"), []);
  setMainLine(Array.isArray(moves) ? moves.map(String) : [], ply === null ? moves.length : ply);
  if ((await refresh()) === false && current !== root) {
    current = root;
    await refresh();
  }
}

main();
