// The standalone opening explorer page (/explorer/<game>): a board from the game's renderer
// (asobiba/web/games/<game>.js) and the explorer's table (js/explorer.js). Clicking a move
// on the board or in the table walks the tree; Start and Back walk it back. The line is kept
// in the address (?moves=f5,d6) so a position can be linked.
import { applyStatic, has, lang, mountSwitch, onLangChange, t } from "./i18n.js";
import { armBoard } from "./board.js";
import { el, loadAllWords, loadRenderer } from "./util.js";
import { mountExplorer } from "./explorer.js";

// the explorers come from the server (GET /api/explorer: each game's explorer hook)
let explorers = [];
let entry = null;

// the explorer asked for (/explorer/<name>), or the first the server lists
let name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
let line = (new URLSearchParams(location.search).get("moves") || "").split(",").filter(Boolean);
let renderer = null;
let explorer = null;

function tt(key, params) {
  return t(key, params, renderer && renderer.game);
}

function ctx() {
  return { t: tt, lang: lang() };
}

function label(move) {
  return renderer && renderer.moveLabel ? renderer.moveLabel(move, ctx()) : move;
}

function seatName(seat) {
  return renderer && renderer.seatName ? renderer.seatName(seat, ctx()) : tt("room.seat_name", { n: seat + 1 });
}

function play(move) {
  line = [...line, move];
  go();
}

function go() {
  const url = new URL(location.href);
  if (line.length) url.searchParams.set("moves", line.join(","));
  else url.searchParams.delete("moves");
  history.replaceState(null, "", url);
  document.body.dataset.status = "loading";
  explorer.update(line);
}

function drawBoard(data) {
  const board = document.getElementById("board");
  const lineNode = document.getElementById("line");
  document.getElementById("back").disabled = !line.length;
  document.getElementById("start").disabled = !line.length;
  if (!data) {
    // a refused line (an illegal move in the address): back to the last good position
    document.body.dataset.status = "error";
    return;
  }
  lineNode.textContent = data.moves.length ? data.moves.map(label).join(" ") : tt("explorer.line_empty");
  const view = data.view;
  const c = { ...ctx(), seat: data.to_move, view, legal: new Set(data.legal), play };
  board.replaceChildren(renderer.render(view, c));
  armBoard(board);
  board.setAttribute("aria-label", tt("board"));
  document.getElementById("status").textContent = data.over ? tt("explorer.over") : tt("room.turn_of", { name: seatName(data.to_move) });
  document.body.dataset.status = "ready";
}

async function main() {
  applyStatic();
  mountSwitch(document.getElementById("lang"));
  const select = document.getElementById("game");
  try {
    const res = await fetch("/api/explorer");
    if (res.ok) explorers = (await res.json()).explorers || [];
  } catch {
    explorers = [];
  }
  if (!name && explorers.length) name = explorers[0].explorer;
  entry = explorers.find((e) => e.explorer === name) || null;
  await loadAllWords(explorers.map((e) => e.game)); // a book's name is its game's words
  // an explorer's name: its game's words (words.json), else its id
  const title = (e) => (has(`explorer.g:${e.explorer}`) ? t(`explorer.g:${e.explorer}`) : e.explorer);
  const fill = () => {
    select.replaceChildren(...explorers.map((e) => el("option", { value: e.explorer }, title(e))));
    select.value = entry ? entry.explorer : "";
  };
  fill();
  select.addEventListener("change", () => {
    location.href = `/explorer/${encodeURIComponent(select.value)}`;
  });
  renderer = await loadRenderer(entry ? entry.game : "generic");
  const section = document.getElementById("explorer");
  section.addEventListener("explorer:loaded", (e) => drawBoard(e.detail));
  document.getElementById("start").addEventListener("click", () => {
    line = [];
    go();
  });
  document.getElementById("back").addEventListener("click", () => {
    line = line.slice(0, -1);
    go();
  });
  explorer = mountExplorer(section, { game: name, moves: line, onPlay: play, label, seatName });
  onLangChange(() => {
    fill();
    if (explorer.data) drawBoard(explorer.data);
  });
}

main();
