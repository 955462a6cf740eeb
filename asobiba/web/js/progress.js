// Shared by the progression pages (account, player, leaderboard, daily, ladder): the page
// frame, JSON calls that carry the session cookie, and the signed-in player.
import { applyStatic, lang, mountSwitch, onLangChange, pick, t } from "./i18n.js";
import { api } from "./util.js";

export function post(path, body = {}) {
  return api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
}

export async function whoami() {
  return (await api("/api/account")).player;
}

export function showError(err) {
  document.getElementById("error").textContent = err ? t("room.error", { msg: err.message || String(err) }) : "";
}

let games = null;
export async function gameTitle(id) {
  games = games || (await api("/api/games")).games;
  const g = games.find((x) => x.id === id);
  return g ? pick(g.title, id) : id;
}

/** Mount the language switch, fill static strings, run ``draw`` now and on every switch. */
export async function page(draw) {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  // data-lang says which language the page has finished drawing in (tests wait for it)
  onLangChange(() => draw().then(() => { document.body.dataset.lang = lang(); }).catch(showError));
  try {
    await draw();
    document.body.dataset.lang = lang();
    document.body.dataset.ready = "true";
  } catch (err) {
    showError(err);
    document.body.dataset.ready = "error";
  }
}

export function rating(r) {
  // provisional ratings carry a "?" as on lichess, and a readable title
  const value = Math.round(r.rating);
  return r.provisional ? `${value}?` : String(value);
}

export function gameFromPath() {
  return decodeURIComponent(location.pathname.split("/").pop());
}
