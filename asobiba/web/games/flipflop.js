// FlipFlop: the 3×3 or 5×5 board; each piece shows its face (＋ rook in red, × bishop in
// blue, as the seed's paper pieces). Pick a piece, then one of its highlighted squares.
import { moveTarget, svg, swatch } from "../js/util.js";

const FILES = "abcde";
const CELL = 80;
const PAD = 26;
const MOVE = /^([RB])([a-e][1-5])([-x])([a-e][1-5])$/i;
let selected = null;
let selectedFor = "";

export default {
  strings: {
    en: {
      white: "White", black: "Black", rook: "rook", bishop: "bishop", goal: "goal", threat: "Goal threatened: {sq}",
      repetitions: "This position has occurred {n}×",
      "reason:holds": "{colour} holds the goal on {sq}",
      "reason:nomove": "{colour} has no legal move",
      "reason:the same position occurred for the third time": "the same position occurred for the third time",
      board: "FlipFlop board", "sq.empty": "{sq}: empty", "sq.piece": "{sq}: {colour} {face}", "sq.pick": "{sq}: {colour} {face} — can move; pick it",
      "sq.to": "Move {from} to {to}", "sq.take": "Move {from} to {to}, taking the piece there",
      "legend.rook": "＋ face: moves like a rook (any distance along a row or column)", "legend.bishop": "× face: moves like a bishop (any distance diagonally)",
      "legend.goal": "dashed circle: a goal square (each side's home goal)", "legend.movable": "gold ring: this piece can move now — pick it",
      "legend.dest": "blue dot: a square the picked piece can reach", "legend.threat": "red square: a goal under attack", "legend.last": "yellow squares: the last move",
      rules: [
        "White moves first. On your turn move one of your pieces; afterwards it flips (＋ becomes ×, × becomes ＋).",
        "＋ moves like a rook, × like a bishop, any distance; pieces never jump.",
        "A piece may be taken only on a goal square.",
        "Place a piece on the opponent's goal and keep it there through their reply to win; a player with no move loses; the same position a third time is a draw.",
      ],
    },
    ja: {
      white: "白", black: "黒", rook: "飛車", bishop: "角行", goal: "ゴール", threat: "ゴールが狙われています：{sq}",
      repetitions: "この局面は{n}回目です",
      "reason:holds": "{colour}が{sq}のゴールを守り切りました",
      "reason:nomove": "{colour}は動かせる駒がありません",
      "reason:the same position occurred for the third time": "同じ局面が3回現れました",
      board: "フリップフロップの盤", "sq.empty": "{sq}：空き", "sq.piece": "{sq}：{colour}の{face}", "sq.pick": "{sq}：{colour}の{face} — 動かせます。選ぶ",
      "sq.to": "{from}から{to}へ動かす", "sq.take": "{from}から{to}へ動かし、そこの駒を取る",
      "legend.rook": "＋の面：飛車のように縦横にいくつでも動く", "legend.bishop": "×の面：角行のように斜めにいくつでも動く",
      "legend.goal": "点線の円：ゴールのマス", "legend.movable": "金色の輪：今動かせる駒（選んでください）",
      "legend.dest": "青い点：選んだ駒が行けるマス", "legend.threat": "赤いマス：狙われているゴール", "legend.last": "黄色のマス：直前の手",
      rules: [
        "白が先手。手番では自分の駒を1つ動かし、動かした駒は裏返ります（＋と×が入れ替わる）。",
        "＋は飛車、×は角行のようにいくつでも動けます。駒を飛び越すことはできません。",
        "駒を取れるのはゴールのマスの上だけです。",
        "相手のゴールに駒を置き、相手の次の手の後も残っていれば勝ち。動かせる駒がなければ負け、同じ局面が3回で引き分け。",
      ],
    },
  },
  seatName(seat, ctx) {
    return seat === 0 ? `○ ${ctx.t("white")}` : `● ${ctx.t("black")}`;
  },
  reason(reason, ctx) {
    const colour = (w) => ctx.t(w.toLowerCase());
    let m = reason.match(/^(white|black)'s piece on ([a-e][1-5]) was not taken back/i);
    if (m) return ctx.t("reason:holds", { colour: colour(m[1]), sq: m[2] });
    m = reason.match(/^(white|black) has no legal move/i);
    if (m) return ctx.t("reason:nomove", { colour: colour(m[1]) });
    return null;
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
    const key = `${view.position}|${ctx.seat}`;
    if (selectedFor !== key) {
      selected = null;
      selectedFor = key;
    }
    const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "flipflop", role: "group", "aria-label": ctx.t("board") });
    const last = view.last_move ? view.last_move.match(MOVE) : null;
    const goals = { [view.goals.white]: "white", [view.goals.black]: "black" };
    const draw = () => {
      root.replaceChildren();
      for (let i = 0; i < n; i++) {
        root.append(svg("text", { x: PAD + CELL * i + CELL / 2, y: PAD - 8, class: "coord" }, FILES[i]));
        root.append(svg("text", { x: PAD / 2, y: PAD + CELL * i + CELL / 2 + 5, class: "coord" }, String(n - i)));
      }
      const froms = new Set(legal.map(([, p]) => p[2]));
      const tos = new Map(legal.filter(([, p]) => p[2] === selected).map(([m, p]) => [p[4], m]));
      view.board.forEach((row, r) => {
        [...row].forEach((ch, c) => {
          const sq = FILES[c] + String(n - r);
          const x = PAD + c * CELL;
          const y = PAD + r * CELL;
          const cls = ["cell", (r + c) % 2 ? "dark" : "light"];
          if (last && (last[2] === sq || last[4] === sq)) cls.push("last");
          if (view.threat === sq) cls.push("threat");
          const cell = svg("rect", { x, y, width: CELL, height: CELL, class: cls.join(" "), "data-square": sq });
          if (ch === "." && !tos.has(sq)) {
            cell.setAttribute("role", "img");
            cell.setAttribute("aria-label", ctx.t("sq.empty", { sq }));
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
            g.setAttribute("role", "img");
            g.setAttribute("aria-label", ctx.t("sq.piece", names));
            if (froms.has(sq)) {
              g.classList.add("movable");
              g.insertBefore(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.42, class: "ring" }), g.firstChild);
              g.setAttribute("aria-label", ctx.t("sq.pick", names));
              g.setAttribute("data-from", sq);
              g.setAttribute("tabindex", "0");
              g.setAttribute("role", "button");
              g.setAttribute("aria-pressed", String(selected === sq));
              g.classList.add("target");
              if (selected === sq) g.classList.add("selected");
              const pickIt = () => {
                selected = selected === sq ? null : sq;
                draw();
                const again = root.querySelector(`[data-from="${sq}"]`);
                if (again) again.focus();
              };
              g.addEventListener("click", pickIt);
              g.addEventListener("keydown", (e) => {
                if (e.key === "Enter" || e.key === " ") {
                  e.preventDefault();
                  pickIt();
                }
              });
            }
            root.append(g);
          }
          if (tos.has(sq)) {
            const t = svg("g", {}, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }), svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 9, class: "hint" }));
            const mv = tos.get(sq);
            root.append(moveTarget(t, mv, ctx, ctx.t(mv.includes("x") ? "sq.take" : "sq.to", { from: selected, to: sq })));
          }
        });
      });
    };
    draw();
    return root;
  },
};
