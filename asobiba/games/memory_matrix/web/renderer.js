// Memory Matrix: any board shape (holes drawn as gaps), any number of colours. Every colour
// has a colour-blind-safe hue (Okabe–Ito first) AND its own symbol, so no one needs to tell
// hues apart. A white-side piece shows nothing of the colour beneath — unless the seat's own
// memory aid (an option) says it is one of its own colours.
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} MemoryMatrixView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {number} width
 * @property {number} height
 * @property {Array<string>} board
 * @property {Array<ColourView>} colours
 * @property {(string|null)} to_move_colour
 * @property {Array<number>} scores
 * @property {number} neutral_pieces
 * @property {boolean} white_any_time
 * @property {("pass"|"white")} lost_colour
 * @property {number} ply
 * @property {(LastMoveView|null)} last_move
 * @property {Object<string, string>} [memory_aid]
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
 * @typedef {Object} ColourView
 * @property {string} letter
 * @property {string} name
 * @property {string} name_ja
 * @property {number} seat
 * @property {number} showing
 * @property {number} in_hand
 */
/**
 * @typedef {Object} LastMoveView
 * @property {number} seat
 * @property {string} colour
 * @property {string} move
 * @property {boolean} pass
 * @property {(string|null)} cell
 * @property {boolean} white
 * @property {Array<string>} flipped
 * @property {Object<string, string>} flipped_up
 */
// --- end of the generated view shape ---
import { el, movePad, moveTarget, svg, swatch } from "../js/util.js";
import { cellAt, cellHit, coordinates, cursorAt, fileLetter, hintDot, picker } from "../js/board.js";

const pick = picker(); // a cell where both the colour and the white side may go

const CELL = 52;
const PAD = 16; // an 8×8 board keeps every cell ≥ 44 px on a 390 px phone
// letter → [fill, symbol]; the first eight are Okabe–Ito, the rest repeat hues with new symbols
const STYLE = {
  B: ["#0072B2", "circle"], R: ["#D55E00", "triangle"], Y: ["#F0E442", "square"], G: ["#009E73", "diamond"],
  O: ["#E69F00", "star"], P: ["#CC79A7", "plus"], K: ["#56B4E9", "hexagon"], C: ["#8C564B", "cross"],
  N: ["#0072B2", "square"], L: ["#D55E00", "diamond"], M: ["#009E73", "star"], T: ["#E69F00", "circle"],
  V: ["#CC79A7", "triangle"], A: ["#56B4E9", "plus"], I: ["#F0E442", "cross"], U: ["#8C564B", "hexagon"],
};

