// The replay viewer: a finished game's record (from the server or a file) turned by the
// server into every seat's view after every move; step, jump, and change perspective.
import { applyStatic, lang, mountSwitch, onLangChange, t } from "./i18n.js";
import { el, errorMessage, loadRenderer } from "./util.js";
import { lineChart } from "./charts.js";
import { drawMoveList, isPaired } from "./movelist.js";
import { replayChat } from "./chat.js";

let data = null;
let renderer = null;
let index = 0;
let perspective = 0; // 0 = spectator, 1 + seat otherwise
let recordText = "";
let review = null; // the post-game review: quality per ply, turning points
let simultaneous = false; // the game's seats move at once (no score sheet of two sides)

function tt(key, params) {
  return t(key, params, renderer && renderer.game);
}

function seatName(seat) {
  const ctx = { t: tt, lang: lang() };
  return renderer && renderer.seatName ? renderer.seatName(seat, ctx) : tt("room.seat_name", { n: seat + 1 });
}

/** POST or GET ``path``; the answer as {ok, status, body}: a network failure or a body that is
 * not JSON (a proxy's error page) is an answer too, never an exception. */
async function ask(path, options) {
  let res;
  try {
    res = await fetch(path, options);
  } catch {
    return { ok: false, status: 0, body: null };
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { ok: res.ok, status: res.status, body };
}

/** What went wrong, blamed where it belongs: only a record the server refused as a record
 * (400 ``bad_record``) is "cannot be replayed"; a 5xx (a failure, a busy server
 * out of its time budget) or an unreachable server says so and asks to try again; other
 * refusals (too large, too many requests) are shown as the server words them. */
function failure(answer) {
  if (answer.status === 0) return t("error.unreachable");
  const code = answer.body && answer.body.error && typeof answer.body.error === "object" ? answer.body.error.code : "";
  const msg = errorMessage(answer.body, answer.status);
  if (answer.status >= 500) return msg;
  return code === "bad_record" || answer.status === 400 ? t("replay.error", { msg }) : msg;
}

/** One page of steps from ``start`` (the server answers at most ~512 KiB at a time and says
 * where the next page starts); the steps are kept by index in ``steps``. */
async function askPage(text, start) {
  const answer = await ask(start ? `/api/replay?start=${start}` : "/api/replay", { method: "POST", headers: { "content-type": "application/json" }, body: text });
  if (answer.ok && answer.body && Array.isArray(answer.body.steps)) {
    const steps = data && text === recordText ? data.steps : new Array(answer.body.plies + 1);
    answer.body.steps.forEach((step, i) => {
      steps[answer.body.start + i] = step;
    });
    answer.body.steps = steps;
    pageLength = Math.max(1, answer.body.end - answer.body.start);
  }
  return answer;
}

let pageLength = 1; // steps in the last page the server sent
let asking = null; // the step whose page is on its way
let drawnAt = 0; // the step last drawn: asking for one before it, the page ends at it

/** Show step ``i``, asking for its page first when this page does not hold it yet (going
 * back, a page that ends at ``i``). */
async function need(i) {
  if (data.steps[i] || asking !== null) return;
  asking = i;
  const start = i < drawnAt ? Math.max(0, i - pageLength + 1) : i;
  const answer = await askPage(recordText, start);
  asking = null;
  if (!answer.ok) {
    document.getElementById("status").textContent = failure(answer);
    return;
  }
  draw();
}

async function load(text) {
  document.getElementById("status").textContent = t("replay.loading");
  const answer = await askPage(text, 0);
  const body = answer.body;
  if (!answer.ok || !body) {
    document.getElementById("status").textContent = failure(answer);
    document.body.dataset.status = answer.status >= 500 || answer.status === 0 ? "server-error" : "error";
    return;
  }
  recordText = text;
  data = body;
  renderer = await loadRenderer(data.record.game);
  const games = await ask("/api/games");
  const info = games.ok && games.body ? (games.body.games || []).find((g) => g.id === data.record.game) : null;
  simultaneous = !!(info && info.simultaneous);
  index = data.steps.length - 1;
  if (!data.steps[index]) {
    drawnAt = Infinity; // the last step: its page ends there
    await need(index);
    if (!data.steps[index]) index = body.end - 1; // the last page did not come: the first one
  }
  const slider = document.getElementById("slider");
  slider.max = String(data.steps.length - 1);
  document.body.dataset.status = "loaded";
  const blob = new Blob([text], { type: "application/json" });
  const link = document.getElementById("download");
  link.href = URL.createObjectURL(blob);
  link.download = `asobiba-${data.record.game}.json`;
  link.hidden = false;
  review = null;
  document.getElementById("review-btn").hidden = false;
  document.getElementById("review-status").textContent = "";
  draw();
}

function drawPerspective() {
  const sel = document.getElementById("perspective");
  const n = data.steps.find(Boolean).views.length - 1;
  const opts = [el("option", { value: 0 }, t("replay.spectator"))];
  for (let s = 0; s < n; s++) opts.push(el("option", { value: s + 1 }, seatName(s)));
  sel.replaceChildren(...opts);
  sel.value = String(perspective);
}

function draw() {
  if (!data) return;
  const step = data.steps[index];
  if (!step) {
    document.getElementById("status").textContent = t("replay.loading");
    void need(index);
    return;
  }
  drawnAt = index;
  const view = step.views[perspective];
  const ctx = { lang: lang(), t: tt, seat: perspective ? perspective - 1 : null, view, legal: new Set(), play: () => {}, replay: true };
  document.getElementById("board").replaceChildren(renderer.render(view, ctx));
  document.getElementById("slider").value = String(index);
  document.body.dataset.step = String(index);
  // the analysis board from this move (of the stored game, or of this record's line)
  const analyse = document.getElementById("analyse");
  const params = new URLSearchParams(location.search);
  const from = params.get("room") ? `room=${encodeURIComponent(params.get("room"))}` : params.get("record") ? `record=${encodeURIComponent(params.get("record"))}`
    : `moves=${encodeURIComponent(JSON.stringify(data.record.moves.map((m) => m.move)))}&options=${encodeURIComponent(JSON.stringify(data.record.options || {}))}&seed=${data.record.seed || 0}`;
  analyse.href = `/analysis/${encodeURIComponent(data.record.game)}?${from}&ply=${index}` + (perspective ? `&seat=${perspective - 1}` : "");
  analyse.hidden = false;
  const total = data.steps.length;
  document.getElementById("status").textContent = `${t("replay.step", { i: index, n: total - 1 })}` + (step.move ? ` — ${seatName(step.move.seat)}: ${renderer.moveLabel ? renderer.moveLabel(step.move.move, { t: tt, lang: lang() }) : step.move.move}` : ` — ${t("replay.start")}`);
  drawPerspective();
  // the score sheet (two seats taking turns) or the compact list, as on the game page
  const seatCount = step.views.length - 1;
  const paired = isPaired(seatCount, simultaneous);
  const entries = data.record.moves.map((m, i) => {
    const label = renderer.moveLabel ? renderer.moveLabel(m.move, { t: tt, lang: lang() }) : m.move;
    const mark = review && review.moves[i];
    const turning = review && review.turning_points.includes(i + 1);
    const extra = [
      mark ? el("span", { class: `badge ${mark.quality}`, "data-quality": mark.quality, title: mark.quality !== "best" && mark.best_move ? t("feedback.best_was", { move: mark.best_move }) : "" }, t(`feedback.${mark.quality}`)) : null,
      turning ? el("strong", { class: "turning-label" }, ` ${t("review.turning")}`) : null,
    ];
    return { seat: m.seat, text: paired ? label : `${seatName(m.seat)}: ${label}`, said: paired ? `${seatName(m.seat)}: ` : null, extra, cls: turning ? "turning" : null, attrs: turning ? { "data-turning": "true" } : {} };
  });
  drawMoveList(document.getElementById("movelog"), { entries, seatCount, paired, current: index, startLabel: t("replay.start"), onStep: go });
  drawWinChart();
  const r = data.record.result || (data.record.extra && data.record.extra.result);
  const box = document.getElementById("result");
  box.hidden = !r;
  if (r && r.aborted) {
    // nobody won and nothing was rated: no "winner" line and no 0–0 table
    box.replaceChildren(el("h2", {}, t("room.result")), el("p", { "data-aborted": "true" }, t("room.aborted_head")), el("p", { class: "reason" }, t("room.aborted")));
  } else if (r) {
    box.replaceChildren(
      el("h2", {}, t("room.result")),
      el("p", r.scores.length === 1 ? { "data-solo": "true" } : {}, r.scores.length === 1
        ? (renderer.soloResult ? renderer.soloResult(r, data.steps[data.steps.length - 1].views[0], { t: tt, lang: lang() }) : t("room.solo_done", { score: r.scores[0] }))
        : r.draw ? t("room.draw") : t("room.winner", { names: r.winners.map(seatName).join(", ") })),
      el("dl", { class: "score" }, ...r.scores.flatMap((sc, i) => [el("dt", {}, seatName(i)), el("dd", {}, String(sc))])),
    );
  }
}

/** The first seat's winning chance after every judged move (the mover's chance turned to
 * seat 1's side); a click on a point goes to that move. Two-seat games only. */
function drawWinChart() {
  const box = document.getElementById("win-chart");
  if (!box) return;
  const seats = (data.record.seats || []).length;
  if (!review || seats !== 2 || !review.moves.length) {
    box.replaceChildren();
    return;
  }
  // a move without a chance (a forced move: nothing was searched) is a gap, not 0 % or 100 %
  const chance = (m) => (m.chance_after === null || m.chance_after === undefined ? null : Math.round(100 * (m.seat === 0 ? m.chance_after : 1 - m.chance_after)));
  const points = [[0, 50]].concat(review.moves.map((m) => [m.ply, chance(m)]));
  const name = seatName(0);
  const said = (p) => (p[1] === null ? t("review.no_value", { n: p[0] }) : `${p[0]}: ${p[1]}%`);
  box.replaceChildren(el("h3", {}, t("review.chart")), lineChart({ series: [{ name, points }], y: [0, 100], mid: 50, format: (v) => `${Math.round(v)}%`, onPick: (x) => go(x), label: t("review.chart_label", { name, list: points.map(said).join(", ") }) }));
}

/** The turning points named by their moves ("move 23 (Black: d3)"), not counted. */
function turningText() {
  const plies = review.turning_points;
  if (!plies.length) return t("review.no_turning");
  const named = plies.map((ply) => {
    const m = data.record.moves[ply - 1];
    const label = m ? (renderer.moveLabel ? renderer.moveLabel(m.move, { t: tt, lang: lang() }) : m.move) : "";
    return t("review.move_n", { n: ply, who: m ? seatName(m.seat) : "", move: label });
  });
  return t(plies.length === 1 ? "review.turning_at" : "review.turning_at_many", { list: named.join(", ") });
}

async function runReview() {
  const box = document.getElementById("review-status");
  box.textContent = t("review.busy");
  const answer = await ask("/api/review", { method: "POST", headers: { "content-type": "application/json" }, body: recordText });
  if (!answer.ok || !answer.body) {
    // a server failure (or its time budget running out) is not the record's fault
    box.textContent = failure(answer);
    document.body.dataset.review = answer.status >= 500 || answer.status === 0 ? "server-error" : "error";
    return;
  }
  review = answer.body.review;
  // each move is judged by what its player knew when making it (hidden cards, colours
  // and dice to come included), not by the finished record
  box.textContent = review ? `${turningText()} — ${t("review.fair")}` : t("review.none");
  document.body.dataset.review = review ? "done" : "none";
  draw();
}

function go(i) {
  if (!data) return;
  index = Math.max(0, Math.min(data.steps.length - 1, i));
  draw();
}

async function main() {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  onLangChange(draw);
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(index - 1));
  document.getElementById("forward").addEventListener("click", () => go(index + 1));
  document.getElementById("last").addEventListener("click", () => go(Infinity));
  document.getElementById("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.getElementById("perspective").addEventListener("change", (e) => {
    perspective = Number(e.target.value);
    draw();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.target.closest && e.target.closest("#movelog")) return; // the list steps itself
    if (e.key === "ArrowLeft") go(index - 1);
    else if (e.key === "ArrowRight") go(index + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Infinity);
  });
  document.getElementById("review-btn").addEventListener("click", runReview);
  document.getElementById("file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await load(await file.text());
  });
  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  // ?record=N: a stored game of a player's history (the player page links here)
  const stored = params.get("record");
  if (room || stored) {
    let res = null;
    try {
      res = await fetch(room ? `/api/rooms/${encodeURIComponent(room)}/record` : `/api/records/${encodeURIComponent(stored)}`);
    } catch {
      res = null;
    }
    if (res && res.ok) {
      await load(await res.text());
      if (room) await replayChat(document.getElementById("replay-chat"), room);
    } else {
      // no record to blame yet: a missing room or a failing server, worded as such
      const body = res ? await res.json().catch(() => null) : null;
      document.getElementById("status").textContent = res ? errorMessage(body, res.status) : t("error.unreachable");
      document.body.dataset.status = !res || res.status >= 500 ? "server-error" : "error";
    }
  }
  void recordText;
}

main();
