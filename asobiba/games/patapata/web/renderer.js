// Patapata Kamipen: your 4×4 window (what the folded sheet shows, turned by its rotation),
// the 8 flaps ("switches") you click to flip, the rotation buttons, writing marks 〇 × ■ on
// visible blanks, the whole printed 4×8 sheet, the task strip and the score breakdown.
// Other players' sheets show only what the view gives (their marks at the last task).
// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---
/**
 * @typedef {Object} PatapataView
 * @property {string} game
 * @property {(number|null)} seat
 * @property {number} seats
 * @property {(number|null)} to_move
 * @property {Array<number>} acting
 * @property {boolean} over
 * @property {(OutcomeView|null)} outcome
 * @property {Array<string>} legal_moves
 * @property {CourseView} course
 * @property {(Array<string>|null)} task
 * @property {string} scores
 * @property {Array<(SheetView|PublicSheetView)>} sheets
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
 * @typedef {Object} CourseView
 * @property {("dice"|"1"|"2"|"3")} mode
 * @property {number} length
 * @property {number} number
 * @property {Array<TaskView>} tasks
 */
/**
 * @typedef {Object} SheetView
 * @property {number} seat
 * @property {Array<string>} marks
 * @property {number} passes
 * @property {boolean} finished_task
 * @property {Array<string>} history
 * @property {ScoreView} score
 * @property {number} rotation
 * @property {Object<string, number>} switches
 * @property {Array<Array<string>>} window
 * @property {Array<string>} window_marks
 * @property {Array<string>} pending
 * @property {(Array<StepView>|null)} plan
 */
/**
 * @typedef {Object} PublicSheetView
 * @property {number} seat
 * @property {Array<string>} marks
 * @property {number} passes
 * @property {boolean} finished_task
 * @property {Array<string>} history
 * @property {ScoreView} score
 */
/**
 * @typedef {Object} TaskView
 * @property {number} number
 * @property {string} row
 * @property {Array<string>} pattern
 */
/**
 * @typedef {Object} ScoreView
 * @property {MarkCounts} groups
 * @property {MarkCounts} group_points
 * @property {number} blanks
 * @property {number} blank_points
 * @property {number} passes
 * @property {number} pass_points
 * @property {number} total
 */
/**
 * @typedef {Object} StepView
 * @property {("rotate"|"switch"|"write"|"clear"|"pass")} code
 * @property {Object<string, (string|number)>} args
 * @property {string} move
 */
/**
 * @typedef {Object} MarkCounts
 * @property {number} O
 * @property {number} X
 * @property {number} B
 */
// --- end of the generated view shape ---
import { el, moveTarget, svg, swatch } from "../js/util.js";
import { cellHit, cursorAt, picker } from "../js/board.js";

