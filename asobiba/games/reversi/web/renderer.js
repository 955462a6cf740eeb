// Reversi: the 8×8 board from view.board (rank 8 first; B, W, .), legal squares, the last
// move and the discs it flipped (animated). Every square has a name in the page's language.
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} ReversiView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {Array<string>} board
 * @property {string} turn
 * @property {Counts} counts
 * @property {(string|null)} last_move
 * @property {Array<string>} flipped
 */
/**
 * @typedef {Object} OutcomeView
 * @property {Array<number>} scores
 * @property {Array<number>} ranks
 * @property {Array<number>} winners
 * @property {boolean} draw
 * @property {string} reason
 * @property {string} code
 * @property {Object<string, (string|number)>} args
 */
/**
 * @typedef {Object} Counts
 * @property {number} black
 * @property {number} white
 */
// --- end of the generated view shape ---
import { moveTarget, svg, swatch } from "../js/util.js";
import { cellAt, cellHit, coordinates, cursorAt, hintDot } from "../js/board.js";

const FILES = "abcdefgh";
const CELL = 50;
const PAD = 16; // small margins: on a 390 px phone each square stays ≥ 44 px

export default {
  // the analysis board's editor (js/analysis.js): the symbols a cell cycles through, empty first
  palette: ".BW",
  seatName(seat, ctx) {
    return seat === 0 ? `● ${ctx.t("black")}` : `○ ${ctx.t("white")}`;
  },
  moveLabel(move, ctx) {
    return move === "pass" ? ctx.t("pass") : move;
  },
  score(view, ctx) {
    return [[`● ${ctx.t("black")}`, view.counts.black], [`○ ${ctx.t("white")}`, view.counts.white]];
  },
  legend(ctx) {
    return [
      [swatch(svg("rect", { width: 40, height: 40, fill: "#2f7d4f" }), svg("circle", { cx: 20, cy: 20, r: 15, fill: "#151515" })), ctx.t("legend.black")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#2f7d4f" }), svg("circle", { cx: 20, cy: 20, r: 15, fill: "#f5f5f0", stroke: "#333" })), ctx.t("legend.white")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#2f7d4f" }), svg("circle", { cx: 20, cy: 20, r: 6, fill: "rgba(255,255,255,0.6)" })), ctx.t("legend.legal")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#2f7d4f" }), svg("circle", { cx: 20, cy: 20, r: 15, fill: "#151515" }), svg("circle", { cx: 20, cy: 20, r: 4, fill: "#b5322a" })), ctx.t("legend.last")],
    ];
  },
  render(view, ctx) {
    const size = CELL * 8 + PAD * 2;
    const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "reversi", role: "group", "aria-label": ctx.t("board") });
    root.append(svg("rect", { x: PAD, y: PAD, width: CELL * 8, height: CELL * 8, class: "felt" }));
    const flipped = new Set(view.flipped || []);
    coordinates(root, { cols: 8, rows: 8, cell: CELL, pad: PAD, file: (c) => FILES[c], rank: (r) => String(8 - r) });
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const name = FILES[c] + String(8 - r);
        const [x, y] = cellAt(r, c, CELL, PAD);
        const legal = ch === "." && ctx.legal && ctx.legal.has(name);
        const label = ctx.t(ch === "B" ? "sq.black" : ch === "W" ? "sq.white" : "sq.empty", { sq: name });
        const cell = svg("rect", { x, y, width: CELL, height: CELL, class: "cell", "data-square": name });
        if (!legal) {
          cell.setAttribute("role", "img");
          cell.setAttribute("aria-label", label);
          cursorAt(cell, x + CELL / 2, y + CELL / 2); // the keyboard cursor's stop on this square
        }
        root.append(cell);
        if (ch !== ".") {
          const disc = svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: `disc ${ch === "B" ? "black" : "white"}${flipped.has(name) ? " flip" : ""}`, "data-disc": ch, "aria-hidden": "true" });
          root.append(disc);
          if (view.last_move === name) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, class: "last", "aria-hidden": "true" }));
        } else if (legal) {
          const target = cellHit(x, y, CELL, hintDot(x, y, CELL, 7));
          root.append(cursorAt(moveTarget(target, name, ctx, ctx.t("sq.play", { sq: name })), x + CELL / 2, y + CELL / 2));
        }
      });
    });
    return root;
  },
};
