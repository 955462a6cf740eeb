// The daily challenge of a game: today's challenge (same for everyone), its start position
// drawn by the game's renderer, tsume-algo answers graded on the server, and the calendar
// of cleared days with the month's trophy.
import { lang, localized, pick, t } from "./i18n.js";
import { api, el, loadRenderer, saveKeys } from "./util.js";
import { gameFromPath, gameTitle, page, post, showError, whoami } from "./progress.js";

const game = gameFromPath();
let data = null;
let player = null;
let month = null; // [year, month] shown in the calendar
let verdict = null; // [i18n key, params] of the last answers' verdict

function tt(renderer, key, params) {
  return t(key, params, renderer && renderer.game);
}

function questionText(q) {
  if (lang() !== "ja") return q.text;
  const rows = "ABCD";
  if (q.kind === "where") return t("daily.q_where", { colour: t(q.key % 2 ? "white" : "black", {}, game), n: Math.floor(q.key / 2) });
  return t("daily.q_which", { row: rows[q.row], pos: q.pos + 1 });
}

async function load(date) {
  data = await api(`/api/daily/${encodeURIComponent(game)}${date ? `?date=${date}` : ""}`);
}

function drawCalendar() {
  const box = document.getElementById("calendar");
  const cal = data.calendar;
  if (!player || !cal) {
    box.replaceChildren(el("p", {}, el("a", { href: "/account" }, t("daily.sign_in"))));
    document.getElementById("month").textContent = "";
    document.getElementById("trophy").textContent = "";
    return;
  }
  const [y, m] = month;
  document.getElementById("month").textContent = lang() === "ja" ? t("daily.month", { y, m }) : new Date(y, m - 1, 1).toLocaleDateString("en-GB", { month: "long", year: "numeric" });
  const first = (new Date(y, m - 1, 1).getDay() + 6) % 7; // Monday first
  const cleared = new Set(cal.cleared);
  const cells = [];
  for (let i = 0; i < first; i++) cells.push(el("span", { "aria-hidden": "true", class: "pad" }, ""));
  for (let d = 1; d <= cal.days; d++) {
    const iso = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const done = cleared.has(d) || cleared.has(iso);
    cells.push(el("span", { class: `${done ? "cleared" : ""}${iso === data.date ? " today" : ""}`, "data-day": d, "data-cleared": String(done), "aria-label": `${iso}${done ? " ✓" : ""}` }, String(d)));
  }
  box.replaceChildren(...cells);
  document.getElementById("trophy").textContent = `${t("daily.cleared_n", { n: cleared.size, days: cal.days })} — ${cal.trophy ? t("daily.trophy") : t("daily.no_trophy")}`;
}

/** An "opponent" challenge names the player's side the way the game does (Black, White,
 * Player A …) and the CPU by its level's title; "as seat 2" said neither. */
async function goalText(ch) {
  if (ch.kind !== "opponent" || ch.player_seat === null || ch.player_seat === undefined) return pick(ch.description);
  const renderer = await loadRenderer(game);
  const ctx = { lang: lang(), t: (k, p) => tt(renderer, k, p), room: null, seat: ch.player_seat, view: ch.view || null };
  const side = renderer.seatName ? renderer.seatName(ch.player_seat, ctx) : t("room.seat_name", { n: ch.player_seat + 1 });
  const games = (await api("/api/games")).games;
  const info = games.find((g) => g.id === game);
  const bot = info && (info.bots || []).find((b) => b.level === ch.bot_level);
  const level = bot ? localized(bot, "title") : ch.bot_level;
  return t("daily.goal_opponent", { side, level });
}

