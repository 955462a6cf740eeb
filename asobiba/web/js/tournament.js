// One tournament (/t/<id>): live standings and games (each linked to its room, to watch or
// replay), join and withdraw, and the player's own pairing announced as it is made — the
// page listens to /api/tournaments/<id>/events (server-sent events), which also keeps the
// player present (a player with no page open is withdrawn at the next pairing).
import { applyStatic, mountSwitch, onLangChange, t } from "./i18n.js";
import { errorText } from "./tournament_errors.js";
import { el, saveKeys } from "./util.js";
import { tournamentChat } from "./chat.js";

const id = location.pathname.split("/").pop();
let snap = null;
let announced = null;

function render() {
  if (!snap) return;
  const tour = snap.tournament;
  document.getElementById("tour-name").textContent = tour.name;
  document.title = `${tour.name} — ${t("app.name")}`;
  const info = [t(`tour.kind.${tour.kind}`), tour.game, t(`tour.status.${tour.status}`), t(tour.casual ? "tour.casual" : "tour.rated_short")];
  if (tour.kind !== "arena") info.push(t("tour.rounds_n", { n: tour.rounds }));
  else info.push(t("tour.minutes_n", { n: tour.minutes }));
  document.getElementById("tour-info").textContent = info.join(" · ");
  const you = snap.you;
  const box = document.getElementById("tour-you");
  if (you && you.game) {
    saveKeys(you.game.room, [{ seat: you.game.seat, key: you.game.key }]);
    box.replaceChildren(el("strong", {}, t("tour.your_game", { who: you.game.opponents.join(", ") })), " ",
      el("a", { href: you.game.url, id: "tour-play", class: "button" }, t("tour.play")));
  } else if (you) {
    box.replaceChildren(t(you.status === "active" ? "tour.waiting" : "tour.withdrawn"));
  } else {
    box.replaceChildren();
  }
  const open = tour.status === "open" || tour.status === "running";
  document.getElementById("tour-join").hidden = !open || (you && you.status === "active");
  document.getElementById("tour-withdraw").hidden = !open || !you || you.status !== "active";
  const swiss = tour.kind === "swiss";
  const head = el("tr", {}, ...["tour.rank", "tour.player", "tour.points", "tour.played"].concat(swiss ? ["tour.buchholz", "tour.sb"] : []).map((k) => el("th", { scope: "col" }, t(k))));
  const rows = snap.standings.map((s) => el("tr", { class: s.status === "withdrawn" ? "withdrawn" : "" },
    el("td", {}, String(s.rank)),
    el("td", {}, el("a", { href: `/player/${s.player}` }, s.name), s.fire ? ` ${t("tour.fire")}` : "", s.status === "withdrawn" ? ` (${t("tour.withdrawn_short")})` : ""),
    el("td", {}, String(s.points)), el("td", {}, String(s.games)),
    ...(swiss ? [el("td", {}, String(s.buchholz)), el("td", {}, String(s.sonneborn_berger))] : [])));
  document.getElementById("tour-standings").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  document.getElementById("tour-rounds").replaceChildren(...snap.rounds.slice().reverse().map((r) => el("section", { class: "tour-round" },
    el("h3", {}, t(tour.kind === "arena" ? "tour.wave_n" : "tour.round_n", { n: r.round })),
    el("ul", {}, ...r.games.map((g) => el("li", {},
      g.players.map((p) => p.name).join(" – "), " ",
      g.room ? el("a", { href: g.url }, t(g.points ? "tour.replay" : "tour.watch")) : el("span", { class: "hint" }, t("tour.bye")),
      g.points && g.room ? ` (${g.points.join(" – ")})` : ""))))));
  if (you && you.game && announced !== you.game.room) {
    announced = you.game.room;
    document.getElementById("tour-play")?.focus();
  }
}

async function post(what) {
  const error = document.getElementById("tour-error");
  error.textContent = "";
  const res = await fetch(`/api/tournaments/${id}/${what}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const data = await res.json().catch(() => null);
  if (!res.ok) error.textContent = errorText(data, res.status);
  const again = await fetch(`/api/tournaments/${id}`);
  if (again.ok) {
    snap = await again.json();
    render();
  }
}

document.getElementById("tour-join").addEventListener("click", () => post("join"));
document.getElementById("tour-withdraw").addEventListener("click", () => post("withdraw"));
mountSwitch(document.getElementById("lang"));
applyStatic();
onLangChange(render);
const first = await fetch(`/api/tournaments/${id}`);
if (first.ok) {
  snap = await first.json();
  render();
  tournamentChat(document.getElementById("tour-chat"), id);
} else {
  document.getElementById("tour-error").textContent = errorText(await first.json().catch(() => null), first.status);
}
const events = new EventSource(`/api/tournaments/${id}/events`);
events.onmessage = (ev) => {
  snap = JSON.parse(ev.data);
  render();
};
document.body.dataset.ready = "true";
