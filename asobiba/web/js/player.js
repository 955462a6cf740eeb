// A player page: ratings per pool (provisional marked), statistics per game (and per CPU
// level), recent games with rating changes, daily-challenge trophies.
import { lang, t } from "./i18n.js";
import { api, el } from "./util.js";
import { gameTitle, page, rating } from "./progress.js";

const who = decodeURIComponent(location.pathname.split("/").pop());

function table(head, rows, attrs = {}) {
  return el("table", { class: "data", ...attrs }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
}

async function poolTitle(pool) {
  const [game, kind] = pool.split(":");
  const title = await gameTitle(game);
  return kind ? `${title} (${t(`pool.${kind}`)})` : title;
}

async function draw() {
  const data = await api(`/api/players/${encodeURIComponent(who)}`);
  document.getElementById("page-title").textContent = t("player.title", { name: data.player.name });
  document.title = `${data.player.name} — ${t("app.name")}`;
  document.body.dataset.player = String(data.player.id);
  const ratings = await Promise.all(data.ratings.map(async (r) => [await poolTitle(r.pool), el("span", { class: r.provisional ? "provisional" : "", "data-pool": r.pool, "data-provisional": String(r.provisional), title: r.provisional ? t("player.provisional") : "" }, rating(r)), r.provisional ? t("player.provisional") : "", String(r.games)]));
  document.getElementById("ratings").replaceChildren(ratings.length ? table([t("player.pool"), t("player.rating"), "", t("player.games")], ratings) : el("p", {}, t("player.none")));
  const stats = await Promise.all(Object.entries(data.stats).map(async ([g, s]) => [await gameTitle(g), String(s.games), String(s.win), String(s.draw), String(s.loss), `${Math.round(s.score_rate * 100)}%`]));
  document.getElementById("stats").replaceChildren(stats.length ? table([t("player.game"), t("player.games"), t("player.wins"), t("player.draws"), t("player.losses"), t("player.score_rate")], stats, { id: "stats-table" }) : el("p", {}, t("player.none")));
  const hist = await Promise.all(data.history.map(async (h) => {
    const change = h.rating_before !== null && h.rating_after !== null ? `${Math.round(h.rating_before)} → ${Math.round(h.rating_after)}` : t("player.unrated");
    return [await gameTitle(h.game), t(`player.result.${h.result}`), h.opponents.join(", "), change, new Date(h.finished).toLocaleDateString(lang() === "ja" ? "ja-JP" : "en-GB")];
  }));
  document.getElementById("history").replaceChildren(hist.length ? table([t("player.game"), t("player.result"), t("player.opponents"), t("player.rating"), t("player.date")], hist, { id: "history-table" }) : el("p", {}, t("player.none")));
  const trophies = data.trophies || [];
  document.getElementById("trophies").replaceChildren(trophies.length ? el("ul", {}, ...trophies.map((tr) => el("li", {}, `🏆 ${tr.game} ${tr.period}`))) : el("p", {}, t("player.none")));
}

page(draw);
