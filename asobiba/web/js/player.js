// A player page: ratings per pool (provisional marked), statistics per game (and per CPU
// level), recent games with rating changes, daily-challenge trophies.
import { lang, localized, pick, t } from "./i18n.js";
import { api, el } from "./util.js";
import { gameTitle, page, rating, showError } from "./progress.js";
import { lineChart } from "./charts.js";
import { mountPeopleActions } from "./people.js";

let games = null;

/** "bot:reversi:1" (how the store names a CPU seat) as the page's words: "CPU (Rookie)". */
async function opponentName(name) {
  const m = /^bot:([^:]+):(.+)$/.exec(name);
  if (!m) return name;
  games = games || (await api("/api/games")).games;
  const g = games.find((x) => x.id === m[1]);
  const bot = g && (g.bots || []).find((b) => b.level === m[2]);
  return t("player.bot", { level: bot ? localized(bot, "title") : m[2] });
}

/** One line per game: the rating after each rated game, oldest first. */
async function ratingChart(history) {
  const rated = [...history].reverse().filter((h) => h.rating_after !== null && h.rating_after !== undefined);
  const box = document.getElementById("rating-chart");
  if (!rated.length) {
    box.replaceChildren();
    return;
  }
  const byGame = new Map();
  rated.forEach((h, i) => {
    if (!byGame.has(h.game)) byGame.set(h.game, []);
    byGame.get(h.game).push([i + 1, h.rating_after]);
  });
  const series = await Promise.all([...byGame].map(async ([g, points]) => ({ name: await gameTitle(g), points })));
  const label = t("player.chart_label", { list: series.map((s) => `${s.name}: ${s.points.map((p) => Math.round(p[1])).join(" → ")}`).join("; ") });
  box.replaceChildren(lineChart({ series, label }), el("p", { class: "chart-legend" }, ...series.map((s) => el("span", { "data-series": s.name }, s.name))));
}

const who = decodeURIComponent(location.pathname.split("/").pop());

function table(head, rows, attrs = {}) {
  return el("table", { class: "data", ...attrs }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
}

async function poolTitle(pool) {
  const [game, kind] = pool.split(":");
  const title = await gameTitle(game);
  return kind ? `${title} (${t(`pool.${kind}`)})` : title;
}

/** The history's filters as query parameters (only those set). */
function filterQuery() {
  const q = new URLSearchParams();
  for (const name of ["game", "result", "opponent", "kind"]) {
    const value = document.getElementById(`f-${name}`).value.trim();
    if (value) q.set(name, value);
  }
  return q;
}

let historyNext = null; // the ``before`` of the next page of games (null: no more)
let historyRows = [];

async function historyRow(h) {
  const change = h.rating_before !== null && h.rating_after !== null ? `${Math.round(h.rating_before)} → ${Math.round(h.rating_after)}` : t("player.unrated");
  const opponents = await Promise.all(h.opponents.map(opponentName));
  const title = await gameTitle(h.game);
  const when = new Date(h.finished).toLocaleDateString(lang() === "ja" ? "ja-JP" : "en-GB");
  // every game with a public record links to its replay (a daily challenge's waits for its day)
  const replay = h.replay ? el("a", { href: h.replay, "data-replay": String(h.game_row_id) }, t("history.replay")) : el("span", { class: "hint" }, t("history.no_replay"));
  return [title, t(`player.result.${h.aborted ? "aborted" : h.result}`), opponents.join(", "), change, when, replay];
}

/** The history table from the paged, filtered API: ``more`` adds the next page. */
async function drawHistory(id, more) {
  const q = filterQuery();
  document.getElementById("history-export").href = `/api/players/${id}/export${q.toString() ? `?${q}` : ""}`;
  if (more && historyNext !== null) q.set("before", String(historyNext));
  const page = await api(`/api/players/${id}/games?${q}`);
  const rows = await Promise.all(page.games.map(historyRow));
  historyRows = more ? historyRows.concat(rows) : rows;
  historyNext = page.next;
  const box = document.getElementById("history");
  box.dataset.count = String(historyRows.length);
  box.replaceChildren(historyRows.length ? table([t("player.game"), t("player.result"), t("player.opponents"), t("player.rating"), t("player.date"), t("history.replay_col")], historyRows, { id: "history-table" }) : el("p", {}, t(q.toString() ? "history.none_match" : "player.none")));
  document.getElementById("history-more").hidden = historyNext === null;
}

let wired = false;
/** The filters' game list, and their handlers (once). */
async function wireHistory(id) {
  const select = document.getElementById("f-game");
  const chosen = select.value;
  games = games || (await api("/api/games")).games;
  select.replaceChildren(el("option", { value: "" }, t("history.any_game")), ...games.map((g) => el("option", { value: g.id }, pick(g.title, g.id))));
  select.value = chosen;
  if (wired) return;
  wired = true;
  document.getElementById("history-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    drawHistory(id, false).catch(showError);
  });
  document.getElementById("history-more").addEventListener("click", () => drawHistory(id, true).catch(showError));
}

async function draw() {
  const data = await api(`/api/players/${encodeURIComponent(who)}`);
  // a BOT account (docs/bot-api.md) carries its title wherever its name is shown
  const shown = data.title ? `${data.title} ${data.player.name}` : data.player.name;
  document.getElementById("page-title").textContent = t("player.title", { name: shown });
  document.title = `${shown} — ${t("app.name")}`;
  document.body.dataset.player = String(data.player.id);
  mountPeopleActions(document.getElementById("people"), data.player).catch(showError);
  await wireHistory(data.player.id);
  const ratings = await Promise.all(data.ratings.map(async (r) => [await poolTitle(r.pool), el("span", { class: r.provisional ? "provisional" : "", "data-pool": r.pool, "data-provisional": String(r.provisional), title: r.provisional ? t("player.provisional") : "" }, rating(r)), r.provisional ? t("player.provisional") : "", String(r.games)]));
  document.getElementById("ratings").replaceChildren(ratings.length ? table([t("player.pool"), t("player.rating"), t("player.status"), t("player.games")], ratings) : el("p", {}, t("player.none")));
  const stats = await Promise.all(Object.entries(data.stats).map(async ([g, s]) => [await gameTitle(g), String(s.games), String(s.win), String(s.draw), String(s.loss), `${Math.round(s.score_rate * 100)}%`]));
  document.getElementById("stats").replaceChildren(stats.length ? table([t("player.game"), t("player.games"), t("player.wins"), t("player.draws"), t("player.losses"), t("player.score_rate")], stats, { id: "stats-table" }) : el("p", {}, t("player.none")));
  await drawHistory(data.player.id, false);
  await ratingChart(data.history);
  const trophies = data.trophies || [];
  document.getElementById("trophies").replaceChildren(trophies.length ? el("ul", {}, ...trophies.map((tr) => el("li", {}, `🏆 ${tr.game} ${tr.period}`))) : el("p", {}, t("player.none")));
}

page(draw);
