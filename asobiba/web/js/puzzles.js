// The puzzle trainer (docs/puzzles.md): pick a set, play the solution's moves (each checked
// by the server, which sends the solution only once the attempt has ended), see the rating
// change; the daily puzzle and streaks; tsume-algo answered in the same place. Every move is
// also a button and can be typed (keyboard use).
import { applyStatic, lang, mountSwitch, onLangChange, t } from "./i18n.js";
import { el, httpError, loadAllWords, loadRenderer } from "./util.js";

let index = null; // GET /api/puzzles
let attempt = null; // the open attempt (POST /api/puzzles/start)
let view = null; // the position on screen
let renderer = null;
let status = null; // {key, params}
let ended = null; // the answer that ended the attempt
let run = null; // the streak run
let busy = false;

async function call(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw httpError(data && data.error ? data : { error: { code: "other", args: {} } }, res.status);
  return data;
}

function showError(err) {
  const key = `pz.err.${err.code}`;
  // the page's own words for its codes, else the code's (err:<code>), else the server's text
  const text = t(key, { ...err.args }) !== key ? t(key, { ...err.args }) : t("pz.err.other", { msg: err.message });
  document.getElementById("error").textContent = text;
  if (err.code === "not_signed_in") document.getElementById("sign-in").hidden = false;
}

function setLabel(name) {
  const key = `pz.set:${name}`;
  return t(key) !== key ? t(key) : name;
}

function tt(key, params) {
  return t(key, params, renderer && renderer.game);
}

async function refresh() {
  index = await call("/api/puzzles");
  await loadAllWords(index.sets.map((s) => s.game)); // the sets' names are their games' words
  const select = document.getElementById("set");
  const current = select.value;
  select.replaceChildren(...index.sets.map((s) => el("option", { value: s.set }, setLabel(s.set))));
  if (current) select.value = current;
  document.getElementById("sign-in").hidden = Boolean(index.me);
  drawRating();
}

function drawRating() {
  const p = document.getElementById("my-rating");
  if (!index || !index.me) { p.textContent = ""; return; }
  const name = document.getElementById("set").value;
  const row = index.me.ratings.find((r) => r.set === name);
  p.textContent = row && row.rating !== null ? t("pz.my_rating", { rating: Math.round(row.rating) }) : t("pz.no_rating");
}

async function start(mode) {
  if (busy) return;
  busy = true;
  document.getElementById("error").textContent = "";
  try {
    const body = { mode };
    if (mode !== "daily") body.set = document.getElementById("set").value;
    if (mode === "streak" && run !== null && ended && !ended.streak?.over) body.run = run;
    attempt = await call("/api/puzzles/start", body);
    run = attempt.run;
    ended = null;
    status = null;
    const pz = attempt.puzzle;
    if (pz.tsume) {
      renderer = null;
      view = null;
    } else {
      renderer = await loadRenderer(pz.game);
      view = pz.view;
      // a game may word the question its own way (Patapata: the best way to finish the task)
      const own = `pz.your_move:${pz.game}`;
      status = { key: t(own) !== own ? own : "pz.your_move", params: {} };
    }
    if (attempt.closed && attempt.closed.some((c) => c.rated)) document.getElementById("error").textContent = t("pz.abandoned");
    document.body.dataset.attempt = String(attempt.attempt);
    document.body.dataset.puzzle = pz.id;
  } catch (err) {
    showError(err);
  } finally {
    busy = false;
  }
  draw();
}

