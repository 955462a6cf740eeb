// The tournaments page (/tournaments): the list, and the form that creates one
// (registered players; docs/tournaments.md). Errors are shown from their code.
import { applyStatic, mountSwitch, onLangChange, t } from "./i18n.js";
import { errorText } from "./tournament_errors.js";
import { el } from "./util.js";

let games = [];
let list = [];

function render() {
  const ul = document.getElementById("tour-list");
  if (!list.length) {
    ul.replaceChildren(el("li", { class: "hint" }, t("tour.none")));
  } else {
    ul.replaceChildren(...list.map((x) => el("li", {},
      el("a", { href: `/t/${x.id}` }, x.name), " ",
      el("span", { class: "hint" }, `${t(`tour.kind.${x.kind}`)} · ${x.game} · ${t(`tour.status.${x.status}`)} · ${t("tour.players_n", { n: x.players })}`))));
  }
  const select = document.getElementById("tf-game");
  const chosen = select.value;
  select.replaceChildren(...games.map((g) => el("option", { value: g.id, selected: g.id === chosen }, (g.title && g.title[document.documentElement.lang === "ja" ? "ja" : "en"]) || g.id)));
}

async function load() {
  const [l, g] = await Promise.all([fetch("/api/tournaments").then((r) => r.json()), fetch("/api/games").then((r) => r.json())]);
  list = l.tournaments;
  games = g.games;
  render();
}

document.getElementById("tour-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const error = document.getElementById("tour-error");
  error.textContent = "";
  const rated = f.rated.checked;
  const body = { name: f.name.value, game: f.game.value, kind: f.kind.value, rounds: Number(f.rounds.value), minutes: Number(f.minutes.value), starts_in: Number(f.starts_in.value), casual: !rated };
  if (rated) body.clock = { initial: 300, increment: 3 };
  const res = await fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    error.textContent = errorText(data, res.status);
    return;
  }
  location.href = `/t/${data.tournament.id}`;
});

mountSwitch(document.getElementById("lang"));
applyStatic();
document.title = `${t("tour.title")} — ${t("app.name")}`;
onLangChange(() => {
  document.title = `${t("tour.title")} — ${t("app.name")}`;
  render();
});
await load();
document.body.dataset.ready = "true";
