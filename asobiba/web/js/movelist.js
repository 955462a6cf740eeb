// The move list of the game page and of the replay viewer, drawn like a score sheet: where
// a game has two sides (two seats taking turns) one numbered row per full move,
// "1. c4 e3", the first seat's moves left and the second's right; otherwise (three or more
// seats, or everyone at once) a compact run of numbered plies with a short seat mark. Every
// ply is a button that shows the position after it. The list is ONE stop of the Tab key
// (a roving tabindex: only the entry shown takes the focus from Tab) and the arrow keys step
// through it: Left/Right one ply, Up/Down one row, Home the start, End the last move.
import { el } from "./util.js";

/** Two sides: exactly two seats that take turns (not everyone at once). */
export function isPaired(seats, simultaneous) {
  return seats === 2 && !simultaneous;
}

/** Rows of a score sheet: a new row starts when a seat moves whose column is left of the
 * last mover's (the first seat again after the second; a run of moves by one seat — Algo's
 * attacks after a hit — stays in its cell). Each row: [{seat, plies: [ply...]}, ...] by seat. */
export function sheetRows(seats, seatCount) {
  const rows = [];
  let prev = null;
  seats.forEach((s, i) => {
    if (!rows.length || (prev !== null && s < prev)) rows.push(Array.from({ length: seatCount }, (_, k) => ({ seat: k, plies: [] })));
    rows[rows.length - 1][s].plies.push(i + 1);
    prev = s;
  });
  return rows;
}

/** Draw the list into ``list`` (an <ol>).
 * ``entries[i]`` is move i+1: {seat, text (what the button shows), said (words before it for
 * a screen reader only, e.g. "● Black: "), extra (nodes after the button), cls, attrs};
 * ``current`` the ply on screen; ``onStep(ply)`` shows a ply. */
export function drawMoveList(list, { entries, seatCount, paired, current, startLabel, onStep }) {
  const button = (ply, body, said) => el("button", { type: "button", class: "step", "data-step": String(ply), "aria-current": current === ply ? "step" : null, tabindex: current === ply ? "0" : "-1", onclick: () => onStep(ply) }, said ? el("span", { class: "sr-only" }, said) : null, body);
  // the sheet's number is its row's (a full move), said before each entry; the compact
  // list shows each ply's own number
  const entry = (i, row) => {
    const e = entries[i];
    const body = row ? button(i + 1, e.text, `${row}. ${e.said || ""}`) : button(i + 1, `${i + 1}. ${e.text}`, e.said);
    return el("li", { "data-ply": String(i), "data-seat": String(e.seat), ...(e.attrs || {}), class: e.cls || null }, body, ...(e.extra || []));
  };
  const start = el("li", { class: "start" }, button(0, startLabel));
  list.dataset.layout = paired ? "sheet" : "compact";
  if (paired) {
    const rows = sheetRows(entries.map((e) => e.seat), seatCount);
    list.replaceChildren(start, ...rows.map((row, r) => el("li", { class: "row", "data-row": String(r + 1) },
      el("span", { class: "num", "aria-hidden": "true" }, `${r + 1}.`),
      ...row.map((cell) => el("ol", { class: "cell", "data-col": String(cell.seat) }, ...cell.plies.map((p) => entry(p - 1, r + 1)))))));
  } else {
    list.replaceChildren(start, ...entries.map((_, i) => entry(i)));
  }
  handlers.set(list, onStep);
  if (!list.dataset.keys) {
    list.dataset.keys = "on";
    list.addEventListener("keydown", (e) => stepKey(list, e, handlers.get(list)));
  }
}

const handlers = new WeakMap(); // list → its onStep (the newest drawing's)

/** Left/Right a ply, Up/Down a row of the sheet (a ply in the compact list), Home/End. */
function stepKey(list, e, onStep) {
  const buttons = [...list.querySelectorAll("[data-step]")];
  if (!buttons.length) return;
  const at = buttons.find((b) => b === document.activeElement) || buttons.find((b) => b.getAttribute("aria-current") === "step") || buttons[buttons.length - 1];
  const ply = Number(at.dataset.step);
  const last = buttons.length - 1;
  let to = null;
  if (e.key === "ArrowLeft") to = ply - 1;
  else if (e.key === "ArrowRight") to = ply + 1;
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = last;
  else if (e.key === "ArrowUp" || e.key === "ArrowDown") to = rowStep(list, at, e.key === "ArrowUp" ? -1 : 1);
  if (to === null) return;
  e.preventDefault();
  e.stopPropagation(); // the replay viewer's page-wide arrows: this key is done
  to = Math.max(0, Math.min(last, to));
  onStep(to);
  const node = list.querySelector(`[data-step="${to}"]`);
  if (node) {
    node.focus();
    node.scrollIntoView({ block: "nearest" });
  }
}

/** The ply a row up or down: the same seat's first move in that row (else the row's first). */
function rowStep(list, at, dir) {
  const ply = Number(at.dataset.step);
  const row = at.closest("li.row");
  if (list.dataset.layout !== "sheet") return ply + dir;
  const rows = [...list.querySelectorAll("li.row")];
  if (!row) return dir > 0 ? 1 : 0;
  const k = rows.indexOf(row) + dir;
  if (k < 0) return 0;
  if (k >= rows.length) return Number.MAX_SAFE_INTEGER;
  const col = at.closest("ol.cell").dataset.col;
  const same = rows[k].querySelector(`ol.cell[data-col="${col}"] [data-step]`) || rows[k].querySelector("[data-step]");
  return Number(same.dataset.step);
}
