// Algo: every player's sorted row (own row at the bottom), the pile, the drawn card, the
// attack log with results, pair play's shown card. Numbers appear only where the view has
// them, so nothing hidden can reach the page. Pick an enemy card, then a number.
import { el, moveTarget, svg } from "../js/util.js";

const LETTERS = "ABCDEFGHIJKL";
const W = 42;
const H = 62;
const GAP = 8;
const ROW_H = H + 44;
const LEFT = 96;
const COLOURS = { b: "black", w: "white", r: "red" };
const ATTACK = /^attack ([A-L])(\d+)=(\d+)$/;
let selected = null;
let selectedFor = "";

function order(view, seat) {
  const n = view.rows.length;
  if (seat === null || seat === undefined) return [...Array(n).keys()];
  const out = [];
  for (let k = 1; k <= n; k++) out.push((seat + k) % n);
  return out; // own row last (bottom)
}

export default {
  strings: {
    en: {
      summary: "Deduce your opponents' hidden numbered cards from their sorted rows; a miss reveals your own card. Basic game, pair play, 5–8 players, jokers, two sets, three colours, chip scoring.",
      player: "Player {l}", pile: "Pile: {n}", hand: "Drawn card", placing: "Card to place",
      stay: "Stay", pass: "Pass!", show: "Show your card {n} to your partner", use: "Use card {n}", place: "Place at {n}",
      attack: "Guess {target} = {value}", hit: "hit", miss: "miss", shown: "Shown by partner",
      "log.attack": "{who} guessed {target}{pos} = {value}: {result}", "log.draw": "{who} drew a card",
      "log.insert": "{who} put a card into their row", "log.stay": "{who} stays", "log.pass": "{who} passes",
      "log.use": "{who} attacks with card", "log.show": "{who} was shown a card", out: "out", choose_number: "Which number?",
      "log.out": "{who} is out", "reason:pair": "pair {a}+{b} turned up both enemy rows", "reason:last": "{l} has the last face-down card",
      black: "black", white: "white", red: "red", not: "not {list}",
    },
    ja: {
      summary: "相手の伏せたカードの数字を、並び順から推理して当てる。外すと自分のカードが1枚表に。基本ルール、ペア戦、5〜8人、ジョーカー、2セット、3色、チップ得点。",
      player: "プレイヤー{l}", pile: "山札：{n}枚", hand: "引いたカード", placing: "並べるカード",
      stay: "ステイ", pass: "パス！", show: "パートナーに{n}番目のカードを見せる", use: "{n}番目のカードでアタック", place: "{n}番目に置く",
      attack: "{target}は{value}", hit: "当たり", miss: "はずれ", shown: "パートナーが見せたカード",
      "log.attack": "{who}：{target}{pos}は{value}？ → {result}", "log.draw": "{who}がカードを引いた",
      "log.insert": "{who}がカードを列に加えた", "log.stay": "{who}がステイ", "log.pass": "{who}がパス",
      "log.use": "{who}が手持ちのカードでアタック", "log.show": "{who}がカードを見せてもらった", out: "脱落", choose_number: "数字を選んでください",
      "log.out": "{who}が脱落", "reason:pair": "ペア{a}+{b}が相手2人の列をすべて表にしました", "reason:last": "{l}が最後まで伏せ札を残しました",
      black: "黒", white: "白", red: "赤", not: "{list}ではない",
      // the engine's options lack Japanese descriptions; these stand in until it has them
      "option:players": "人数",
      "option:sets": "カードのセット数（既定：7人以上なら2、それ以外は1）",
      "option:colours": "色の数：2（黒・白）または3（黒・白・赤、36枚）",
      "option:jokers": "両方の6をジョーカーにする",
      "option:chips": "チップ得点（得点はチップ）",
      "option:hand": "1人に配る枚数（既定は人数で決まる）",
      "option:first": "最初の手番の席（親）",
      "option:aid": "初心者向けの推理補助：自分の視点での正確な確率を表示（レーティング戦では使わない）",
    },
  },
  seatName(seat, ctx) {
    return ctx.t("player", { l: LETTERS[seat] });
  },
  reason(reason, ctx) {
    let m = reason.match(/^pair ([A-L])\+([A-L]) turned up both enemy rows/);
    if (m) return ctx.t("reason:pair", { a: m[1], b: m[2] });
    m = reason.match(/^([A-L]) has the last face-down card/);
    if (m) return ctx.t("reason:last", { l: m[1] });
    return null;
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
  render(view, ctx) {
    const key = `${ctx.seat}|${(view.log || []).length}|${view.phase}`;
    if (selectedFor !== key) {
      selected = null;
      selectedFor = key;
    }
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
    const rows = order(view, ctx.seat);
    const maxLen = Math.max(...view.rows.map((r) => r.length), 8) + 1;
    const width = LEFT + maxLen * (W + GAP) + 110;
    const height = rows.length * ROW_H + (selected ? 70 : 10);
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "algo", role: "group", "aria-label": "Algo table" });
    const draw = () => {
      root.replaceChildren();
      root.setAttribute("viewBox", `0 0 ${width} ${rows.length * ROW_H + (selected ? 70 : 10)}`);
      rows.forEach((owner, i) => {
        const y = 10 + i * ROW_H;
        const active = view.turn === owner;
        root.append(svg("text", { x: 6, y: y + H / 2 + 5, class: `who${active ? " active" : ""}` }, `${LETTERS[owner]}${owner === ctx.seat ? " ★" : ""}`));
        const places = [...legal].map((m) => m.match(/^place (\d+)$/)).filter(Boolean).map((m) => Number(m[1]));
        const placingHere = (view.placing ? view.placing.seat : view.turn) === owner && places.length;
        view.rows[owner].forEach((card, pos) => {
          const x = LEFT + pos * (W + GAP);
          const label = `${LETTERS[owner]}${pos + 1}`;
          const g = svg("g", { class: `card ${COLOURS[card.colour]}${card.up ? " up" : " down"}${card.held ? " held" : ""}${card.seen ? " seen" : ""}`, "data-card-id": card.id, "data-owner": owner, "data-label": label });
          g.append(svg("rect", { x, y: card.up ? y + 8 : y, width: W, height: H, rx: 6, class: "face" }));
          if (card.number !== undefined) g.append(svg("text", { x: x + W / 2, y: (card.up ? y + 8 : y) + H / 2 + 8, class: "num" }, String(card.number)));
          else g.append(svg("text", { x: x + W / 2, y: y + H / 2 + 8, class: "num unknown" }, "?"));
          g.append(svg("text", { x: x + W / 2, y: y + H + 24, class: "pos" }, label));
          if (card.not && card.not.length) g.append(svg("title", {}, ctx.t("not", { list: card.not.join(", ") })));
          if (card.seen) g.append(svg("title", {}, ctx.t("shown")));
          if (card.not && card.not.length && card.number === undefined) g.append(svg("text", { x: x + W / 2, y: y - 2, class: "not" }, `≠${card.not.join(",")}`));
          const own = owner === ctx.seat ? [`use ${pos + 1}`, `show ${pos + 1}`].find((m) => legal.has(m)) : null;
          if (attacks.has(label)) {
            g.classList.add("target");
            g.setAttribute("tabindex", "0");
            g.setAttribute("role", "button");
            g.setAttribute("data-attack", label);
            g.setAttribute("aria-label", label);
            if (selected === label) g.classList.add("selected");
            const pickIt = () => {
              selected = selected === label ? null : label;
              draw();
              const first = root.querySelector(selected ? "[data-move]" : `[data-attack="${label}"]`);
              if (first) first.focus();
            };
            g.addEventListener("click", pickIt);
            g.addEventListener("keydown", (e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                pickIt();
              }
            });
          } else if (own) moveTarget(g, own, ctx, this.moveLabel(own, ctx));
          root.append(g);
        });
        if (placingHere) {
          for (const p of places) {
            const x = LEFT + (p - 1) * (W + GAP) - GAP / 2 - 3;
            const mv = `place ${p}`;
            root.append(moveTarget(svg("g", {}, svg("rect", { x: x - 4, y, width: 14, height: H, class: "hit" }), svg("rect", { x, y: y + 4, width: 6, height: H - 8, rx: 3, class: "slot" })), mv, ctx, this.moveLabel(mv, ctx)));
          }
        }
        if (active && (view.hand || view.placing)) {
          const c = view.hand || view.placing;
          const x = LEFT + (view.rows[owner].length + 0.4) * (W + GAP);
          root.append(svg("g", { class: `card ${COLOURS[c.colour]} drawn`, "data-drawn": "true" }, svg("rect", { x, y, width: W, height: H, rx: 6, class: "face" }), svg("text", { x: x + W / 2, y: y + H / 2 + 8, class: "num" }, c.number !== undefined ? String(c.number) : "?"), svg("text", { x: x + W / 2, y: y + H + 24, class: "pos" }, ctx.t(view.hand ? "hand" : "placing"))));
        }
      });
      if (selected && attacks.has(selected)) {
        const y = 10 + rows.length * ROW_H;
        root.append(svg("text", { x: 6, y: y + 26, class: "who" }, ctx.t("choose_number")));
        attacks.get(selected).forEach(([v, m], k) => {
          const x = LEFT + k * (W + 4);
          const g = svg("g", { class: "pad" }, svg("rect", { x, y, width: W, height: 40, rx: 6 }), svg("text", { x: x + W / 2, y: y + 27, class: "num" }, String(v)));
          root.append(moveTarget(g, m, ctx, this.moveLabel(m, ctx)));
        });
      }
    };
    draw();
    wrap.append(root);
    const pile = view.pile;
    const colours = Object.entries(pile.colours).map(([c, n]) => `${ctx.t(COLOURS[c])} ${n}`).join(" · ");
    wrap.append(el("p", { class: "algo-pile" }, `${ctx.t("pile", { n: pile.size })} (${colours})`));
    const who = (s) => this.seatName(s, ctx);
    const lines = (view.log || []).slice(-8).map((e) => {
      if (e.event === "attack") return ctx.t("log.attack", { who: who(e.seat), target: LETTERS[e.target], pos: e.pos, value: e.name, result: ctx.t(e.hit ? "hit" : "miss") });
      const k = `log.${e.event}`;
      const text = ctx.t(k, { who: who(e.seat) });
      return text === k ? `${who(e.seat)}: ${e.event}` : text;
    });
    wrap.append(el("ol", { class: "algo-log", "aria-live": "polite" }, ...lines.map((l) => el("li", {}, l))));
    return wrap;
  },
};
