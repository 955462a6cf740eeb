// Algo: every player's sorted row (own row at the bottom), the pile, the drawn card, the
// attack log with results, pair play's shown card. Numbers appear only where the view has
// them, so nothing hidden can reach the page. Pick an enemy card, then a number.
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} AlgoView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {RulesView} rules
 * @property {string} phase
 * @property {number} turn
 * @property {Array<Array<SlotView>>} rows
 * @property {PileView} pile
 * @property {(HandView|null)} hand
 * @property {(PlacingView|null)} placing
 * @property {number} hits
 * @property {Array<number>} out
 * @property {Array<number>} chips
 * @property {Array<(AttackEvent|InsertEvent|DrawEvent|SlotEvent|SeatEvent)>} log
 * @property {Array<string>} [my_setup]
 * @property {Object<string, Object<string, number>>} [aid]
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
 * @typedef {Object} RulesView
 * @property {("basic"|"pair")} mode
 * @property {(2|3)} colours
 * @property {number} sets
 * @property {boolean} jokers
 * @property {boolean} chips
 */
/**
 * @typedef {Object} SlotView
 * @property {number} id
 * @property {string} colour
 * @property {boolean} up
 * @property {number} [number]
 * @property {boolean} [seen]
 * @property {boolean} [revealed]
 * @property {Array<number>} [not]
 * @property {boolean} [held]
 */
/**
 * @typedef {Object} PileView
 * @property {number} size
 * @property {Object<string, number>} colours
 * @property {Array<string>} [cards]
 */
/**
 * @typedef {Object} HandView
 * @property {string} colour
 * @property {number} [number]
 */
/**
 * @typedef {Object} PlacingView
 * @property {number} seat
 * @property {string} colour
 * @property {boolean} up
 * @property {number} [number]
 */
/**
 * @typedef {Object} AttackEvent
 * @property {("attack")} event
 * @property {number} seat
 * @property {number} target
 * @property {number} pos
 * @property {number} id
 * @property {number} name
 * @property {boolean} hit
 */
/**
 * @typedef {Object} InsertEvent
 * @property {("insert")} event
 * @property {number} seat
 * @property {number} id
 * @property {number} pos
 * @property {boolean} up
 * @property {number} [number]
 */
/**
 * @typedef {Object} DrawEvent
 * @property {("draw")} event
 * @property {number} seat
 * @property {string} colour
 */
/**
 * @typedef {Object} SlotEvent
 * @property {("use"|"show")} event
 * @property {number} seat
 * @property {number} id
 */
/**
 * @typedef {Object} SeatEvent
 * @property {("pass"|"stay"|"out"|"ready")} event
 * @property {number} seat
 */
// --- end of the generated view shape ---
import { el, movePad, moveTarget, svg, swatch } from "../js/util.js";
import { cursorAt, picker } from "../js/board.js";

const LETTERS = "ABCDEFGHIJKL";
const W = 46;
const H = 62;
const GAP = 8;
const LINE_H = H + 30;
const LEFT = 34;
const COLOURS = { b: "black", w: "white", r: "red" };
const ATTACK = /^attack ([A-L])(\d+)=(\d+)$/;
const pick = picker(); // the enemy card being guessed

function order(view, seat) {
  const n = view.rows.length;
  if (seat === null || seat === undefined) return [...Array(n).keys()];
  const out = [];
  for (let k = 1; k <= n; k++) out.push((seat + k) % n);
  return out; // own row last (bottom)
}

function logLine(e, ctx, who) {
  if (e.event === "attack") return ctx.t("log.attack", { who: who(e.seat), target: LETTERS[e.target], pos: e.pos, value: e.name, result: ctx.t(e.hit ? "hit" : "miss") });
  const k = `log.${e.event}`;
  const text = ctx.t(k, { who: who(e.seat) });
  return text === k ? `${who(e.seat)}: ${e.event}` : text;
}

