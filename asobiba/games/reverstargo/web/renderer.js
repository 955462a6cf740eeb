// ReverStarGo: the 37-cell star of hexagons with the app's labels, and the seed's move
// indicators (§7⑤): yellow dot = placeable; orange + white frame = one CP call colour is
// ko-restricted; red + white frame = ko-blocked; red + white frame + yellow dot = the ko
// exception (placeable). Where the CP call matters, the cell offers a black and a white call.
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} ReverStarGoView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {string} board
 * @property {Array<number>} captured
 * @property {Array<EntryView>} entries
 * @property {Array<string>} history
 * @property {(string|null)} previous
 * @property {boolean} last_exception
 * @property {string} turn
 * @property {string} mode
 * @property {Array<number>} score
 * @property {Object<string, Indicator>} indicators
 * @property {string} reason
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
 * @typedef {Object} EntryView
 * @property {number} seat
 * @property {(string|null)} cell
 * @property {(string|null)} call
 * @property {number} captured
 * @property {boolean} exception
 */
/**
 * @typedef {Object} Indicator
 * @property {("playable"|"one-colour"|"ko-blocked"|"exception")} mark
 * @property {boolean} call
 * @property {Array<string>} colours
 * @property {string} auto
 */
// --- end of the generated view shape ---
import { el, movePad, moveTarget, svg, swatch } from "../js/util.js";
import { cursorAt, picker } from "../js/board.js";

const pick = picker(); // a cell whose CP call is being chosen

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
  // the analysis board's editor (js/analysis.js): the symbols a cell cycles through, empty first
  palette: ".BW",
  seatName(seat, ctx) {
    return seat === 0 ? `● ${ctx.t("black")}` : `○ ${ctx.t("white")}`;
  },
  moveLabel(move, ctx) {
    if (move === "--") return ctx.t("pass");
    const m = move.match(/^(\w\w)\[([BW])\]$/);
    if (m) return ctx.t(m[2] === "B" ? "call_black" : "call_white", { cell: m[1] });
    return move;
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
    pick.reset(`${(view.entries || []).length}|${ctx.seat}`);
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
      const hex = svg("path", { d: hexPath(cx, cy, S - 1), class: cls.join(" "), "data-cell": label, "data-mark": ind ? ind.mark : null, role: "img", "aria-label": named });
      root.append(hex);
      if (stone === "B" || stone === "W") {
        const flipped = prevBoard && prevBoard[i] !== stone;
        root.append(svg("circle", { cx, cy, r: S * 0.62, class: `stone ${stone === "B" ? "black" : "white"}${flipped ? " flip" : ""}`, "data-stone": stone, "aria-hidden": "true" }));
      } else {
        root.append(svg("text", { x: cx, y: cy + 4, class: "label", "aria-hidden": "true" }, label));
      }
      const moves = ind && ctx.legal ? [`${label}`, `${label}[B]`, `${label}[W]`].filter((m) => legal.has(m)) : [];
      // the keyboard cursor's stop on this cell: its move (or pick) where it has one
      if (!moves.length) cursorAt(hex, cx, cy);
      if (!ind || !ctx.legal) return;
      if (ind.mark === "playable" || ind.mark === "exception") root.append(svg("circle", { cx, cy: cy - S * 0.45, r: 4.5, class: "dot" }));
      if (moves.length === 1 && moves[0] === label) {
        const g = svg("g", {}, svg("path", { d: hexPath(cx, cy, S - 1), class: "hit" }));
        root.append(cursorAt(moveTarget(g, label, ctx, ctx.t("sq.play", { cell: label }) + markText), cx, cy));
      } else if (moves.length) {
        // the whole cell is the target (a finger-sized hex); the call is chosen in the pad below
        const g = svg("g", {}, svg("path", { d: hexPath(cx, cy, S - 1), class: "hit" }));
        moves.forEach((m, k) => {
          const call = m.endsWith("[B]") ? "black" : "white";
          const dx = moves.length === 2 ? (k ? S * 0.3 : -S * 0.3) : 0;
          g.append(svg("circle", { cx: cx + dx, cy: cy + S * 0.52, r: S * 0.18, class: `call ${call}` }));
        });
        root.append(cursorAt(pick.target(g, "data-pick", label, ctx.t("sq.pick", { cell: label }) + markText, wrap, () => this.render(view, ctx)), cx, cy));
        if (pick.value === label) wrap.append(movePad(ctx.t("call_for", { cell: label }), moves, ctx, (m) => this.moveLabel(m, ctx)));
      }
    });
    return wrap;
  },
};
