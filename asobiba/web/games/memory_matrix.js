// Memory Matrix: any board shape (holes drawn as gaps), any number of colours. Every colour
// has a colour-blind-safe hue (Okabe–Ito first) AND its own symbol, so no one needs to tell
// hues apart. A white-side piece shows nothing of the colour beneath — unless the seat's own
// memory aid (an option) says it is one of its own colours.
import { moveTarget, svg } from "../js/util.js";

const CELL = 48;
const PAD = 26;
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
  const g = svg("g", { class: `piece colour${extra}`, "data-piece": letter });
  g.append(svg("circle", { cx, cy, r: CELL * 0.42, fill, class: "disc" }));
  g.append(symbol(kind, cx, cy, CELL * 0.2, "sym"));
  return g;
}

export default {
  strings: {
    en: {
      summary: "Multi-colour reversi for any number of players: a flipped piece shows white, and only your memory knows the colour beneath.",
      seat: "Player {n}", white: "white side", neutral: "neutral", showing: "showing", in_hand: "in hand", pass: "Pass",
      "reason:the board is full": "the board is full",
      "reason:no colour left can move (adults' rule)": "no colour left can move (adults' rule)",
      play_colour: "{cell} with {colour}", play_white: "{cell} white side up", memory: "(your {colour})",
    },
    ja: {
      summary: "何人でも遊べる多色リバーシ。裏返った駒は白になり、その下の色は記憶だけが頼り。",
      seat: "プレイヤー{n}", white: "白面", neutral: "中立", showing: "表", in_hand: "手持ち", pass: "パス",
      "reason:the board is full": "盤面が埋まりました",
      "reason:no colour left can move (adults' rule)": "どの色も打てなくなりました（大人ルール）",
      play_colour: "{cell}に{colour}", play_white: "{cell}に白面で置く", memory: "（あなたの{colour}）",
      // the engine's options lack Japanese descriptions; these stand in until it has them
      "option:mask": "カスタム盤：'#'（マス）と'.'（穴）の行を'/'で区切る",
      "option:layout": "初期配置：random（シードで決定）、windmill 風車、butterfly 蝶々",
      "option:white_any_time": "白での挟みをいつでも認める（既定：2人で各1色ならオン）",
      "option:memory_aid": "自分の色の白い駒の下の色を表示（小さな子ども向け。レーティング戦では使わない）",
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
    return view.colours.map((c) => [`${ctx.t("seat", { n: c.seat + 1 })} — ${colourName(view, c.letter, ctx)}`, `${c.showing} ${ctx.t("showing")} · ${c.in_hand} ${ctx.t("in_hand")}`]).concat(
      view.scores.map((s, i) => [`${ctx.t("seat", { n: i + 1 })}`, s]),
    );
  },
  render(view, ctx) {
    const w = view.width;
    const h = view.height;
    const root = svg("svg", { viewBox: `0 0 ${w * CELL + PAD * 2} ${h * CELL + PAD * 2}`, class: "memory-matrix", role: "group", "aria-label": "Memory Matrix board" });
    const legal = ctx.legal || new Set();
    const last = view.last_move || {};
    const flipped = new Set(last.flipped || []);
    const aid = view.memory_aid || {};
    for (let c = 0; c < w; c++) root.append(svg("text", { x: PAD + c * CELL + CELL / 2, y: PAD - 8, class: "coord" }, String.fromCharCode(97 + c)));
    for (let r = 0; r < h; r++) root.append(svg("text", { x: PAD / 2, y: PAD + r * CELL + CELL / 2 + 5, class: "coord" }, String(r + 1)));
    view.board.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        if (ch === "-") return;
        const name = String.fromCharCode(97 + c) + String(r + 1);
        const x = PAD + c * CELL;
        const y = PAD + r * CELL;
        const cx = x + CELL / 2;
        const cy = y + CELL / 2;
        root.append(svg("rect", { x, y, width: CELL, height: CELL, class: `cell${last.cell === name ? " last" : ""}`, "data-cell": name }));
        const anim = flipped.has(name) ? " flip" : last.cell === name ? " appear" : "";
        if (ch === "W") {
          const g = svg("g", { class: `piece whiteside${anim}`, "data-piece": "W" }, svg("circle", { cx, cy, r: CELL * 0.42, class: "disc" }));
          if (aid[name]) {
            const [fill, kind] = STYLE[aid[name]] || ["#777", "circle"];
            const s = symbol(kind, cx, cy, CELL * 0.14, "aid");
            s.setAttribute("style", `fill:${fill};stroke:${fill}`);
            g.append(s, svg("title", {}, ctx.t("memory", { colour: colourName(view, aid[name], ctx) })));
          }
          root.append(g);
        } else if (ch === "*") {
          root.append(svg("g", { class: "piece neutral", "data-piece": "*" }, svg("circle", { cx, cy, r: CELL * 0.42, class: "disc" }), svg("title", {}, ctx.t("neutral"))));
        } else if (ch !== ".") {
          const g = piece(ch, cx, cy, anim);
          g.append(svg("title", {}, colourName(view, ch, ctx)));
          root.append(g);
        }
        const plain = legal.has(name);
        const white = legal.has(`${name}w`);
        if (plain && white) {
          const a = svg("g", {}, svg("circle", { cx: cx - 10, cy, r: 9, fill: (STYLE[view.to_move_colour] || ["#777"])[0], class: "hint" }));
          const b = svg("g", {}, svg("circle", { cx: cx + 10, cy, r: 9, class: "hint whitehint" }));
          root.append(moveTarget(a, name, ctx, name), moveTarget(b, `${name}w`, ctx, this.moveLabel(`${name}w`, ctx)));
        } else if (plain || white) {
          const mv = plain ? name : `${name}w`;
          const g = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx, cy, r: 8, fill: plain ? (STYLE[view.to_move_colour] || ["#777"])[0] : "#fff", class: "hint" }));
          root.append(moveTarget(g, mv, ctx, this.moveLabel(mv, ctx)));
        }
      });
    });
    return root;
  },
};
