// Reversi: the 8×8 board from view.board (rank 8 first; B, W, .), legal squares, the last
// move and the discs it flipped (animated).
import { moveTarget, svg } from "../js/util.js";

const FILES = "abcdefgh";
const CELL = 50;
const PAD = 24;

export default {
  strings: {
    en: {
      summary: "Classic 8×8 Reversi/Othello: bracket runs of the other colour to flip them.",
      black: "Black", white: "White", pass: "Pass",
      "reason:neither player can move": "neither player can move",
      "reason:the board is full": "the board is full",
    },
    ja: {
      summary: "定番の8×8リバーシ（オセロ）。相手の石をはさんで裏返します。",
      black: "黒", white: "白", pass: "パス",
      "reason:neither player can move": "両者とも打てる場所がありません",
      "reason:the board is full": "盤面が埋まりました",
    },
  },
  seatName(seat, ctx) {
    return seat === 0 ? `● ${ctx.t("black")}` : `○ ${ctx.t("white")}`;
  },
  moveLabel(move, ctx) {
    return move === "pass" ? ctx.t("pass") : move;
  },
  score(view, ctx) {
    return [[`● ${ctx.t("black")}`, view.counts.black], [`○ ${ctx.t("white")}`, view.counts.white]];
  },
  render(view, ctx) {
    const size = CELL * 8 + PAD * 2;
    const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "reversi", role: "group", "aria-label": "Reversi board" });
    root.append(svg("rect", { x: PAD, y: PAD, width: CELL * 8, height: CELL * 8, class: "felt" }));
    const flipped = new Set(view.flipped || []);
    for (let i = 0; i < 8; i++) {
      root.append(svg("text", { x: PAD + CELL * i + CELL / 2, y: PAD - 7, class: "coord" }, FILES[i]));
      root.append(svg("text", { x: PAD / 2, y: PAD + CELL * i + CELL / 2 + 5, class: "coord" }, String(8 - i)));
    }
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const name = FILES[c] + String(8 - r);
        const x = PAD + c * CELL;
        const y = PAD + r * CELL;
        const cell = svg("rect", { x, y, width: CELL, height: CELL, class: "cell", "data-square": name });
        root.append(cell);
        if (ch !== ".") {
          const disc = svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: `disc ${ch === "B" ? "black" : "white"}${flipped.has(name) ? " flip" : ""}`, "data-disc": ch });
          root.append(disc);
          if (view.last_move === name) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, class: "last" }));
        } else if (ctx.legal && ctx.legal.has(name)) {
          const target = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, class: "hint" }));
          root.append(moveTarget(target, name, ctx, name));
        }
      });
    });
    return root;
  },
};
