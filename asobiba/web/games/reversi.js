// Reversi: the 8×8 board from view.board (rank 8 first; B, W, .), legal squares, the last
// move and the discs it flipped (animated). Every square has a name in the page's language.
import { moveTarget, svg, swatch } from "../js/util.js";

const FILES = "abcdefgh";
const CELL = 50;
const PAD = 16; // small margins: on a 390 px phone each square stays ≥ 44 px

export default {
  strings: {
    en: {
      black: "Black", white: "White", pass: "Pass", board: "Reversi board",
      "reason:neither player can move": "neither player can move",
      "reason:the board is full": "the board is full",
      "sq.black": "{sq}: black disc", "sq.white": "{sq}: white disc", "sq.empty": "{sq}: empty", "sq.play": "Play {sq}",
      "legend.legal": "you may place a disc here", "legend.last": "the last disc placed", "legend.black": "black disc (moves first)", "legend.white": "white disc",
      rules: [
        "Black moves first; players alternate placing one disc of their colour.",
        "A disc must bracket at least one straight run (row, column or diagonal) of the other colour between itself and another disc of yours; every bracketed disc flips.",
        "A player with no legal move passes; when neither can move the game ends.",
        "Most discs wins.",
      ],
    },
    ja: {
      black: "黒", white: "白", pass: "パス", board: "リバーシの盤",
      "reason:neither player can move": "両者とも打てる場所がありません",
      "reason:the board is full": "盤面が埋まりました",
      "sq.black": "{sq}：黒石", "sq.white": "{sq}：白石", "sq.empty": "{sq}：空き", "sq.play": "{sq}に打つ",
      "legend.legal": "ここに打てます", "legend.last": "直前に打たれた石", "legend.black": "黒石（先手）", "legend.white": "白石",
      rules: [
        "黒が先手。交互に自分の色の石を1つ置きます。",
        "置いた石と自分の石で、相手の石を縦・横・斜めの一直線にはさめる場所にだけ置けます。はさんだ石はすべて裏返ります。",
        "打てる場所がなければパス。両者とも打てなくなったら終局です。",
        "石の多い方が勝ち。",
      ],
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
    for (let i = 0; i < 8; i++) {
      root.append(svg("text", { x: PAD + CELL * i + CELL / 2, y: PAD - 4, class: "coord", "aria-hidden": "true" }, FILES[i]));
      root.append(svg("text", { x: PAD / 2, y: PAD + CELL * i + CELL / 2 + 4, class: "coord", "aria-hidden": "true" }, String(8 - i)));
    }
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const name = FILES[c] + String(8 - r);
        const x = PAD + c * CELL;
        const y = PAD + r * CELL;
        const legal = ch === "." && ctx.legal && ctx.legal.has(name);
        const label = ctx.t(ch === "B" ? "sq.black" : ch === "W" ? "sq.white" : "sq.empty", { sq: name });
        const cell = svg("rect", { x, y, width: CELL, height: CELL, class: "cell", "data-square": name });
        if (!legal) {
          cell.setAttribute("role", "img");
          cell.setAttribute("aria-label", label);
        }
        root.append(cell);
        if (ch !== ".") {
          const disc = svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: `disc ${ch === "B" ? "black" : "white"}${flipped.has(name) ? " flip" : ""}`, "data-disc": ch, "aria-hidden": "true" });
          root.append(disc);
          if (view.last_move === name) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, class: "last", "aria-hidden": "true" }));
        } else if (legal) {
          const target = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, class: "hint" }));
          root.append(moveTarget(target, name, ctx, ctx.t("sq.play", { sq: name })));
        }
      });
    });
    return root;
  },
};
