// Leaderboards of a game: every rated pool (one-on-one, multi-player, teams, puzzles); the
// server lists established people only (no CPU, no provisional rating: docs/fair-play.md).
import { t } from "./i18n.js";
import { api, el } from "./util.js";
import { gameFromPath, gameTitle, page, rating } from "./progress.js";

const game = gameFromPath();

async function draw() {
  const title = await gameTitle(game);
  document.getElementById("page-title").textContent = t("lb.title", { game: title });
  document.title = `${t("lb.title", { game: title })} — ${t("app.name")}`;
  const data = await api(`/api/leaderboards/${encodeURIComponent(game)}`);
  const pools = Object.entries(data.pools);
  document.getElementById("boards").replaceChildren(
    ...(pools.length ? pools.map(([pool, rows]) => el("section", { "aria-label": pool },
      el("h2", {}, pool.includes(":") ? t(`pool.${pool.split(":")[1]}`) : t("pool.one")),
      el("table", { class: "data", "data-pool": pool },
        el("thead", {}, el("tr", {}, ...[t("lb.place"), t("lb.player"), t("player.rating"), t("player.games")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, ...rows.map((r) => el("tr", { "data-player": r.player_id },
          el("td", {}, String(r.place)),
          el("td", {}, r.kind === "bot" ? t("lb.bot", { name: r.name.replace(/^bot:[^:]*:/, "") }) : el("a", { href: `/player/${r.player_id}` }, r.name)),
          el("td", { class: r.provisional ? "provisional" : "", title: r.provisional ? t("player.provisional") : "" }, rating(r)),
          el("td", {}, String(r.games)))))))) : [el("p", {}, t("lb.empty"))]),
  );
}

page(draw);
