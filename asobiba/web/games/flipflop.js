// FlipFlop: the 3×3 or 5×5 board; each piece shows its face (＋ rook in red, × bishop in
// blue, as the seed's paper pieces). Pick a piece, then one of its highlighted squares.
import { moveTarget, svg } from "../js/util.js";

const FILES = "abcde";
const CELL = 80;
const PAD = 26;
const MOVE = /^([RB])([a-e][1-5])([-x])([a-e][1-5])$/i;
let selected = null;
let selectedFor = "";

export default {
  strings: {
    en: {
      summary: "Rook/bishop pieces flip after every move; capture only on the goal squares; win by holding the opponent's goal. 3×3 or 5×5.",
      white: "White", black: "Black", rook: "rook", bishop: "bishop", goal: "goal", threat: "Goal threatened: {sq}",
      repetitions: "This position has occurred {n}×",
      "reason:holds": "{colour} holds the goal on {sq}",
      "reason:nomove": "{colour} has no legal move",
      "reason:the same position occurred for the third time": "the same position occurred for the third time",
    },
    ja: {
      summary: "駒は動くたびに＋（飛車）と×（角行）が裏返る。取れるのはゴールの駒だけ。相手のゴールを守り切れば勝ち。3×3と5×5。",
      white: "白", black: "黒", rook: "飛車", bishop: "角行", goal: "ゴール", threat: "ゴールが狙われています：{sq}",
      repetitions: "この局面は{n}回目です",
      "reason:holds": "{colour}が{sq}のゴールを守り切りました",
      "reason:nomove": "{colour}は動かせる駒がありません",
      "reason:the same position occurred for the third time": "同じ局面が3回現れました",
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
    const root = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "flipflop", role: "group", "aria-label": "FlipFlop board" });
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
          root.append(svg("rect", { x, y, width: CELL, height: CELL, class: cls.join(" "), "data-square": sq }));
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
            g.append(svg("title", {}, `${ctx.t(white ? "white" : "black")} ${ctx.t(bishop ? "bishop" : "rook")} ${sq}`));
            if (froms.has(sq)) {
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
            root.append(moveTarget(t, tos.get(sq), ctx, tos.get(sq)));
          }
        });
      });
    };
    draw();
    return root;
  },
};