async function drawChallenge() {
  const ch = data.challenge;
  document.getElementById("challenge-h").textContent = t("daily.today", { date: data.date });
  const parts = [el("p", { class: "goal", id: "description" }, await goalText(ch))];
  const board = document.getElementById("board");
  board.replaceChildren();
  if (ch.kind === "tsume" && ch.puzzle) {
    const form = el("form", { id: "answers", class: "form-grid" });
    ch.puzzle.questions.forEach((q, i) => {
      form.append(el("label", { for: `answer-${i}` }, questionText(q)), el("input", { id: `answer-${i}`, autocomplete: "off", maxlength: 4, required: true, "aria-label": `${t("daily.answer")} ${i + 1}` }));
    });
    form.append(el("button", { type: "submit", class: "primary" }, t("daily.submit")));
    form.addEventListener("submit", submit);
    const rows = ch.puzzle.rows.map((row, r) => el("li", {}, `${"ABCD"[r]}: `, ...row.map((c) => el("span", { class: `badge card-${c.colour}` }, `${c.colour === "w" ? "○" : "●"}${c.number ?? "?"}`))));
    parts.push(el("ul", { class: "tsume" }, ...rows), player ? form : el("p", {}, el("a", { href: "/account" }, t("daily.sign_in"))));
  } else if (ch.view) {
    const renderer = await loadRenderer(game);
    const ctx = { lang: lang(), t: (k, p) => tt(renderer, k, p), room: null, seat: ch.player_seat, view: ch.view, prev: null, legal: new Set(), play: () => {} };
    board.replaceChildren(renderer.render(ch.view, ctx));
    if (ch.kind === "opponent" || ch.kind === "puzzle") { // the challenge shown is always today's
      // a day counts once per account: after the first attempt, the button says practice
      const button = el("button", { type: "button", class: "primary", id: "play-daily", "data-practice": String(Boolean(data.practice)) }, t(data.practice ? "daily.play_practice" : "daily.play"));
      button.addEventListener("click", () => playToday().catch(showError));
      parts.push(player ? button : el("p", {}, el("a", { href: "/account" }, t("daily.sign_in"))));
    }
  }
  if (player && data.practice) parts.push(el("p", { id: "practice", class: "status" }, t("daily.practice_note")));
  if (verdict) parts.push(el("p", { id: "verdict", class: "status", role: "status", "data-verdict": verdict[0] }, t(verdict[0], verdict[1])));
  document.getElementById("challenge").replaceChildren(...parts);
}

// A room from today's seed and opening, the CPU in the other seat; its result marks the day.
async function playToday() {
  const room = await post(`/api/daily/${encodeURIComponent(game)}/play`, {});
  saveKeys(room.room, room.keys);
  location.href = room.url;
}

async function submit(e) {
  e.preventDefault();
  const answers = data.challenge.puzzle.questions.map((_, i) => document.getElementById(`answer-${i}`).value.trim());
  try {
    const res = await post(`/api/daily/${encodeURIComponent(game)}/answer`, { answers });
    await load(null);
    month = [Number(data.date.slice(0, 4)), Number(data.date.slice(5, 7))];
    const practice = (res.events || []).find((ev) => ev.type === "practice");
    if (practice) verdict = ["daily.practice_answers", { n: practice.score, total: answers.length }];
    else verdict = [data.calendar && data.calendar.cleared.length && (new Set(data.calendar.cleared).has(Number(data.date.slice(8))) || new Set(data.calendar.cleared).has(data.date)) ? "daily.cleared" : "daily.not_cleared", {}];
    showError(null);
  } catch (err) {
    showError(err);
  }
  await draw();
}

async function moveMonth(delta) {
  let [y, m] = month;
  m += delta;
  if (m < 1) [y, m] = [y - 1, 12];
  if (m > 12) [y, m] = [y + 1, 1];
  await load(`${y}-${String(m).padStart(2, "0")}-01`);
  month = [y, m];
  drawCalendar();
}

let first = true;
async function draw() {
  const title = t("daily.title", { game: await gameTitle(game) });
  document.getElementById("page-title").textContent = title;
  document.title = `${title} — ${t("app.name")}`;
  if (first) {
    first = false;
    player = await whoami();
    await load(null);
    month = [Number(data.date.slice(0, 4)), Number(data.date.slice(5, 7))];
    document.getElementById("prev-month").addEventListener("click", () => moveMonth(-1).catch(showError));
    document.getElementById("next-month").addEventListener("click", () => moveMonth(1).catch(showError));
  }
  await drawChallenge();
  drawCalendar();
}

page(draw);
