// Patapata Kamipen: your 4×4 window (what the folded sheet shows, turned by its rotation),
// the 8 flaps ("switches") you click to flip, the rotation buttons, writing marks 〇 × ■ on
// visible blanks, the whole printed 4×8 sheet, the task strip and the score breakdown.
// Other players' sheets show only what the view gives (their marks at the last task).
import { el, moveTarget, svg, swatch } from "../js/util.js";

const CELL = 64;
const MARK_TEXT = { O: "〇", X: "×", B: "■" };
let picking = null;
let pickingFor = "";

function mark(kind, cx, cy, r) {
  if (kind === "O") return svg("circle", { cx, cy, r: r * 0.75, class: "mk o" });
  if (kind === "X") return svg("path", { d: `M${cx - r * 0.7} ${cy - r * 0.7}L${cx + r * 0.7} ${cy + r * 0.7}M${cx + r * 0.7} ${cy - r * 0.7}L${cx - r * 0.7} ${cy + r * 0.7}`, class: "mk x" });
  if (kind === "B") return svg("rect", { x: cx - r * 0.7, y: cy - r * 0.7, width: r * 1.4, height: r * 1.4, class: "mk b" });
  return null;
}

function pattern(rows, size, cls) {
  const h = rows.length;
  const w = Math.max(...rows.map((r) => r.length));
  const root = svg("svg", { viewBox: `0 0 ${w * size} ${h * size}`, class: cls, width: w * size, height: h * size });
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    root.append(svg("rect", { x: c * size, y: r * size, width: size, height: size, class: ch === "." ? "pc blank" : "pc" }));
    const m = mark(ch, c * size + size / 2, r * size + size / 2, size / 2.4);
    if (m) root.append(m);
  }));
  return root;
}

