// ReverStarGo: the 37-cell star of hexagons with the app's labels, and the seed's move
// indicators (§7⑤): yellow dot = placeable; orange + white frame = one CP call colour is
// ko-restricted; red + white frame = ko-blocked; red + white frame + yellow dot = the ko
// exception (placeable). Where the CP call matters, the cell offers a black and a white call.
import { el, movePad, moveTarget, pickTarget, svg, swatch } from "../js/util.js";

let picked = null; // a cell whose CP call is being chosen
let pickedFor = "";

// label, cube (x, y, z) — the same table as the engine's board (REFERENCE § ReverStarGo)
const CELLS = [
  ["CP", 0, 0, 0],
  ["A1", 1, -1, 0], ["A3", 1, 0, -1], ["A5", 0, 1, -1], ["A7", -1, 1, 0], ["A9", -1, 0, 1], ["AJ", 0, -1, 1],
  ["BQ", 1, -2, 1], ["B1", 2, -2, 0], ["B2", 2, -1, -1], ["B3", 2, 0, -2], ["B4", 1, 1, -2], ["B5", 0, 2, -2],
  ["B6", -1, 2, -1], ["B7", -2, 2, 0], ["B8", -2, 1, 1], ["B9", -2, 0, 2], ["BX", -1, -1, 2], ["BJ", 0, -2, 2],
  ["CQ", 1, -3, 2], ["C1", 2, -3, 1], ["C2", 3, -2, -1], ["C3", 3, -1, -2], ["C4", 2, 1, -3], ["C5", 1, 2, -3],
  ["C6", -1, 3, -2], ["C7", -2, 3, -1], ["C8", -3, 2, 1], ["C9", -3, 1, 2], ["CX", -2, -1, 3], ["CJ", -1, -2, 3],
  ["DQ", 2, -4, 2], ["D2", 4, -2, -2], ["D4", 2, 2, -4], ["D6", -2, 4, -2], ["D8", -4, 2, 2], ["DX", -2, -2, 4],
];
const S = 30; // hex radius
const R3 = Math.sqrt(3);

function centre(x, y, z) {
  // 12 o'clock (Q) up: axes at 120° with y pointing down the screen
  return [S * (R3 / 2) * (x - z), S * (y - (x + z) / 2)];
}

