// Premoves: in a two-player game with a clock, while the opponent is to move, the player may
// queue one move by clicking the board. It lives in this page only (as lichess does it): the
// server never holds a move for later, so nothing about it can leak to anyone. When the turn
// comes the page plays it at once if it is among the legal moves the server sent, and drops
// it with a notice if not. The squares offered are the player's legal moves at their last
// turn (their own view only), so hidden information stays hidden.
import { t } from "./i18n.js";
import { el } from "./util.js";

const known = new Map(); // seat → its legal moves when it last had the turn
let queued = null; // { seat, move, label }
let notice = "";
let noticeAt = -1; // the ply the notice was given at: it goes once the player has moved

/** May ``seat`` queue a premove now? (one seat held, two seats, a clock, not its turn) */
export function premoveAllowed(last, seat, myTurn, stepping) {
  const room = last.room;
  return !myTurn && !stepping && seat !== null && room.status === "active" && !!room.clock && !room.simultaneous && room.seats.length === 2 && last.you.length === 1 && last.you[0] === seat;
}

/** The moves offered for a premove: the seat's legal moves at its last turn. */
export function premoveCandidates(seat) {
  return new Set(known.get(seat) || []);
}

export function queuePremove(seat, move, label) {
  queued = { seat, move, label };
  notice = "";
}

/** Called with each view drawn. On the seat's turn: remembers its legal moves and returns
 * the queued move to play (if legal), else drops it with a notice. */
export function premoveOnTurn(last, seat, view, myTurn) {
  if (last.room.status !== "active") queued = null;
  if (notice && last.room.ply > noticeAt) notice = "";
  if (!myTurn) return null;
  known.set(seat, view.legal_moves);
  if (!queued || queued.seat !== seat) return null;
  const q = queued;
  queued = null;
  if (view.legal_moves.includes(q.move)) return q.move;
  notice = t("room.premove_dropped", { move: q.label });
  noticeAt = last.room.ply;
  return null;
}

/** Mark the queued square on the board and show the premove line (with a cancel button),
 * the hint while one can be queued, or the notice of a dropped one. */
export function drawPremove(board, allowed, redraw) {
  let box = document.getElementById("premove");
  if (!box) {
    box = el("div", { id: "premove", class: "premove-box", role: "status", "aria-live": "polite" });
    document.getElementById("moves-panel").before(box); // (that panel hides off-turn)
  }
  document.body.dataset.premove = queued ? queued.move : "";
  if (queued) {
    const node = board.querySelector(`[data-move="${CSS.escape(queued.move)}"]`);
    if (node) node.classList.add("premove");
    box.replaceChildren(
      el("span", { class: "premove-move" }, t("room.premove", { move: queued.label })),
      el("button", { type: "button", id: "premove-cancel", onclick: () => { queued = null; redraw(); } }, t("room.premove_cancel")),
    );
  } else if (notice) {
    box.replaceChildren(el("span", { class: "premove-notice" }, notice));
  } else if (allowed) {
    box.replaceChildren(el("span", { class: "hint" }, t("room.premove_hint")));
  } else {
    box.replaceChildren();
  }
}
