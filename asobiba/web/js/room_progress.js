// The progression side of the game page: a signed-in player claims the seats this browser
// holds (so the finished game is recorded and rated), the rating changes and ladder events
// after the game, a move-quality badge after each of the player's moves in casual games,
// and an exam game that is left before its end fails the exam (seed §9).
import { pick, t } from "./i18n.js";
import { api, el, loadKeys, saveKeys } from "./util.js";
import { feedbackAllowed } from "./settings.js";

const state = {
  room: null, game: null, player: null, context: null, shown: false,
  asked: new Set(), inflight: false, noFeedback: false, feedback: null, last: null, seatName: null, polling: false,
};

function post(path, body) {
  return api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

function panel() {
  let box = document.getElementById("progress-panel");
  if (!box) {
    box = el("section", { id: "progress-panel", "aria-live": "polite", hidden: true });
    document.getElementById("result").after(box);
  }
  return box;
}

function badge() {
  let box = document.getElementById("feedback");
  if (!box) {
    box = el("p", { id: "feedback", class: "feedback", role: "status", "aria-live": "polite", "aria-label": t("feedback.label") });
    document.getElementById("status").after(box);
  }
  return box;
}

async function start(room, game, keys) {
  state.room = room;
  state.game = game;
  try {
    state.player = (await api("/api/account")).player;
    if (state.player && keys.length) await post(`/api/rooms/${encodeURIComponent(room)}/claim`, { seats: keys });
    state.context = (await api(`/api/rooms/${encodeURIComponent(room)}/progress`)).context;
  } catch {
    // progression is an extra: the game plays on without it
  }
  document.body.dataset.progress = "ready";
  if (state.context && state.context.kind === "exam") examGuard();
  if (state.last) update(state.last, state.seatName);
}

// An exam game (seed: 「途中で他の画面に移動すると不合格になります」): a banner says it is the exam and
// that leaving fails it; while the game runs the browser asks before the page is left. A
// reload is not leaving: the page comes back to the same game and the exam goes on; only a
// page gone for the server's grace (a minute) fails the exam, said on the ladder page
// (docs/progression.md, "Exams and reloads").
function examGuard() {
  let banner = document.getElementById("exam-banner");
  if (!banner) {
    banner = el("p", { id: "exam-banner", class: "exam-banner", role: "note" });
    document.getElementById("status").before(banner);
  }
  banner.replaceChildren(el("strong", {}, t("room.exam_banner")), " ", t("room.exam_banner_hint"));
  document.body.dataset.exam = "running";
  window.addEventListener("beforeunload", (event) => {
    if (!state.last || state.last.room.status !== "active") return;
    event.preventDefault();
    event.returnValue = ""; // the browser's own words: "Leave site?"
  });
}

function update(msg, seatName, shown = {}) {
  state.last = msg;
  state.seatName = seatName;
  state.label = shown.label || ((m) => m);
  state.shownSeat = shown.shownSeat === undefined ? null : shown.shownSeat;
  if (!state.room) return;
  if (document.body.dataset.exam && msg.room.status !== "active") document.body.dataset.exam = "over";
  askFeedback(msg);
  drawFeedback();
  if (msg.room.status === "finished") pollResult();
  else drawPanel(null);
}

function askFeedback(msg) {
  const room = msg.room;
  // every game: hidden-information games are judged on the server from this seat's views
  // only, and a running game's feedback needs the mover's seat key
  if (state.noFeedback || !room.casual || !msg.you.length) return;
  // the person's setting (js/settings.js): by default none in a game between people
  if (!feedbackAllowed(room)) return;
  badge(); // its line is kept from the start, so the board and move list never shift under a click
  if (state.inflight) return; // one question at a time; the answer asks again for the latest
  let ply = -1;
  room.moves.forEach(([s], i) => {
    if (msg.you.includes(s)) ply = i;
  });
  if (ply < 0 || state.asked.has(ply)) return;
  const mover = room.moves[ply][0];
  const held = loadKeys(state.room).find((k) => k.seat === mover);
  if (!held) return;
  state.asked.add(ply);
  state.inflight = true;
  const askedFor = mover;
  post(`/api/rooms/${encodeURIComponent(state.room)}/feedback`, { ply, seat: mover, key: held.key }).then((res) => {
    state.inflight = false;
    if (!res.feedback) {
      state.noFeedback = true;
      return;
    }
    if (!state.feedback || res.feedback.ply >= state.feedback.ply) state.feedback = { ...res.feedback, seat: askedFor };
    drawFeedback();
    if (state.last) askFeedback(state.last);
  }).catch(() => {
    state.inflight = false;
    state.noFeedback = true;
  });
}

function drawFeedback() {
  const f = state.feedback;
  if (!f) return;
  const box = badge();
  // only the seat on screen sees its badge (a hot-seat neighbour must not)
  const mine = state.shownSeat !== null && f.seat === state.shownSeat;
  box.hidden = !mine;
  if (!mine) {
    box.replaceChildren();
    return;
  }
  const label = state.label || ((m) => m);
  const parts = [el("span", { class: `badge ${f.quality}`, "data-quality": f.quality }, t(`feedback.${f.quality}`))];
  if (f.quality !== "best" && f.best_move) parts.push(" ", t("feedback.best_was", { move: label(f.best_move) }));
  box.replaceChildren(`${t("feedback.label")} (${label(f.move)}): `, ...parts);
  box.dataset.ply = String(f.ply);
}

async function pollResult() {
  if (state.shown || state.polling) {
    if (state.shown) drawPanel(state.shown);
    return;
  }
  state.polling = true;
  for (let i = 0; i < 40 && !state.shown; i++) {
    try {
      const res = await api(`/api/rooms/${encodeURIComponent(state.room)}/progress`);
      if (res.recorded) state.shown = res.result;
      else if (!res.expected) break; // someone without an account: it will not be recorded
    } catch {
      break;
    }
    if (!state.shown) await new Promise((r) => setTimeout(r, 500));
  }
  state.polling = false;
  drawPanel(state.shown || "none");
}

function drawPanel(result) {
  const box = panel();
  if (!result) {
    box.hidden = true;
    return;
  }
  const lines = [el("h2", {}, t("room.rating_h"))];
  if (result === "none") {
    if (!state.player) lines.push(el("p", {}, el("a", { href: "/account" }, t("room.sign_in_hint"))));
    else lines.push(el("p", {}, t("room.not_rated")));
  } else if (!result.rated) {
    // a game with a CPU seat is never rated, whether it was asked for as casual or not
    const cpu = state.last && state.last.room.seats.some((s) => s.kind === "bot");
    const code = result.unrated ? result.unrated.code : cpu ? "cpu" : "";
    lines.push(el("p", code ? { "data-unrated": code } : {}, code === "cpu" ? t("room.unrated_cpu") : t("room.not_rated")));
  }
  else {
    for (const c of result.changes) {
      if (c.before === null || c.after === null || Math.round(c.before) === Math.round(c.after) && state.last.room.seats[c.seat].kind === "bot") continue;
      lines.push(el("p", { "data-rating-seat": c.seat }, t("room.rating_change", { name: state.seatName(c.seat), before: Math.round(c.before), after: `${Math.round(c.after)}${c.provisional ? "?" : ""}` })));
    }
  }
  for (const ev of (result && result.ladder) || []) {
    const text = ev.type === "promoted" ? `⬆ ${pick(ev)}` : ev.type === "exam_passed" ? `✓ ${ev.rank}` : ev.type === "exam_failed" ? `✗ ${ev.rank}` : ev.type === "set_continues" ? t("ladder.set_continues") : ev.reason || ev.type;
    lines.push(el("p", { "data-event": ev.type }, text));
    if (ev.type === "set_continues") lines.push(el("button", { type: "button", id: "set-next", class: "primary", onclick: nextOfSet }, t("ladder.next_game")));
  }
  for (const ev of (result && result.daily) || []) {
    const text = ev.type === "cleared" ? t("daily.cleared") : ev.type === "trophy" ? t("daily.trophy") : ev.type === "practice" ? t(ev.cleared ? "daily.practice_game" : "daily.practice_game_lost") : ev.reason || ev.type;
    lines.push(el("p", { "data-event": ev.type }, text));
  }
  if (result && result.daily && !result.daily.some((ev) => ev.type === "cleared" || ev.type === "not_counted" || ev.type === "practice")) lines.push(el("p", { "data-event": "not_cleared" }, t("daily.game_not_cleared")));
  if (state.player) lines.push(el("p", {}, el("a", { href: `/player/${state.player.id}` }, t("acct.my_page"))));
  if (result && result.daily) lines.push(el("p", {}, el("a", { href: `/daily/${encodeURIComponent(state.game)}` }, t("nav.daily"))));
  else if (state.context) lines.push(el("p", {}, el("a", { href: `/ladder/${encodeURIComponent(state.game)}` }, t("nav.ladder"))));
  box.replaceChildren(...lines);
  box.hidden = false;
  document.body.dataset.recorded = result === "none" ? "false" : "true";
}

async function nextOfSet() {
  // the second game of a reverse-match set, colours swapped; this room's key proves the seat
  const [mine] = loadKeys(state.room);
  try {
    const next = await post(`/api/ladder/${encodeURIComponent(state.game)}/next`, { room: state.room, seat: mine.seat, key: mine.key });
    saveKeys(next.room, next.keys);
    location.href = next.url;
  } catch (err) {
    document.getElementById("error").textContent = t("room.error", { msg: err.message });
  }
}

export const roomProgress = { start, update };