function hexPath(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join("L")}Z`;
}

export default {
  strings: {
    en: {
      black: "Black", white: "White", pass: "Pass", captured: "captured", points: "points",
      call_black: "{cell}, calling the CP black", call_white: "{cell}, calling the CP white",
      exception: "Ko exception: every cell is ko-blocked, so any may be played",
      cap: "the {n}-entry cap was reached",
      "reason:the board is full": "the board is full",
      "reason:neither player can place a stone": "neither player can place a stone",
      "reason:ko: a second ko exception in a row ends the game": "ko: a second ko exception in a row ends the game",
      board: "ReverStarGo board", "sq.black": "{cell}: black stone", "sq.white": "{cell}: white stone", "sq.empty": "{cell}: empty",
      "sq.play": "Place on {cell}", "sq.pick": "{cell}: place here — then call the CP black or white", call_for: "Place on {cell} and call the CP:",
      "mark.one-colour": "(one CP call is ko-restricted)", "mark.ko-blocked": "(ko-blocked)", "mark.exception": "(ko exception: placeable)",
      "legend.dot": "yellow dot: you may place a stone here", "legend.cp": "purple centre: the Core Point (CP) — it takes whichever colour the mover calls",
      "legend.one": "orange with white frame: placeable, but one CP call colour is forbidden by ko", "legend.ko": "red with white frame: forbidden by ko",
      "legend.exc": "red with frame and yellow dot: the ko exception — placeable", "legend.call": "when the CP call matters, pick the cell, then call the CP black or white",
      "legend.last": "blue edge: the last stone placed",
      rules: [
        "Black moves first; place one stone per turn (or pass). Stones that bracket the other colour in a straight line flip it, as in Reversi.",
        "A group of stones with no empty neighbour is captured and removed, as in Go; captures score points.",
        "The centre cell (CP) counts as the colour the mover calls: call it black or white with each move where it matters.",
        "A move that repeats an earlier whole-board position is forbidden (superko); the indicators show where this bites.",
        "When neither player can place or the board is full, the side with more points wins.",
      ],
    },
    ja: {
      black: "黒", white: "白", pass: "パス", captured: "取った石", points: "ポイント",
      call_black: "{cell}（CPを黒とコール）", call_white: "{cell}（CPを白とコール）",
      exception: "コウの例外：すべてのマスがコウで制限されているため、どこにでも置けます",
      cap: "{n}手の上限に達しました",
      "reason:the board is full": "盤面が埋まりました",
      "reason:neither player can place a stone": "両者とも置ける場所がありません",
      "reason:ko: a second ko exception in a row ends the game": "コウ：例外が続いたため終局",
      board: "リバースターゴの盤", "sq.black": "{cell}：黒石", "sq.white": "{cell}：白石", "sq.empty": "{cell}：空き",
      "sq.play": "{cell}に置く", "sq.pick": "{cell}：ここに置く — 続けてCPを黒か白にコール", call_for: "{cell}に置いてCPをコール：",
      "mark.one-colour": "（CPコールの片方の色がコウで禁止）", "mark.ko-blocked": "（コウで禁止）", "mark.exception": "（コウの例外：置けます）",
      "legend.dot": "黄色の点：石を置けるマス", "legend.cp": "紫の中央：コアポイント（CP）— 打つ人がコールした色になる",
      "legend.one": "オレンジ＋白枠：置けるが、CPコールの片方の色はコウで禁止", "legend.ko": "赤＋白枠：コウで置けない",
      "legend.exc": "赤＋白枠＋黄色の点：コウの例外（置ける）", "legend.call": "CPのコールが関係するときは、マスを選んでから黒か白をコール",
      "legend.last": "青い縁：直前に置かれた石",
      rules: [
        "黒が先手。1手に1つ石を置く（またはパス）。相手の石を一直線にはさむと、リバーシのように裏返ります。",
        "空いた隣接マスのない石のまとまりは、囲碁のように取られて盤から除かれ、取った石はポイントになります。",
        "中央のマス（CP）は打つ人がコールした色として数えます。関係する手では黒か白をコールします。",
        "以前と同じ盤面に戻る手は禁止（スーパーコウ）。盤上の表示がその場所を示します。",
        "両者とも置けないか盤が埋まったら終局。ポイントの多い方が勝ち。",
      ],
    },
  },
  seatName(seat, ctx) {
    return seat === 0 ? `● ${ctx.t("black")}` : `○ ${ctx.t("white")}`;
  },
  moveLabel(move, ctx) {
    if (move === "--") return ctx.t("pass");
    const m = move.match(/^(\w\w)\[([BW])\]$/);
    if (m) return ctx.t(m[2] === "B" ? "call_black" : "call_white", { cell: m[1] });
    return move;
  },
  reason(reason, ctx) {
    const m = reason.match(/^the (\d+)-entry cap was reached/);
    return m ? ctx.t("cap", { n: m[1] }) : null;
  },
  legend(ctx) {
    const hex = (fill, stroke, sw) => svg("path", { d: hexPath(20, 20, 18), fill, stroke, "stroke-width": sw });
    const dot = () => svg("circle", { cx: 20, cy: 11, r: 4, fill: "#ffd400", stroke: "#6a5a00" });
    return [
      [swatch(hex("#e7d6b0", "#8a7650", 1.5), dot()), ctx.t("legend.dot")],
      [swatch(hex("#c9b3e6", "#8a7650", 1.5)), ctx.t("legend.cp")],
      [swatch(hex("#f09a3e", "#fff", 3), dot()), ctx.t("legend.one")],
      [swatch(hex("#d9453b", "#fff", 3)), ctx.t("legend.ko")],
      [swatch(hex("#d9453b", "#fff", 3), dot()), ctx.t("legend.exc")],
      [swatch(hex("#e7d6b0", "#8a7650", 1.5), svg("circle", { cx: 14, cy: 26, r: 6, fill: "#161616", stroke: "#b8860b" }), svg("circle", { cx: 26, cy: 26, r: 6, fill: "#fafaf5", stroke: "#b8860b" })), ctx.t("legend.call")],
      [swatch(hex("#e7d6b0", "#1b5fd1", 3), svg("circle", { cx: 20, cy: 20, r: 10, fill: "#161616" })), ctx.t("legend.last")],
    ];
  },
  score(view, ctx) {
    const rows = [0, 1].map((s) => [this.seatName(s, ctx), `${view.score[s]} ${ctx.t("points")} (${ctx.t("captured")} ${view.captured[s]})`]);
    if (view.mode === "exception") rows.push([ctx.t("exception"), ""]);
    return rows;
  },
  render(view, ctx) {
    const pos = CELLS.map(([, x, y, z]) => centre(x, y, z));
    const xs = pos.map((p) => p[0]);
    const ys = pos.map((p) => p[1]);
    const pad = S + 4;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) - minX + pad;
    const h = Math.max(...ys) - minY + pad;
    const root = svg("svg", { viewBox: `${minX} ${minY} ${w} ${h}`, class: "reverstargo", role: "group", "aria-label": ctx.t("board") });
    const key = `${(view.entries || []).length}|${ctx.seat}`;
    if (pickedFor !== key) {
      picked = null;
      pickedFor = key;
    }
    const wrap = el("div", { class: "rsg-wrap" }, root);
    const legal = ctx.legal || new Set();
    const entries = view.entries || [];
    const lastEntry = entries.length ? entries[entries.length - 1] : null;
    const prevBoard = ctx.prev && ctx.prev.board;
    const indicators = view.indicators || {};
    CELLS.forEach(([label], i) => {
      const [cx, cy] = pos[i];
      const ind = indicators[label];
      const cls = ["hex"];
      if (label === "CP") cls.push("cp");
      if (ind && ind.mark === "one-colour") cls.push("one-colour");
      if (ind && (ind.mark === "ko-blocked" || ind.mark === "exception")) cls.push("ko");
      if (lastEntry && lastEntry.cell === label) cls.push("last");
      const stone = view.board[i];
      const markText = ind && ind.mark !== "playable" ? ` ${ctx.t(`mark.${ind.mark}`)}` : "";
      const named = ctx.t(stone === "B" ? "sq.black" : stone === "W" ? "sq.white" : "sq.empty", { cell: label }) + markText;
      root.append(svg("path", { d: hexPath(cx, cy, S - 1), class: cls.join(" "), "data-cell": label, "data-mark": ind ? ind.mark : null, role: "img", "aria-label": named }));
      if (stone === "B" || stone === "W") {
        const flipped = prevBoard && prevBoard[i] !== stone;
        root.append(svg("circle", { cx, cy, r: S * 0.62, class: `stone ${stone === "B" ? "black" : "white"}${flipped ? " flip" : ""}`, "data-stone": stone, "aria-hidden": "true" }));
      } else {
        root.append(svg("text", { x: cx, y: cy + 4, class: "label", "aria-hidden": "true" }, label));
      }
      if (!ind || !ctx.legal) return;
      const moves = [`${label}`, `${label}[B]`, `${label}[W]`].filter((m) => legal.has(m));
      if (ind.mark === "playable" || ind.mark === "exception") root.append(svg("circle", { cx, cy: cy - S * 0.45, r: 4.5, class: "dot" }));
      if (moves.length === 1 && moves[0] === label) {
        const g = svg("g", {}, svg("path", { d: hexPath(cx, cy, S - 1), class: "hit" }));
        root.append(moveTarget(g, label, ctx, ctx.t("sq.play", { cell: label }) + markText));
      } else if (moves.length) {
        // the whole cell is the target (a finger-sized hex); the call is chosen in the pad below
        const g = svg("g", {}, svg("path", { d: hexPath(cx, cy, S - 1), class: "hit" }));
        moves.forEach((m, k) => {
          const call = m.endsWith("[B]") ? "black" : "white";
          const dx = moves.length === 2 ? (k ? S * 0.3 : -S * 0.3) : 0;
          g.append(svg("circle", { cx: cx + dx, cy: cy + S * 0.52, r: S * 0.18, class: `call ${call}` }));
        });
        root.append(pickTarget(g, "data-pick", label, ctx.t("sq.pick", { cell: label }) + markText, picked === label, () => {
          picked = picked === label ? null : label;
          const again = this.render(view, ctx);
          wrap.replaceWith(again);
          const focus = again.querySelector(picked ? ".move-pad [data-move]" : `[data-pick="${label}"]`);
          if (focus) focus.focus();
        }));
        if (picked === label) wrap.append(movePad(ctx.t("call_for", { cell: label }), moves, ctx, (m) => this.moveLabel(m, ctx)));
      }
    });
    return wrap;
  },
};