const CELL = 64;
const MARK_TEXT = { O: "〇", X: "×", B: "■" };
const pick = picker(); // the window cell a mark is being written on

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
  // the analysis board's panel of one seat's knowledge (js/analysis.js): the server's
  // seat_analysis ({ways}) as the best ways to play, each a button that plays it
  knowledge(a, ctx) {
    const { t } = ctx;
    const items = a.ways.map((w) => {
      const b = el("button", { type: "button", class: "pv-move" }, ctx.label(w.move));
      b.addEventListener("click", () => ctx.play(w.move));
      return el("li", {}, b, ` ${t("analysis.pp_way", { now: w.score_now, ahead: w.lookahead, est: w.estimate === null ? "–" : w.estimate })}`);
    });
    return [el("p", {}, t("analysis.pp_caption")), items.length ? el("ol", {}, ...items) : el("p", {}, t("analysis.nothing"))];
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
  stepLabel(step, ctx) {
    // a hint step: a code with arguments from the seat's own view (plan.py)
    const args = { ...step.args };
    if (args.mark) args.mark = MARK_TEXT[args.mark] || args.mark;
    return ctx.t(`step.${step.code}`, args);
  },
  hint(view, ctx) {
    // the steps that clear the task from where the sheet stands — turn, flaps, writes — so
    // a cell outside the window comes with the flap that shows it. "Press Clear" alone
    // tells nothing the window does not show already: that hint is free.
    const me = view.sheets.find((s) => s.seat === ctx.seat && s.window);
    const plan = me && me.plan;
    if (!plan) return { text: ctx.t("no_hint", { n: view.course.number }), free: false };
    if (plan.length === 1 && plan[0].code === "clear") return { text: ctx.t("hint_shows"), free: true, moves: ["clear"] };
    return { text: ctx.t("hint_steps", { steps: plan.map((st) => this.stepLabel(st, ctx)).join(" → ") }), free: false, moves: plan.map((st) => st.move) };
  },
  historyText(view, prev, ctx) {
    // what a move did, from the views before and after it (moves of a game with hidden
    // information reach the page without their text): on your own sheet, the turn, flap,
    // mark or clear; on another sheet, only what its public part shows
    const seat = ctx.mover;
    const now = view && view.sheets && view.sheets.find((s) => s.seat === seat);
    const was = prev && prev.sheets && prev.sheets.find((s) => s.seat === seat);
    if (!now || !was) return null;
    const who = this.seatName(seat, ctx);
    const added = now.history.slice(was.history.length);
    if (!now.window || !was.window) {
      if (added.length || (now.finished_task && !was.finished_task)) return ctx.t("log.done", { who });
      return ctx.t("log.private", { who });
    }
    const writes = [];
    now.marks.forEach((row, r) => [...row].forEach((m, c) => {
      if (m !== "." && was.marks[r][c] === ".") writes.push(`${"abcdefgh"[c]}${r + 1}${m}`);
    }));
    const parts = [];
    if (added.includes("pass")) parts.push(this.moveLabel("pass", ctx));
    else if (writes.length === 1 && !added.some((h) => h === "clear")) parts.push(this.moveLabel(`write ${writes[0]}`, ctx));
    else if (added.length) parts.push(this.moveLabel(added[added.length - 1], ctx));
    if (!added.length) {
      if (now.rotation !== was.rotation) parts.push(this.moveLabel(`rotate ${(now.rotation - was.rotation + 360) % 360}`, ctx));
      for (const [name, side] of Object.entries(now.switches)) if (was.switches[name] !== side) parts.push(this.moveLabel(`switch ${name}`, ctx));
    } else if (parts.length && !added.includes("pass") && writes.length === 1) parts.push(ctx.t("log.cleared"));
    return parts.length ? `${who}: ${parts.join(" — ")}` : null;
  },
  soloResult(result, view, ctx) {
    // one sheet: no one to beat — the course is complete, with its score
    const me = view && view.sheets && view.sheets[0];
    const total = me ? me.score.total : result.scores[0];
    return ctx.t("solo_done", { total, n: view ? view.course.length : 12 });
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
    pick.reset(`${ctx.seat}|${me ? me.history.length + ":" + me.marks.join("") + me.rotation + JSON.stringify(me.switches) : ""}`);
    const picking = pick.value;
    const course = view.course;
    const strip = el("div", { class: "tasks", "aria-label": ctx.t("tasks") });
    for (const task of course.tasks) {
      const current = task.number === course.number && !view.over;
      strip.append(el("figure", { class: current ? "task current" : "task" }, pattern(task.pattern, 14, "pattern"), el("figcaption", {}, `${task.number} ${task.row}`)));
    }
    wrap.append(el("h2", {}, ctx.t("task", { n: course.number, total: course.length })), strip);
    if (me) {
      const grid = el("div", { class: "pp-main" });
      const win = svg("svg", { viewBox: `0 0 ${CELL * 4} ${CELL * 4 + (picking ? 70 : 0)}`, class: "window", role: "group", "aria-label": ctx.t("window") });
      const pending = new Set(me.pending);
      me.window.forEach((row, r) => row.forEach((cell, c) => {
        const x = c * CELL;
        const y = r * CELL;
        const m = me.window_marks[r][c];
        const rect = svg("rect", { x, y, width: CELL, height: CELL, class: pending.has(cell) ? "wc pending" : "wc", "data-cell": cell, role: "img", "aria-label": m === "." ? ctx.t("cell.blank", { cell }) : ctx.t("cell.mark", { cell, mark: MARK_TEXT[m] }) });
        win.append(rect);
        win.append(svg("text", { x: x + 4, y: y + 13, class: "cellname", "aria-hidden": "true" }, cell));
        const drawn = mark(m === "." ? null : m, x + CELL / 2, y + CELL / 2, CELL / 3);
        if (drawn) win.append(drawn);
        // eslint-disable-next-line asobiba/ui-strings -- a move's notation (sent to the server), not text
        const writes = ["O", "X", "B"].map((k) => `write ${cell}${k}`).filter((w) => legal.has(w));
        // the keyboard cursor's stop on this cell: where a mark may be written, the pick
        if (writes.length) {
          win.append(cursorAt(pick.target(cellHit(x, y, CELL), "data-write", cell, ctx.t("cell.write", { cell }), wrap, () => this.render(view, ctx)), x + CELL / 2, y + CELL / 2));
        } else cursorAt(rect, x + CELL / 2, y + CELL / 2);
      }));
      if (picking) {
        // eslint-disable-next-line asobiba/ui-strings -- a move's notation (sent to the server), not text
        ["O", "X", "B"].map((k) => `write ${picking}${k}`).filter((w) => legal.has(w)).forEach((w, k) => {
          const x = k * (CELL + 8);
          const y = CELL * 4 + 8;
          const g = svg("g", { class: "pad" }, svg("rect", { x, y, width: CELL, height: 56, rx: 8 }), mark(w.slice(-1), x + CELL / 2, y + 28, 18));
          win.append(moveTarget(g, w, ctx, this.moveLabel(w, ctx)));
        });
      }
      const winBox = el("div", { class: "pp-window" }, el("h3", {}, `${ctx.t("window")} (${me.rotation}°)`), win);
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
      const sheet = el("div", { class: "pp-sheet" }, el("h3", {}, ctx.t("sheet")), pattern(me.marks, 22, "printed"));
      grid.append(winBox, el("div", { class: "pp-controls" }, el("h3", {}, ctx.t("flaps")), flaps, el("h3", {}, ctx.t("rotate")), rot, sheet));
      wrap.append(grid);
    }
    const others = view.sheets.filter((s) => s !== me);
    if (others.length) {
      wrap.append(el("h3", {}, ctx.t("others")));
      wrap.append(el("div", { class: "others" }, ...others.map((s) => el("figure", { class: "other", "data-sheet": s.seat }, pattern(s.marks, 12, "printed"), el("figcaption", {}, `${this.seatName(s.seat, ctx)} — ${ctx.t("total")} ${s.score.total}`)))));
    }
    return wrap;
  },
};