export default {
  strings: {
    en: {
      "value:course:dice": "dice (random course)", "value:scores:standard": "standard", "value:scores:steep": "steep",
      seat: "Sheet {n}", window: "Your window", flaps: "Flaps (switches)", rotate: "Turn the sheet", sheet: "Printed sheet",
      tasks: "Tasks", task: "Task {n} of {total}", pass: "Pass", clear: "Clear", write: "Write {mark} on {cell}", switch: "Flip switch {s}",
      rotate_to: "Turn {deg}°", groups: "Largest group {mark}", blanks: "Blanks", passes: "Passes", total: "Total",
      done: "cleared or passed — waiting for the others", others: "Other sheets", choose_mark: "Which mark?",
      "reason:the course of 12 tasks is finished": "the course of 12 tasks is finished",
      "cell.blank": "{cell}: blank", "cell.mark": "{cell}: {mark}", "cell.write": "{cell}: blank — write a mark here",
      hint: "Hint (costs a marker)", hints_used: "Hints used: {n}", hint_text: "Hint: {move}", no_hint: "No way to clear this task from here: pass.",
      "legend.pending": "yellow cell: a mark written for this task", "legend.blank": "white cell with a name: a visible blank (click to write)",
      "legend.marks": "〇 × ■: the three marks the tasks use", "legend.task": "red frame: the current task", "legend.flap": "▲ / ▼: a flap (switch) up or folded down",
      rules: [
        "Each task shows a small pattern of 〇 × ■. Make it appear in your 4×4 window.",
        "Flip the 8 flaps (switches) and turn the sheet to change which cells show in the window; write 〇, × or ■ on visible blank cells.",
        "A task is cleared when its pattern shows in the window; or pass it (passes score at the end).",
        "After 12 tasks the score counts your largest group of each mark, your blanks and your passes.",
      ],
    },
    ja: {
      "value:course:dice": "サイコロ（ランダムなコース）", "value:course:1": "コース1", "value:course:2": "コース2", "value:course:3": "コース3", "value:scores:standard": "標準", "value:scores:steep": "急な配点",
      seat: "シート{n}", window: "あなたの窓", flaps: "フラップ（スイッチ）", rotate: "紙を回す", sheet: "印刷面",
      tasks: "お題", task: "お題 {n}／{total}", pass: "パス", clear: "クリア", write: "{cell}に{mark}を書く", switch: "スイッチ{s}をめくる",
      rotate_to: "{deg}°回す", groups: "最大のまとまり {mark}", blanks: "空白", passes: "パス", total: "合計",
      done: "クリアまたはパス済み — 他の人を待っています", others: "他のシート", choose_mark: "どの記号を書きますか？",
      "reason:the course of 12 tasks is finished": "12題のコースが終わりました",
      "cell.blank": "{cell}：空白", "cell.mark": "{cell}：{mark}", "cell.write": "{cell}：空白 — ここに記号を書く",
      hint: "ヒント（マーカー1つ）", hints_used: "使ったヒント：{n}", hint_text: "ヒント：{move}", no_hint: "ここからはクリアできません。パスしましょう。",
      "legend.pending": "黄色のマス：このお題のために書いた記号", "legend.blank": "名前のある白いマス：見えている空白（クリックで書く）",
      "legend.marks": "〇 × ■：お題に使う3つの記号", "legend.task": "赤い枠：今のお題", "legend.flap": "▲／▼：フラップ（スイッチ）の上げ下げ",
      rules: [
        "お題は〇×■の小さな形です。それを4×4の窓に出します。",
        "8つのフラップ（スイッチ）をめくり、紙を回して、窓に見えるマスを変えます。見えている空白に〇・×・■を書けます。",
        "お題の形が窓に出ればクリア。パスもできます（パスは最後に得点）。",
        "12題の後、各記号の最大のまとまり・空白・パスで得点します。",
      ],
    },
  },
  seatName(seat, ctx) {
    return ctx.t("seat", { n: seat + 1 });
  },
  moveLabel(move, ctx) {
    if (move === "pass") return ctx.t("pass");
    let m = move.match(/^write ([a-h][1-4])([OXB])$/);
    if (m) return ctx.t("write", { cell: m[1], mark: MARK_TEXT[m[2]] });
    m = move.match(/^switch (\w+)$/);
    if (m) return ctx.t("switch", { s: m[1] });
    m = move.match(/^rotate (\d+)$/);
    if (m) return ctx.t("rotate_to", { deg: m[1] });
    if (move.startsWith("clear")) return `${ctx.t("clear")}${move.slice(5).replace(/([OXB])\b/g, (x) => MARK_TEXT[x])}`;
    return move;
  },
  panelMoves(moves) {
    // the actions a person makes: pass, and a bare clear when the pattern already shows.
    // "clear <writes>" moves are complete solutions of the task; listing them solved it.
    return moves.filter((m) => m === "pass" || m === "clear" || !m.startsWith("clear "));
  },
  hint(view, ctx) {
    const sol = (view.legal_moves || []).find((m) => m.startsWith("clear "));
    return sol ? ctx.t("hint_text", { move: this.moveLabel(sol, ctx) }) : ctx.t("no_hint");
  },
  legend(ctx) {
    return [
      [swatch(svg("rect", { x: 4, y: 4, width: 32, height: 32, fill: "#fff1c9", stroke: "#8b7d63" }), mark("X", 20, 20, 12)), ctx.t("legend.pending")],
      [swatch(svg("rect", { x: 4, y: 4, width: 32, height: 32, fill: "#fffdf6", stroke: "#8b7d63" }), svg("text", { x: 7, y: 14, "font-size": 9, fill: "#777" }, "a1")), ctx.t("legend.blank")],
      [swatch(mark("O", 8, 20, 8), mark("X", 20, 20, 6), mark("B", 32, 20, 6)), ctx.t("legend.marks")],
      [swatch(svg("rect", { x: 3, y: 3, width: 34, height: 34, fill: "none", stroke: "#b5322a", "stroke-width": 3, rx: 4 })), ctx.t("legend.task")],
      [swatch(svg("text", { x: 20, y: 28, "text-anchor": "middle", "font-size": 20 }, "▲▼")), ctx.t("legend.flap")],
    ];
  },
  score(view, ctx) {
    const me = view.sheets.find((s) => s.seat === ctx.seat) || view.sheets[0];
    if (!me) return [];
    const sc = me.score;
    const rows = ["O", "X", "B"].map((k) => [ctx.t("groups", { mark: MARK_TEXT[k] }), `${sc.groups[k]} → ${sc.group_points[k]}`]);
    rows.push([ctx.t("blanks"), `${sc.blanks} → ${sc.blank_points}`], [ctx.t("passes"), `${sc.passes} → ${sc.pass_points}`], [ctx.t("total"), sc.total]);
    return rows;
  },
  render(view, ctx) {
    const wrap = el("div", { class: "patapata" });
    const legal = ctx.legal || new Set();
    const me = view.sheets.find((s) => s.seat === ctx.seat && s.window);
    const key = `${ctx.seat}|${me ? me.history.length + ":" + me.marks.join("") + me.rotation + JSON.stringify(me.switches) : ""}`;
    if (pickingFor !== key) {
      picking = null;
      pickingFor = key;
    }
    const course = view.course;
    const strip = el("div", { class: "tasks", "aria-label": ctx.t("tasks") });
    for (const task of course.tasks) {
      const current = task.number === course.number && !view.over;
      strip.append(el("figure", { class: current ? "task current" : "task" }, pattern(task.pattern, 14, "pattern"), el("figcaption", {}, `${task.number} ${task.row}`)));
    }
    wrap.append(el("h3", {}, ctx.t("task", { n: course.number, total: course.length })), strip);
    if (me) {
      const grid = el("div", { class: "pp-main" });
      const win = svg("svg", { viewBox: `0 0 ${CELL * 4} ${CELL * 4 + (picking ? 70 : 0)}`, class: "window", role: "group", "aria-label": ctx.t("window") });
      const pending = new Set(me.pending);
      me.window.forEach((row, r) => row.forEach((cell, c) => {
        const x = c * CELL;
        const y = r * CELL;
        const m = me.window_marks[r][c];
        win.append(svg("rect", { x, y, width: CELL, height: CELL, class: pending.has(cell) ? "wc pending" : "wc", "data-cell": cell, role: "img", "aria-label": m === "." ? ctx.t("cell.blank", { cell }) : ctx.t("cell.mark", { cell, mark: MARK_TEXT[m] }) }));
        win.append(svg("text", { x: x + 4, y: y + 13, class: "cellname", "aria-hidden": "true" }, cell));
        const drawn = mark(m === "." ? null : m, x + CELL / 2, y + CELL / 2, CELL / 3);
        if (drawn) win.append(drawn);
        const writes = ["O", "X", "B"].map((k) => `write ${cell}${k}`).filter((w) => legal.has(w));
        if (writes.length) {
          const g = svg("g", { class: picking === cell ? "selected" : "" }, svg("rect", { x, y, width: CELL, height: CELL, class: "hit" }));
          g.setAttribute("data-write", cell);
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", ctx.t("cell.write", { cell }));
          g.classList.add("target");
          const pick = () => {
            picking = picking === cell ? null : cell;
            wrap.replaceWith(this.render(view, ctx));
          };
          g.addEventListener("click", pick);
          g.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              pick();
            }
          });
          win.append(g);
        }
      }));
      if (picking) {
        ["O", "X", "B"].map((k) => `write ${picking}${k}`).filter((w) => legal.has(w)).forEach((w, k) => {
          const x = k * (CELL + 8);
          const y = CELL * 4 + 8;
          const g = svg("g", { class: "pad" }, svg("rect", { x, y, width: CELL, height: 56, rx: 8 }), mark(w.slice(-1), x + CELL / 2, y + 28, 18));
          win.append(moveTarget(g, w, ctx, this.moveLabel(w, ctx)));
        });
      }
      const winBox = el("div", { class: "pp-window" }, el("h4", {}, `${ctx.t("window")} (${me.rotation}°)`), win);
      if (me.finished_task && !view.over) winBox.append(el("p", { class: "hint" }, ctx.t("done")));
      const flaps = el("div", { class: "flaps", role: "group", "aria-label": ctx.t("flaps") });
      for (const [name, state] of Object.entries(me.switches)) {
        const mv = `switch ${name}`;
        const b = el("button", { type: "button", class: `flap s${state}${ctx.prev && ctx.prev.sheets && JSON.stringify(((ctx.prev.sheets.find((s) => s.seat === ctx.seat) || {}).switches || {})[name]) !== JSON.stringify(state) ? " flip" : ""}`, disabled: !legal.has(mv), "aria-label": this.moveLabel(mv, ctx) }, `${name} ${state ? "▼" : "▲"}`);
        if (legal.has(mv)) b.setAttribute("data-move", mv);
        b.addEventListener("click", () => ctx.play(mv));
        flaps.append(b);
      }
      const rot = el("div", { class: "rotate row", role: "group", "aria-label": ctx.t("rotate") });
      for (const deg of [90, 180, 270]) {
        const mv = `rotate ${deg}`;
        const b = el("button", { type: "button", disabled: !legal.has(mv), "data-move": legal.has(mv) ? mv : null }, `↻ ${deg}°`);
        b.addEventListener("click", () => ctx.play(mv));
        rot.append(b);
      }
      const sheet = el("div", { class: "pp-sheet" }, el("h4", {}, ctx.t("sheet")), pattern(me.marks, 22, "printed"));
      grid.append(winBox, el("div", { class: "pp-controls" }, el("h4", {}, ctx.t("flaps")), flaps, el("h4", {}, ctx.t("rotate")), rot, sheet));
      wrap.append(grid);
    }
    const others = view.sheets.filter((s) => s !== me);
    if (others.length) {
      wrap.append(el("h4", {}, ctx.t("others")));
      wrap.append(el("div", { class: "others" }, ...others.map((s) => el("figure", { class: "other", "data-sheet": s.seat }, pattern(s.marks, 12, "printed"), el("figcaption", {}, `${this.seatName(s.seat, ctx)} — ${ctx.t("total")} ${s.score.total}`)))));
    }
    return wrap;
  },
};