export default {
  // the analysis board's panel of one seat's knowledge (js/analysis.js): the server's
  // seat_analysis ({best, cards}) as the best guess and each hidden card's chances
  knowledge(a, ctx) {
    const { t, pct } = ctx;
    const best = el("p", { class: "best-guess" }, a.best ? t("analysis.algo_best", { card: a.best.card, number: a.best.number, p: pct(a.best.p) }) : t("analysis.nothing"));
    const rows = a.cards.map((c) => el("tr", {}, el("th", { scope: "row" }, c.card), el("td", {}, Object.entries(c.numbers).map(([k, p]) => `${k}: ${pct(p)}`).join(", "))));
    return [best, el("table", { class: "posterior" }, el("caption", {}, t("analysis.algo_caption")), el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("analysis.card")), el("th", { scope: "col" }, t("analysis.chances")))), el("tbody", {}, ...rows))];
  },
  seatName(seat, ctx) {
    return ctx.t("player", { l: LETTERS[seat] });
  },

  moveLabel(move, ctx) {
    const m = move.match(ATTACK);
    if (m) return ctx.t("attack", { target: `${m[1]}${m[2]}`, value: m[3] });
    if (move === "stay") return ctx.t("stay");
    if (move === "pass!") return ctx.t("pass");
    const p = move.match(/^(show|use|place) (\d+)$/);
    if (p) return ctx.t(p[1], { n: p[2] });
    return move;
  },
  score(view, ctx) {
    return view.rows.map((row, s) => [this.seatName(s, ctx) + (view.out.includes(s) ? ` (${ctx.t("out")})` : ""), view.rules.chips ? view.chips[s] : `${row.filter((c) => !c.up).length} / ${row.length}`]);
  },
  // the result: who kept cards face down (the same count as the score panel), not rank keys
  resultFromView: true,
  resizes: true, // the layout follows the board's width (cards never shrink below a finger)
  panelMoves(moves) {
    // guesses are made on the board (pick a highlighted card, then a number): listing every
    // card × number as a button buried the few other actions under 100+ buttons
    return moves.filter((m) => !ATTACK.test(m));
  },
  historyText(view, prev, ctx) {
    const log = (view && view.log) || [];
    const before = (prev && prev.log) || [];
    if (log.length <= before.length) return null;
    return log.slice(before.length).map((e) => logLine(e, ctx, (s) => this.seatName(s, ctx))).join("; ");
  },
  legend(ctx) {
    const card = (fill, stroke, sw, num, numFill, dash) => [svg("rect", { x: 8, y: 3, width: 24, height: 34, rx: 4, fill, stroke, "stroke-width": sw, "stroke-dasharray": dash || null }), svg("text", { x: 20, y: 26, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: numFill }, num)];
    return [
      [swatch(...card("#1c1c1c", "#555", 1.5, "?", "#f5f5f0")), ctx.t("legend.down")],
      [swatch(...card("#f7f7f2", "#d4a017", 3, "7", "#1c1c1c")), ctx.t("legend.up")],
      [swatch(...card("#1c1c1c", "#1b5fd1", 3, "?", "#f5f5f0", "5 3")), ctx.t("legend.guessable")],
      [swatch(...card("#1c1c1c", "#555", 1.5, "?", "#f5f5f0"), svg("text", { x: 20, y: 11, "text-anchor": "middle", "font-size": 9, fill: "#b5322a" }, "≠3")), ctx.t("legend.not")],
      [swatch(...card("#f7f7f2", "#555", 2.5, "5", "#1c1c1c", "5 3")), ctx.t("legend.drawn")],
      [swatch(svg("rect", { x: 17, y: 3, width: 6, height: 34, rx: 3, fill: "#1b5fd1" })), ctx.t("legend.slot")],
      [swatch(svg("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: "#b5322a" }, "A★")), ctx.t("legend.you")],
    ];
  },
  render(view, ctx) {
    pick.reset(`${ctx.seat}|${(view.log || []).length}|${view.phase}`);
    const wrap = el("div", { class: "algo-wrap" });
    const legal = ctx.legal || new Set();
    const attacks = new Map();
    for (const m of legal) {
      const a = m.match(ATTACK);
      if (a) {
        const k = `${a[1]}${a[2]}`;
        if (!attacks.has(k)) attacks.set(k, []);
        attacks.get(k).push([Number(a[3]), m]);
      }
    }
    const places = [...legal].map((m) => m.match(/^place (\d+)$/)).filter(Boolean).map((m) => Number(m[1]));
    // one SVG unit is one CSS pixel: the cards keep a finger's size and rows wrap instead of
    // shrinking (23 px cards on a phone before)
    const width = Math.max(300, Math.min(900, Math.floor(ctx.width || 640)));
    const perLine = Math.max(4, Math.floor((width - LEFT - 4) / (W + GAP)));
    const rows = order(view, ctx.seat);
    const layout = [];
    let y = 6;
    for (const owner of rows) {
      const active = view.turn === owner && (view.hand || view.placing);
      const count = view.rows[owner].length + (active ? 1 : 0);
      const lines = Math.max(1, Math.ceil(count / perLine));
      layout.push({ owner, y, lines });
      y += lines * LINE_H + 10;
    }
    const root = svg("svg", { viewBox: `0 0 ${width} ${y}`, width, class: "algo", role: "group", "aria-label": ctx.t("board") });
    const at = (k, top) => [LEFT + (k % perLine) * (W + GAP), top + 14 + Math.floor(k / perLine) * LINE_H];
    for (const { owner, y: top } of layout) {
      const active = view.turn === owner;
      root.append(svg("text", { x: 2, y: top + 14 + H / 2 + 6, class: `who${active ? " active" : ""}`, "aria-hidden": "true" }, `${LETTERS[owner]}${owner === ctx.seat ? "★" : ""}`));
      const placingHere = (view.placing ? view.placing.seat : view.turn) === owner && places.length;
      view.rows[owner].forEach((card, pos) => {
        const [x, cy] = at(pos, top);
        const label = `${LETTERS[owner]}${pos + 1}`;
        const colour = ctx.t(COLOURS[card.colour]);
        const named = card.number !== undefined ? ctx.t(card.up ? "card.up" : "card.known", { label, colour, n: card.number }) : ctx.t("card.down", { label, colour }) + (card.not && card.not.length ? ` ${ctx.t("not", { list: card.not.join(", ") })}` : "");
        // every card is a stop of the keyboard cursor; Enter on a guessable one picks it
        const g = cursorAt(svg("g", { class: `card ${COLOURS[card.colour]}${card.up ? " up" : " down"}${card.held ? " held" : ""}${card.seen ? " seen" : ""}${card.revealed ? " revealed" : ""}`, "data-card-id": card.id, "data-owner": owner, "data-label": label, role: "img", "aria-label": named }), x + W / 2, cy + H / 2);
        g.append(svg("rect", { x, y: cy, width: W, height: H, rx: 6, class: "face" }));
        g.append(svg("text", { x: x + W / 2, y: cy + H / 2 + 8, class: card.number !== undefined ? "num" : "num unknown" }, card.number !== undefined ? String(card.number) : "?"));
        g.append(svg("text", { x: x + W / 2, y: cy + H + 13, class: "pos" }, label));
        if (card.not && card.not.length && card.number === undefined) g.append(svg("text", { x: x + W / 2, y: cy - 3, class: "not" }, `≠${card.not.join(",")}`));
        const own = owner === ctx.seat ? [`use ${pos + 1}`, `show ${pos + 1}`].find((m) => legal.has(m)) : null;
        if (attacks.has(label)) {
          g.classList.add("guessable");
          pick.target(g, "data-attack", label, ctx.t("card.guess", { label: named }), wrap, () => this.render(view, ctx));
        } else if (own) moveTarget(g, own, ctx, this.moveLabel(own, ctx));
        root.append(g);
      });
      if (placingHere) {
        for (const p of places) {
          // a visible, numbered slot; the place itself is chosen in the pad below
          const [x, cy] = at(p - 1, top);
          root.append(svg("rect", { x: x - GAP / 2 - 3, y: cy + 4, width: 6, height: H - 8, rx: 3, class: "slot", "aria-hidden": "true" }));
          root.append(svg("text", { x: x - GAP / 2, y: cy - 2, class: "slotnum", "aria-hidden": "true" }, String(p)));
        }
      }
      if (active && (view.hand || view.placing)) {
        const c = view.hand || view.placing;
        const [x, cy] = at(view.rows[owner].length, top);
        const name = ctx.t(view.hand ? "hand" : "placing");
        root.append(svg("g", { class: `card ${COLOURS[c.colour]} drawn`, "data-drawn": "true", role: "img", "aria-label": `${name}: ${ctx.t(COLOURS[c.colour])} ${c.number !== undefined ? c.number : "?"}` }, svg("rect", { x, y: cy, width: W, height: H, rx: 6, class: "face" }), svg("text", { x: x + W / 2, y: cy + H / 2 + 8, class: "num" }, c.number !== undefined ? String(c.number) : "?"), svg("text", { x: x + W / 2, y: cy + H + 13, class: "pos" }, name)));
      }
    }
    wrap.append(root);
    const selected = pick.value;
    if (selected && attacks.has(selected)) wrap.append(movePad(ctx.t("choose_number_for", { label: selected }), attacks.get(selected).map(([, m]) => m), ctx, (m) => m.match(ATTACK)[3]));
    // eslint-disable-next-line asobiba/ui-strings -- a move's notation (sent to the server), not text
    if (places.length) wrap.append(movePad(ctx.t("choose_place"), places.map((p) => `place ${p}`), ctx, (m) => m.slice(6)));
    if (attacks.size && !selected) wrap.append(el("p", { class: "hint" }, ctx.t("pick_card")));
    const pile = view.pile;
    const colours = Object.entries(pile.colours).map(([c, n]) => `${ctx.t(COLOURS[c])} ${n}`).join(" · ");
    wrap.append(el("p", { class: "algo-pile" }, `${ctx.t("pile", { n: pile.size })} (${colours})`));
    const who = (s) => this.seatName(s, ctx);
    const lines = (view.log || []).slice(-8).map((e) => logLine(e, ctx, who));
    wrap.append(el("ol", { class: "algo-log", "aria-live": "polite" }, ...lines.map((l) => el("li", {}, l))));
    return wrap;
  },
};
