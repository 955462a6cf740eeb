// The rules panel of a game page: the game's own short rules and a legend of every mark its
// board draws (both from the renderer, in the page's language), and the way to its tutorial.
import { lines, t } from "./i18n.js";
import { el } from "./util.js";

const KEY = "asobiba.rules.closed";

export function drawRules(renderer, gameId, ctx) {
  const box = document.getElementById("rules-panel");
  if (!box) return;
  const rules = lines("rules", gameId);
  const legend = renderer.legend ? renderer.legend(ctx) : [];
  const details = el(
    "details",
    { class: "rules-panel", open: localStorage.getItem(KEY) !== "1" },
    el("summary", {}, t("room.rules")),
    rules.length ? el("ol", { class: "rules", "data-rules": gameId }, ...rules.map((r) => el("li", {}, r))) : null,
    legend.length ? el("h3", {}, t("room.legend")) : null,
    legend.length ? el("ul", { class: "legend", "data-legend": gameId }, ...legend.map(([mark, text]) => el("li", {}, mark, el("span", {}, text)))) : null,
    el("p", {}, el("a", { href: `/tutorial/${encodeURIComponent(gameId)}`, id: "rules-tutorial" }, t("room.tutorial_link"))),
  );
  details.addEventListener("toggle", () => localStorage.setItem(KEY, details.open ? "0" : "1"));
  box.replaceChildren(details);
  box.hidden = false;
}
