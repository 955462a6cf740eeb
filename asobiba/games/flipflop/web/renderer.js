// FlipFlop: the 3×3 or 5×5 board; each piece shows its face (＋ rook in red, × bishop in
// blue, as the seed's paper pieces). Pick a piece, then one of its highlighted squares.
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} FlipFlopView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {(3|5)} board_size
 * @property {Array<string>} board
 * @property {string} position
 * @property {("white"|"black")} turn
 * @property {Goals} goals
 * @property {(string|null)} threat
 * @property {number} repetitions
 * @property {Array<string>} history
 * @property {Array<string>} moves
 * @property {(string|null)} last_move
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
 * @typedef {Object} Goals
 * @property {string} white
 * @property {string} black
 */
// --- end of the generated view shape ---
import { moveTarget, svg, swatch } from "../js/util.js";
import { cellAt, cellHit, coordinates, cursorAt, hintDot, picker } from "../js/board.js";

const FILES = "abcde";
const CELL = 80;
const PAD = 26;
const MOVE = /^([RB])([a-e][1-5])([-x])([a-e][1-5])$/i;
const pick = picker(); // the piece whose squares are shown

export default {
  // the analysis board's editor (js/analysis.js): the symbols a cell cycles through, empty first
  palette: ".RBrb",
  seatName(seat, ctx) {
    return seat === 0 ? `○ ${ctx.t("white")}` : `● ${ctx.t("black")}`;
  },

  legend(ctx) {
    const piece = (face) => [svg("circle", { cx: 20, cy: 20, r: 15, fill: "#fbfbf6", stroke: "#222", "stroke-width": 2 }), svg("path", { d: face === "rook" ? "M20 11V29M11 20H29" : "M13 13L27 27M27 13L13 27", stroke: face === "rook" ? "#d0342c" : "#2f64c8", "stroke-width": 4, "stroke-linecap": "round" })];
    return [
      [swatch(...piece("rook")), ctx.t("legend.rook")],
      [swatch(...piece("bishop")), ctx.t("legend.bishop")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#efe0c2" }), svg("circle", { cx: 20, cy: 20, r: 17, fill: "none", stroke: "#7a5b2e", "stroke-width": 2.5, "stroke-dasharray": "5 3" })), ctx.t("legend.goal")],
      [swatch(...piece("rook"), svg("circle", { cx: 20, cy: 20, r: 18.5, fill: "none", stroke: "#c98a00", "stroke-width": 3 })), ctx.t("legend.movable")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#efe0c2" }), svg("circle", { cx: 20, cy: 20, r: 7, fill: "rgba(27,95,209,0.55)" })), ctx.t("legend.dest")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#f0a9a0" })), ctx.t("legend.threat")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#f1d27a" })), ctx.t("legend.last")],
    ];
  },
  score(view, ctx) {
    const rows = [];
    if (view.threat) rows.push([ctx.t("threat", { sq: view.threat }), "!"]);
    if (view.repetitions > 1) rows.push([ctx.t("repetitions", { n: view.repetitions }), ""]);
    return rows;
  },
  render(view, ctx) {
    const n = view.board_size;
    const size = CELL * n + PAD * 2;
    const legal = [...(ctx.legal || [])].map((m) => [m, m.match(MOVE)]).filter(([, p]) => p);
    pick.reset(`${view.position}|${ctx.seat}`);
    const selected = pick.value;
    const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "flipflop", role: "group", "aria-label": ctx.t("board") });
    const last = view.last_move ? view.last_move.match(MOVE) : null;
    const goals = { [view.goals.white]: "white", [view.goals.black]: "black" };
    coordinates(root, { cols: n, rows: n, cell: CELL, pad: PAD, file: (c) => FILES[c], rank: (r) => String(n - r), gap: 8, rise: 5 });
    const froms = new Set(legal.map(([, p]) => p[2]));
    const tos = new Map(legal.filter(([, p]) => p[2] === selected).map(([m, p]) => [p[4], m]));
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const sq = FILES[c] + String(n - r);
        const [x, y] = cellAt(r, c, CELL, PAD);
        const cls = ["cell", (r + c) % 2 ? "dark" : "light"];
        if (last && (last[2] === sq || last[4] === sq)) cls.push("last");
        if (view.threat === sq) cls.push("threat");
        const cell = svg("rect", { x, y, width: CELL, height: CELL, class: cls.join(" "), "data-square": sq });
        // the keyboard cursor's stop on this square: the move there, else the piece, else
        // the empty square (one stop per square)
        const at = [x + CELL / 2, y + CELL / 2];
        if (ch === "." && !tos.has(sq)) {
          cell.setAttribute("role", "img");
          cell.setAttribute("aria-label", ctx.t("sq.empty", { sq }));
          cursorAt(cell, ...at);
        }
        root.append(cell);
        if (goals[sq]) root.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44, class: `goal ${goals[sq]}` }));
        if (ch !== ".") {
          const white = ch === ch.toUpperCase();
          const bishop = ch.toLowerCase() === "b";
          const g = svg("g", { class: `piece ${white ? "white" : "black"}${last && last[4] === sq ? " flip" : ""}`, "data-piece": ch, "data-square": sq });
          g.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.34, class: "body" }));
          const d = CELL * 0.18;
          const cx = x + CELL / 2;
          const cy = y + CELL / 2;
          const path = bishop ? `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}` : `M${cx} ${cy - d * 1.3}V${cy + d * 1.3}M${cx - d * 1.3} ${cy}H${cx + d * 1.3}`;
          g.append(svg("path", { d: path, class: bishop ? "face bishop" : "face rook" }));
          const names = { sq, colour: ctx.t(white ? "white" : "black"), face: ctx.t(bishop ? "bishop" : "rook") };
          if (froms.has(sq)) {
            // a movable piece is picked first; its squares then become the moves
            g.classList.add("movable");
            g.insertBefore(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.42, class: "ring" }), g.firstChild);
            pick.target(g, "data-from", sq, ctx.t("sq.pick", names), root, () => this.render(view, ctx));
          } else {
            g.setAttribute("role", "img");
            g.setAttribute("aria-label", ctx.t("sq.piece", names));
          }
          if (!tos.has(sq)) cursorAt(g, ...at);
          root.append(g);
        }
        if (tos.has(sq)) {
          const mv = tos.get(sq);
          root.append(cursorAt(moveTarget(cellHit(x, y, CELL, hintDot(x, y, CELL, 9)), mv, ctx, ctx.t(mv.includes("x") ? "sq.take" : "sq.to", { from: selected, to: sq })), ...at));
        }
      });
    });
    return root;
  },
};
