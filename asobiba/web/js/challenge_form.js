// The lobby's create form as a challenge form (issue 28 item 3): /?challenge=NAME (the
// "Challenge" button of NAME's player page) turns "Create game" into "Send the challenge".
// The game, its options, the clock and rated or casual are the form's own; the seats give
// way to a colour choice (first, second or drawn). The challenge waits on the server; the
// challenger's key is kept in this browser under the room it will open (notices.js goes to
// the game when it is accepted).
import { t } from "./i18n.js";
import { el, saveKeys } from "./util.js";
import { call } from "./notices.js";

/** The name challenged, or null when the lobby is not in challenge mode. */
export function challengeTarget() {
  const name = new URLSearchParams(location.search).get("challenge");
  return name && name.length <= 40 ? name : null;
}

/** The colour choice in place of the seats. */
export function drawChallengeSeats(box) {
  const before = document.getElementById("challenge-colour")?.value || "random";
  const sel = el("select", { id: "challenge-colour" }, ...["random", "first", "second"].map((c) => el("option", { value: c, selected: c === before }, t(`people.colour.${c}`))));
  box.replaceChildren(el("legend", {}, t("people.colour")), el("div", { class: "row" }, el("label", { for: "challenge-colour" }, t("people.colour_you")), sel));
}

/** The form's frame in challenge mode: its banner, its button, no match format. */
export function challengeFrame() {
  const name = challengeTarget();
  document.getElementById("match-row").hidden = true;
  document.getElementById("create-btn").textContent = t("people.send");
  let banner = document.getElementById("challenge-banner");
  if (!banner) {
    banner = el("p", { id: "challenge-banner", class: "notice" });
    document.getElementById("create-form").prepend(banner);
  }
  banner.textContent = t("people.challenge_form", { name });
}

/** Send it; say so in the form's error line (the notices show it waiting). */
export async function sendChallenge(game, options, casual, clock) {
  const btn = document.getElementById("create-btn");
  const err = document.getElementById("create-error");
  btn.disabled = true;
  err.textContent = "";
  try {
    const colour = document.getElementById("challenge-colour")?.value || "random";
    const made = await call("/api/challenges", { to: challengeTarget(), game, options, casual, clock, colour });
    saveKeys(made.challenge.room, made.keys);
    err.textContent = t("people.sent", { name: made.challenge.to });
    const { refresh } = await import("./notices.js");
    refresh();
  } catch (e) {
    err.textContent = e.message;
  }
  btn.disabled = false;
}