function symbol(kind, cx, cy, r, cls) {
  const pts = (n, rot, rr = r) => Array.from({ length: n }, (_, k) => {
    const a = rot + (2 * Math.PI * k) / n;
    return `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  switch (kind) {
    case "circle": return svg("circle", { cx, cy, r: r * 0.8, class: cls });
    case "triangle": return svg("polygon", { points: pts(3, -Math.PI / 2), class: cls });
    case "square": return svg("rect", { x: cx - r * 0.7, y: cy - r * 0.7, width: r * 1.4, height: r * 1.4, class: cls });
    case "diamond": return svg("polygon", { points: pts(4, 0), class: cls });
    case "hexagon": return svg("polygon", { points: pts(6, 0), class: cls });
    case "star": {
      const outer = pts(5, -Math.PI / 2).split(" ");
      const inner = pts(5, -Math.PI / 2 + Math.PI / 5, r * 0.45).split(" ");
      return svg("polygon", { points: outer.flatMap((p, k) => [p, inner[k]]).join(" "), class: cls });
    }
    case "plus": return svg("path", { d: `M${cx - r * 0.8} ${cy}H${cx + r * 0.8}M${cx} ${cy - r * 0.8}V${cy + r * 0.8}`, class: `${cls} line` });
    default: return svg("path", { d: `M${cx - r * 0.6} ${cy - r * 0.6}L${cx + r * 0.6} ${cy + r * 0.6}M${cx + r * 0.6} ${cy - r * 0.6}L${cx - r * 0.6} ${cy + r * 0.6}`, class: `${cls} line` });
  }
}

function colourName(view, letter, ctx) {
  const c = view.colours.find((x) => x.letter === letter);
  if (!c) return letter;
  return ctx.lang === "ja" ? c.name_ja : c.name;
}

function piece(letter, cx, cy, extra = "") {
  const [fill, kind] = STYLE[letter] || ["#777", "circle"];
  const g = svg("g", { class: `piece colour${extra}`, "data-piece": letter, "aria-hidden": "true" });
  g.append(svg("circle", { cx, cy, r: CELL * 0.42, fill, class: "disc" }));
  g.append(symbol(kind, cx, cy, CELL * 0.2, "sym"));
  return g;
}

export default {
  // the analysis board's panel of one seat's knowledge (js/analysis.js): the server's
  // seat_analysis ({pieces}) as what this seat saw beneath each white piece
  knowledge(a, ctx) {
    const { t } = ctx;
    const items = a.pieces.map((p) => el("li", {}, `${p.cell}: ${p.known === null ? t("analysis.mm_unknown") : p.known === "neutral" ? t("analysis.mm_neutral") : t("analysis.mm_colour", { c: p.known })}`));
    return [el("p", {}, t("analysis.mm_caption")), items.length ? el("ul", { class: "mm-known" }, ...items) : el("p", {}, t("analysis.nothing"))];
  },
  seatName(seat, ctx) {
    const view = ctx.view || (ctx.room && null);
    const base = ctx.t("seat", { n: seat + 1 });
    if (!view || !view.colours) return base;
    const mine = view.colours.filter((c) => c.seat === seat).map((c) => colourName(view, c.letter, ctx));
    return mine.length ? `${base} (${mine.join(ctx.t("colour_sep"))})` : base;
  },
  moveLabel(move, ctx) {
    if (move === "pass") return ctx.t("pass");
    if (move.endsWith("w")) return ctx.t("play_white", { cell: move.slice(0, -1) });
    return move;
  },
  score(view, ctx) {
    // labelled rows: first the points, then what each colour shows and holds
    return view.scores.map((s, i) => [ctx.t("score.player", { who: ctx.t("seat", { n: i + 1 }) }), s]).concat(
      view.colours.map((c) => [ctx.t("score.colour", { who: ctx.t("seat", { n: c.seat + 1 }), colour: colourName(view, c.letter, ctx) }), `${c.showing} ${ctx.t("showing")} · ${c.in_hand} ${ctx.t("in_hand")}`]),
    );
  },
  historyText(view, prev, ctx) {
    const last = view && view.last_move;
    if (!last) return null;
    const who = ctx.t("seat", { n: last.seat + 1 });
    if (last.pass) return ctx.t("log.pass", { who });
    return ctx.t("log.move", { who, cell: last.cell, white: last.white ? ctx.t("log.white") : ` (${colourName(view, last.colour, ctx)})`, n: last.flipped.length });
  },
  legend(ctx) {
    const [fill, kind] = STYLE.B;
    return [
      [swatch(svg("circle", { cx: 20, cy: 20, r: 17, fill, stroke: "#222" }), symbol(kind, 20, 20, 8, "sym")), ctx.t("legend.colour")],
      [swatch(svg("circle", { cx: 20, cy: 20, r: 17, fill: "#fbfbf7", stroke: "#222" })), ctx.t("legend.white")],
      [swatch(svg("circle", { cx: 20, cy: 20, r: 17, fill: "#9a9a9a", stroke: "#222" })), ctx.t("legend.neutral")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#6b8f71" }), svg("circle", { cx: 20, cy: 20, r: 8, fill, stroke: "#fff", "stroke-width": 2 })), ctx.t("legend.dot")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#6b8f71" }), svg("circle", { cx: 20, cy: 20, r: 8, fill: "#fff", stroke: "#333" })), ctx.t("legend.whitedot")],
      [swatch(svg("rect", { width: 40, height: 40, fill: "#8fb394" })), ctx.t("legend.last")],
      [swatch(svg("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 20 }, "1")), ctx.t("legend.score")],
    ];
  },
  render(view, ctx) {
    const w = view.width;
    const h = view.height;
    const root = svg("svg", { viewBox: `0 0 ${w * CELL + PAD * 2} ${h * CELL + PAD * 2}`, class: "memory-matrix", role: "group", "aria-label": ctx.t("board") });
    pick.reset(`${view.ply}|${ctx.seat}`);
    const wrap = el("div", { class: "mm-wrap" }, root);
    const moverColour = colourName(view, view.to_move_colour, ctx);
    const legal = ctx.legal || new Set();
    const last = view.last_move || {};
    const flipped = new Set(last.flipped || []);
    const aid = view.memory_aid || {};
    coordinates(root, { cols: w, rows: h, cell: CELL, pad: PAD, file: fileLetter, rank: (r) => String(r + 1) });
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        if (ch === "-") return;
        const name = fileLetter(c) + String(r + 1);
        const [x, y] = cellAt(r, c, CELL, PAD);
        const cx = x + CELL / 2;
        const cy = y + CELL / 2;
        const plain = legal.has(name);
        const white = legal.has(`${name}w`);
        const named = ch === "W" ? ctx.t("sq.whiteside", { cell: name }) + (aid[name] ? ` ${ctx.t("memory", { colour: colourName(view, aid[name], ctx) })}` : "") : ch === "*" ? ctx.t("sq.neutral", { cell: name }) : ch === "." ? ctx.t("sq.empty", { cell: name }) : ctx.t("sq.colour", { cell: name, colour: colourName(view, ch, ctx) });
        const rect = svg("rect", { x, y, width: CELL, height: CELL, class: `cell${last.cell === name ? " last" : ""}`, "data-cell": name, role: plain || white ? null : "img", "aria-label": plain || white ? null : named });
        if (!plain && !white) cursorAt(rect, cx, cy); // the keyboard cursor's stop (a move's target otherwise)
        root.append(rect);
        const anim = flipped.has(name) ? " flip" : last.cell === name ? " appear" : "";
        if (ch === "W") {
          const g = svg("g", { class: `piece whiteside${anim}`, "data-piece": "W", "aria-hidden": "true" }, svg("circle", { cx, cy, r: CELL * 0.42, class: "disc" }));
          if (aid[name]) {
            const [fill, kind] = STYLE[aid[name]] || ["#777", "circle"];
            const s = symbol(kind, cx, cy, CELL * 0.14, "aid");
            s.setAttribute("style", `fill:${fill};stroke:${fill}`);
            g.append(s, svg("title", {}, ctx.t("memory", { colour: colourName(view, aid[name], ctx) })));
          }
          root.append(g);
        } else if (ch === "*") {
          root.append(svg("g", { class: "piece neutral", "data-piece": "*", "aria-hidden": "true" }, svg("circle", { cx, cy, r: CELL * 0.42, class: "disc" }), svg("title", {}, ctx.t("neutral"))));
        } else if (ch !== ".") {
          const g = piece(ch, cx, cy, anim);
          g.append(svg("title", {}, colourName(view, ch, ctx)));
          root.append(g);
        }
        if (plain && white) {
          // a finger-sized cell picks the place; the pad below offers colour or white side
          const g = cellHit(x, y, CELL, svg("circle", { cx: cx - 9, cy, r: 8, fill: (STYLE[view.to_move_colour] || ["#777"])[0], class: "hint" }), svg("circle", { cx: cx + 9, cy, r: 8, class: "hint whitehint" }));
          root.append(cursorAt(pick.target(g, "data-pick", name, ctx.t("sq.pick", { cell: name }), wrap, () => this.render(view, ctx)), cx, cy));
          if (pick.value === name) wrap.append(movePad(ctx.t("choose", { cell: name }), [name, `${name}w`], ctx, (m) => (m.endsWith("w") ? this.moveLabel(m, ctx) : ctx.t("play_colour", { cell: name, colour: moverColour }))));
        } else if (plain || white) {
          const mv = plain ? name : `${name}w`;
          const g = cellHit(x, y, CELL, hintDot(x, y, CELL, 8, { fill: plain ? (STYLE[view.to_move_colour] || ["#777"])[0] : "#fff" }));
          root.append(cursorAt(moveTarget(g, mv, ctx, plain ? ctx.t("sq.play", { cell: name, colour: moverColour }) : this.moveLabel(mv, ctx)), cx, cy));
        }
      });
    });
    return wrap;
  },
};
