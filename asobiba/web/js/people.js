// People (issue 28 item 3): the buttons of a player page (challenge, follow, block) and the
// lobby's list of the players one follows (online or not, and their live games). The server
// is asobiba/server/social.py; refusals are codes worded by i18n.js (notices.refusal).
import { t } from "./i18n.js";
import { el } from "./util.js";
import { call, refusal } from "./notices.js";

async function get(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => ({}));
  return res.ok ? body : null;
}

/** The buttons on ``player``'s page, for a signed-in visitor who is someone else. */
export async function mountPeopleActions(box, player) {
  const me = await get("/api/players/me");
  if (!me || !me.player || me.player.id === player.id || !["human", "guest"].includes(player.kind)) {
    box.hidden = true;
    return;
  }
  const status = el("p", { class: "hint", role: "status" });
  const draw = async () => {
    const rel = (await get("/api/people")) || { following: [], blocked: [] };
    const following = rel.following.some((f) => f.name === player.name);
    const blocked = rel.blocked.includes(player.name);
    const act = (what, done) => async () => {
      try {
        await call(`/api/people/${encodeURIComponent(player.name)}/${what}`);
        status.textContent = t(done, { name: player.name });
        await draw();
        box.querySelector(`[data-people="${what.replace(/^un/, "")}"], [data-people="un${what}"]`)?.focus();
      } catch (e) {
        status.textContent = e.message;
      }
    };
    const buttons = [];
    if (!blocked) buttons.push(el("a", { class: "button primary", href: `/?challenge=${encodeURIComponent(player.name)}`, "data-people": "challenge" }, t("people.challenge")));
    if (!blocked) buttons.push(following ? el("button", { type: "button", "data-people": "unfollow", onclick: act("unfollow", "people.unfollowed") }, t("people.unfollow")) : el("button", { type: "button", "data-people": "follow", onclick: act("follow", "people.followed") }, t("people.follow")));
    buttons.push(blocked ? el("button", { type: "button", "data-people": "unblock", onclick: act("unblock", "people.unblocked") }, t("people.unblock")) : el("button", { type: "button", "data-people": "block", onclick: act("block", "people.blocked") }, t("people.block")));
    box.replaceChildren(el("h2", { id: "people-h" }, t("people.title")), el("div", { class: "row" }, ...buttons), status);
  };
  box.hidden = false;
  await draw();
}

/** The lobby's "People you follow": each with online or not and links to their live games. */
export async function mountFollowing(box) {
  const rel = await get("/api/people");
  if (!rel || !rel.following.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const rows = rel.following.map((f) => el("li", { "data-follow": f.name },
    el("span", { class: f.online ? "online" : "offline", "aria-hidden": "true" }, f.online ? "●" : "○"), " ",
    el("a", { href: `/player/${f.id}` }, f.name), " ",
    el("span", { class: "hint" }, t(f.online ? "people.online" : "people.offline")),
    ...f.live.map((g) => el("a", { class: "button", href: `/r/${g.room}`, "data-live": g.room }, t("people.watch")))));
  box.replaceChildren(el("h2", { id: "following-h" }, t("people.following")), el("ul", { class: "following", "aria-labelledby": "following-h" }, ...rows));
}

export { refusal };
