// Memory Matrix: any board shape (holes drawn as gaps), any number of colours. Every colour
// has a colour-blind-safe hue (Okabe–Ito first) AND its own symbol, so no one needs to tell
// hues apart. A white-side piece shows nothing of the colour beneath — unless the seat's own
// memory aid (an option) says it is one of its own colours.
import { el, movePad, moveTarget, pickTarget, svg, swatch } from "../js/util.js";

let picked = null;
let pickedFor = "";

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
  strings: {
    en: {
      "value:shape:cross": "cross", "value:shape:diamond": "diamond", "value:shape:octagon": "octagon", "value:shape:custom": "custom (mask)", "value:layout:random": "random", "value:layout:windmill": "windmill", "value:layout:butterfly": "butterfly", "value:lost_colour:white": "white (children's rule)", "value:lost_colour:pass": "pass (adults' rule)", "variant:4p": "4 players", "variant:3p": "3 players", "variant:2p": "2 players", "variant:2p2c": "2 players, 2 colours each", "variant:2p2c-adults": "2 players, 2 colours, adults' rule", "variant:cross": "cross board", "variant:windmill": "windmill start", "variant:butterfly": "butterfly start",
      seat: "Player {n}", white: "white side", neutral: "neutral", showing: "showing", in_hand: "in hand", pass: "Pass",
      "reason:the board is full": "the board is full",
      "reason:no colour left can move (adults' rule)": "no colour left can move (adults' rule)",
      play_colour: "{cell} with {colour}", play_white: "{cell} white side up", memory: "(your {colour})",
      board: "Memory Matrix board", "sq.empty": "{cell}: empty", "sq.colour": "{cell}: {colour} piece", "sq.whiteside": "{cell}: white side up",
      "sq.neutral": "{cell}: neutral piece", "sq.play": "Place {colour} on {cell}", "sq.pick": "{cell}: place here — then choose colour or white side",
      choose: "Place on {cell}:", "log.move": "{who}: {cell}{white} — {n} flipped", "log.white": " (white side)", "log.pass": "{who}: pass",
      "score.player": "{who} — points", "score.colour": "{who} — {colour}",
      "legend.colour": "a colour's piece shows its colour AND its own symbol (colour-blind safe)", "legend.white": "white piece: flipped — only memory knows its colour",
      "legend.neutral": "grey piece: neutral", "legend.dot": "dot in the mover's colour: a legal placement", "legend.whitedot": "white dot: place white side up here",
      "legend.last": "light cell: the last placement", "legend.score": "score rows: each player's points, then each colour's pieces showing and in hand",
      rules: [
        "Each player owns one (or two) colours. On your turn place a piece of your colour so that it brackets other pieces in a straight line, as in Reversi.",
        "Bracketed pieces are not recoloured: they turn white side up, hiding their colour. Remember what lies beneath!",
        "A colour with no piece showing plays white (children's rule) or passes (adults' rule).",
        "At the end every white piece is turned back over; the player with the most pieces of their colours wins.",
      ],
    },
    ja: {
      "value:shape:cross": "十字", "value:shape:diamond": "ひし形", "value:shape:octagon": "八角形", "value:shape:custom": "自由な形（mask）", "value:layout:random": "ランダム", "value:layout:windmill": "風車", "value:layout:butterfly": "蝶々", "value:lost_colour:white": "白で打つ（子どもルール）", "value:lost_colour:pass": "パス（大人ルール）", "variant:4p": "4人", "variant:3p": "3人", "variant:2p": "2人", "variant:2p2c": "2人・各2色", "variant:2p2c-adults": "2人・各2色・大人ルール", "variant:cross": "十字の盤", "variant:windmill": "風車の配置", "variant:butterfly": "蝶々の配置",
      seat: "プレイヤー{n}", white: "白面", neutral: "中立", showing: "表", in_hand: "手持ち", pass: "パス",
      "reason:the board is full": "盤面が埋まりました",
      "reason:no colour left can move (adults' rule)": "どの色も打てなくなりました（大人ルール）",
      play_colour: "{cell}に{colour}", play_white: "{cell}に白面で置く", memory: "（あなたの{colour}）",
      board: "メモリー・マトリックスの盤", "sq.empty": "{cell}：空き", "sq.colour": "{cell}：{colour}のピース", "sq.whiteside": "{cell}：白面",
      "sq.neutral": "{cell}：中立のピース", "sq.play": "{cell}に{colour}を置く", "sq.pick": "{cell}：ここに置く — 続けて色か白面かを選ぶ",
      choose: "{cell}に置く：", "log.move": "{who}：{cell}{white} — {n}個裏返し", "log.white": "（白面）", "log.pass": "{who}：パス",
      "score.player": "{who} — 得点", "score.colour": "{who} — {colour}",
      "legend.colour": "色のピースは色と記号の両方で示します（色覚に配慮）", "legend.white": "白いピース：裏返された駒 — 下の色は記憶だけが頼り",
      "legend.neutral": "灰色：中立のピース", "legend.dot": "手番の色の点：置ける場所", "legend.whitedot": "白い点：白面で置ける場所",
      "legend.last": "明るいマス：直前に置かれた場所", "legend.score": "得点欄：各プレイヤーの得点と、各色の表の数・手持ちの数",
      rules: [
        "各プレイヤーは1色（または2色）を持ちます。手番では自分の色のピースを、リバーシのように一直線にはさめる場所に置きます。",
        "はさまれたピースは色が変わらず、白面になって色が隠れます。下の色を覚えておきましょう！",
        "表の色がなくなった色は白で打つ（子どもルール）か、パス（大人ルール）。",
        "終局ですべての白いピースを表に戻し、自分の色のピースが最も多い人が勝ち。",
      ],
    },
  },
  seatName(seat, ctx) {
    const view = ctx.view || (ctx.room && null);
    const base = ctx.t("seat", { n: seat + 1 });
    if (!view || !view.colours) return base;
    const mine = view.colours.filter((c) => c.seat === seat).map((c) => colourName(view, c.letter, ctx));
    return mine.length ? `${base} (${mine.join("・")})` : base;
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
    const key = `${view.ply}|${ctx.seat}`;
    if (pickedFor !== key) {
      picked = null;
      pickedFor = key;
    }
    const wrap = el("div", { class: "mm-wrap" }, root);
    const moverColour = colourName(view, view.to_move_colour, ctx);
    const legal = ctx.legal || new Set();
    const last = view.last_move || {};
    const flipped = new Set(last.flipped || []);
    const aid = view.memory_aid || {};
    for (let c = 0; c < w; c++) root.append(svg("text", { x: PAD + c * CELL + CELL / 2, y: PAD - 4, class: "coord", "aria-hidden": "true" }, String.fromCharCode(97 + c)));
    for (let r = 0; r < h; r++) root.append(svg("text", { x: PAD / 2, y: PAD + r * CELL + CELL / 2 + 4, class: "coord", "aria-hidden": "true" }, String(r + 1)));
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        if (ch === "-") return;
        const name = String.fromCharCode(97 + c) + String(r + 1);
        const x = PAD + c * CELL;
        const y = PAD + r * CELL;
        const cx = x + CELL / 2;
        const cy = y + CELL / 2;
        const plain = legal.has(name);
        const white = legal.has(`${name}w`);
        const named = ch === "W" ? ctx.t("sq.whiteside", { cell: name }) + (aid[name] ? ` ${ctx.t("memory", { colour: colourName(view, aid[name], ctx) })}` : "") : ch === "*" ? ctx.t("sq.neutral", { cell: name }) : ch === "." ? ctx.t("sq.empty", { cell: name }) : ctx.t("sq.colour", { cell: name, colour: colourName(view, ch, ctx) });
        root.append(svg("rect", { x, y, width: CELL, height: CELL, class: `cell${last.cell === name ? " last" : ""}`, "data-cell": name, role: plain || white ? null : "img", "aria-label": plain || white ? null : named }));
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
          const g = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx: cx - 9, cy, r: 8, fill: (STYLE[view.to_move_colour] || ["#777"])[0], class: "hint" }), svg("circle", { cx: cx + 9, cy, r: 8, class: "hint whitehint" }));
          root.append(pickTarget(g, "data-pick", name, ctx.t("sq.pick", { cell: name }), picked === name, () => {
            picked = picked === name ? null : name;
            const again = this.render(view, ctx);
            wrap.replaceWith(again);
            const focus = again.querySelector(picked ? ".move-pad [data-move]" : `[data-pick="${name}"]`);
            if (focus) focus.focus();
          }));
          if (picked === name) wrap.append(movePad(ctx.t("choose", { cell: name }), [name, `${name}w`], ctx, (m) => (m.endsWith("w") ? this.moveLabel(m, ctx) : ctx.t("play_colour", { cell: name, colour: moverColour }))));
        } else if (plain || white) {
          const mv = plain ? name : `${name}w`;
          const g = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx, cy, r: 8, fill: plain ? (STYLE[view.to_move_colour] || ["#777"])[0] : "#fff", class: "hint" }));
          root.append(moveTarget(g, mv, ctx, plain ? ctx.t("sq.play", { cell: name, colour: moverColour }) : this.moveLabel(mv, ctx)));
        }
      });
    });
    return wrap;
  },
};
