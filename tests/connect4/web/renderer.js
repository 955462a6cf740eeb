// Connect Four: the 7 × 6 grid from view.board (top row first; R, Y, .) and the last disc
// dropped (view.last_move). Each column with room is a move: click it, or Enter on its focused
// column. Words: ./words.json beside this file (ctx.t("red") finds "<game>.red").
import { moveTarget, svg, swatch } from "../js/util.js";
import { cellAt, cursorAt } from "../js/board.js";

const FILES = "abcdefg";
const CELL = 50;
const PAD = 8;

function disc(ch) {
  return ch === "R" ? "#c0392b" : "#f1c40f";
}

export default {
  seatName(seat, ctx) {
    return seat === 0 ? `● ${ctx.t("red")}` : `● ${ctx.t("yellow")}`;
  },
  moveLabel(move, ctx) {
    return ctx.t("column", { col: move });
  },
  score(view, ctx) {
    return [[ctx.t("to_move"), view.turn === "R" ? ctx.t("red") : ctx.t("yellow")]];
  },
  legend(ctx) {
    return [
      [swatch(svg("circle", { cx: 20, cy: 20, r: 15, fill: disc("R") })), ctx.t("red")],
      [swatch(svg("circle", { cx: 20, cy: 20, r: 15, fill: disc("Y") })), ctx.t("yellow")],
      [swatch(svg("circle", { cx: 20, cy: 20, r: 15, fill: "#ffffff", stroke: "#2d5aa6" })), ctx.t("legend.empty")],
      [swatch(svg("circle", { cx: 20, cy: 20, r: 15, fill: disc("R") }), svg("circle", { cx: 20, cy: 20, r: 4, fill: "#1b1b1b" })), ctx.t("legend.last")],
    ];
  },
  render(view, ctx) {
    const cols = 7;
    const rows = view.board.length;
    const root = svg("svg", { viewBox: `0 0 ${CELL * cols + PAD * 2} ${CELL * rows + PAD * 2}`, class: "connect4", role: "group", "aria-label": ctx.t("board") });
    root.append(svg("rect", { x: PAD, y: PAD, width: CELL * cols, height: CELL * rows, fill: "#2d5aa6" }));
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const [x, y] = cellAt(r, c, CELL, PAD);
        const name = FILES[c] + String(rows - r);
        const label = ctx.t(ch === "R" ? "cell.red" : ch === "Y" ? "cell.yellow" : "cell.empty", { cell: name });
        const hole = svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: ch === "." ? "#ffffff" : disc(ch), role: "img", "aria-label": label });
        root.append(hole);
        if (view.last_move === name) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, fill: "#1b1b1b", "aria-hidden": "true" }));
      });
    });
    for (let c = 0; c < cols; c += 1) {
      const col = FILES[c];
      if (!(ctx.legal && ctx.legal.has(col))) continue;
      const [x, y] = cellAt(0, c, CELL, PAD);
      const target = svg("rect", { x, y: PAD, width: CELL, height: CELL * rows, fill: "transparent" });
      root.append(cursorAt(moveTarget(target, col, ctx, ctx.t("drop", { col })), x + CELL / 2, y + CELL / 2));
    }
    return root;
  },
};