async function play(move) {
  if (busy || !attempt || ended) return;
  busy = true;
  document.body.dataset.busy = "true";
  try {
    const res = await call(`/api/puzzles/attempts/${attempt.attempt}/move`, { move });
    if (res.view) view = res.view;
    if (res.done) {
      ended = res;
      status = { key: res.solved ? "pz.solved" : "pz.failed", params: { line: (res.line || []).join(" ") } };
      await refresh();
    } else if (res.more) {
      // a step on the way (Patapata's writes, flaps and turns): the task is not finished yet
      status = { key: "pz.step", params: {} };
    } else {
      status = { key: "pz.right", params: { replies: res.replies.join(" ") } };
    }
    document.getElementById("error").textContent = "";
  } catch (err) {
    showError(err);
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
  draw();
}

async function answer(form) {
  if (busy || !attempt || ended) return;
  busy = true;
  try {
    const answers = [...form.querySelectorAll("input")].map((i) => i.value.trim() || "?");
    const res = await call(`/api/puzzles/attempts/${attempt.attempt}/answer`, { answers });
    ended = res;
    status = { key: res.solved ? "pz.solved" : "pz.failed", params: { line: res.answers.join(", ") } };
    await refresh();
  } catch (err) {
    showError(err);
  } finally {
    busy = false;
  }
  draw();
}

function drawTsume(pz) {
  const box = document.getElementById("tsume");
  box.hidden = !pz;
  if (!pz) { box.replaceChildren(); return; }
  const rows = pz.rows.map((row, r) => el("p", { class: "tsume-row" }, `${"ABCD"[r] || r + 1}: `,
    ...row.map((c) => el("span", { class: `tsume-card ${c.colour === "B" ? "black" : "white"}` }, c.number === undefined ? "?" : String(c.number)))));
  const form = el("form", { id: "answer-form", class: "tsume-answers" },
    ...pz.questions.map((q, i) => el("label", {}, `${i + 1}. ${q.text || JSON.stringify(q)} `,
      el("input", { autocomplete: "off", "aria-label": t("pz.answer_for", { n: i + 1 }), maxlength: "8" }))),
    el("button", { type: "submit", class: "primary" }, t("pz.submit")));
  form.addEventListener("submit", (e) => { e.preventDefault(); answer(form); });
  box.replaceChildren(el("h2", {}, t("pz.answers")), ...rows, form);
}

function draw() {
  document.body.dataset.lang = lang();
  document.getElementById("page-title").textContent = t("pz.title");
  document.title = `${t("pz.title")} — ${t("app.name")}`;
  const pz = attempt ? attempt.puzzle : null;
  const board = document.getElementById("board");
  const playable = Boolean(view && !ended && attempt && !pz.tsume);
  if (view && renderer) {
    const ctx = {
      lang: lang(), t: tt, room: null, seat: pz.seat, view, prev: null,
      legal: new Set(playable ? view.legal_moves || [] : []), play,
      width: board.clientWidth || 640,
    };
    board.replaceChildren(renderer.render(view, ctx));
    const label = (m) => (renderer.moveLabel ? renderer.moveLabel(m, ctx) : m);
    // the renderer's own list when it has one (Patapata hides whole clears: listing them
    // would list the answers)
    const all = playable ? view.legal_moves || [] : [];
    const moves = renderer.panelMoves ? renderer.panelMoves(all) : all;
    document.getElementById("legal").replaceChildren(...moves.slice(0, 120).map((m) => el("button", { type: "button", class: "move", "data-move": m, onclick: () => play(m) }, label(m))));
  } else {
    board.replaceChildren();
  }
  drawTsume(pz && pz.tsume && !ended ? pz.tsume : null);
  document.getElementById("moves-panel").hidden = !playable;
  const msg = document.getElementById("message");
  let text = status ? t(status.key, status.params) : "";
  if (playable && pz.player_moves) text = `${text} ${t("pz.moves_left", { n: pz.player_moves })}`;
  msg.textContent = text;
  const change = document.getElementById("rating-change");
  if (ended && ended.rating) change.textContent = t("pz.rating_change", { before: Math.round(ended.rating.before), after: Math.round(ended.rating.after) });
  else if (ended && !ended.rated) change.textContent = t("pz.unrated");
  else change.textContent = "";
  const streak = document.getElementById("streak-count");
  const s = ended && ended.streak;
  if (s) streak.textContent = s.over ? t("pz.streak_over", { n: s.solved, best: s.best }) : t("pz.streak_count", { n: s.solved });
  else if (attempt && attempt.mode === "streak") streak.textContent = t("pz.streak_count", { n: attempt.streak || 0 });
  else streak.textContent = "";
  document.getElementById("solution").textContent = ended && ended.line ? t("pz.line", { line: ended.line.join(" ") }) : "";
  document.getElementById("themes").textContent = ended && ended.themes ? t("pz.themes", { themes: ended.themes.join(", ") }) : "";
  document.getElementById("next").hidden = !ended;
  drawRating();
  // for tests and assistive styling: the state of the attempt, set once everything is drawn
  document.body.dataset.result = ended ? (ended.solved ? "solved" : "failed") : status && status.key === "pz.right" ? "right" : status && status.key === "pz.step" ? "step" : "";
}

function wire() {
  document.getElementById("rated").addEventListener("click", () => start("rated"));
  document.getElementById("daily").addEventListener("click", () => start("daily"));
  document.getElementById("streak").addEventListener("click", () => { run = null; start("streak"); });
  document.getElementById("next").addEventListener("click", () => start(attempt ? attempt.mode : "rated"));
  document.getElementById("set").addEventListener("change", drawRating);
  document.getElementById("guest").addEventListener("click", async () => {
    try {
      await call("/api/account/guest", {});
      await refresh();
      document.getElementById("error").textContent = "";
    } catch (err) {
      showError(err);
    }
  });
  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("move-input");
    if (input.value.trim()) play(input.value.trim());
    input.value = "";
  });
}

async function main() {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  wire();
  try {
    await refresh();
  } catch (err) {
    showError(err);
    document.body.dataset.ready = "error";
    return;
  }
  onLangChange(() => {
    const select = document.getElementById("set");
    for (const o of select.options) o.textContent = setLabel(o.value);
    draw();
  });
  draw();
  document.body.dataset.ready = "true";
}

main();
