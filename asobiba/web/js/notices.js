// Challenges on every page (issue 28 item 3): a signed-in player's page asks the server for
// its notices (GET /api/challenges) when it loads and every POLL_MS after, and lists under
// the header the challenges waiting for an answer (accept, or decline with a reason) and the
// player's own ones (waiting: cancel; accepted: go to the game; declined: the reason).
// Asking also marks the player as seen (online for those who follow them). A page without a
// session gets 401 and stops asking. Loaded by settings.js, which every page loads.
import { has, onLangChange, pick, t } from "./i18n.js";
import { el, saveKeys } from "./util.js";
import { clockShort } from "./clock_form.js";
import { refusalText } from "./codes.js";
import { get as settingsNow } from "./settings.js"; // (settings.js loads this module: a cycle, read only after both ran)

const POLL_MS = 20000;
export const REASONS = ["generic", "later", "too_fast", "too_slow", "rated_only", "casual_only", "other_game"];
const SEEN = "asobiba.challenges.seen"; // settled challenges this browser has been told of
let last = null;
let turns = [];
const TOLD = "asobiba.turns.told"; // turns a system notification was shown for
let timer = null;

function seen() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN) || "[]"));
  } catch {
    return new Set();
  }
}

function markSeen(id) {
  const s = seen();
  s.add(id);
  localStorage.setItem(SEEN, JSON.stringify([...s].slice(-100)));
}

/** A refusal in this page's language: the code's words, else the server's text. */
export function refusal(body, status) {
  const err = body && typeof body.error === "object" ? body.error : null;
  if (err && has(`err:${err.code}`)) return refusalText(err);
  return err && err.message ? err.message : t("people.refused", { status });
}

export async function call(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(refusal(data, res.status));
  return data;
}

let titles = null; // game id → its title {en, ja} (GET /api/games, asked once when needed)

function gameName(id) {
  return titles && titles[id] ? pick(titles[id], id) : id;
}

function terms(c) {
  const parts = [gameName(c.game), c.clock ? clockShort(c.clock) : t("people.untimed"), t(c.casual ? "people.casual" : "people.rated")];
  parts.push(t(c.seat === 0 ? "people.you_first" : "people.you_second"));
  return parts.join(" · ");
}

function region() {
  let box = document.getElementById("notices");
  if (!box) {
    box = el("section", { id: "notices", class: "notices", "aria-live": "polite", "aria-label": t("people.notices") });
    const header = document.querySelector("header.top");
    if (header) header.after(box);
    else document.body.prepend(box);
  }
  return box;
}

function incoming(c) {
  const status = el("p", { class: "error", role: "alert" });
  const reason = el("select", { id: `reason-${c.id}`, "aria-label": t("people.reason") }, ...REASONS.map((r) => el("option", { value: r }, t(`people.reason.${r}`))));
  const accept = el("button", { type: "button", class: "primary", "data-accept": c.id }, t("people.accept"));
  const decline = el("button", { type: "button", "data-decline": c.id }, t("people.decline"));
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    try {
      const room = await call(`/api/challenges/${c.id}/accept`);
      saveKeys(room.room, room.keys);
      location.href = room.url;
    } catch (e) {
      status.textContent = e.message;
      accept.disabled = false;
    }
  });
  decline.addEventListener("click", async () => {
    decline.disabled = true;
    try {
      await call(`/api/challenges/${c.id}/decline`, { reason: reason.value });
      refresh();
    } catch (e) {
      status.textContent = e.message;
      decline.disabled = false;
    }
  });
  return el("div", { class: "notice", "data-challenge": c.id }, el("p", {}, t("people.challenged_by", { name: c.from }), " ", el("span", { class: "terms" }, terms(c))), el("div", { class: "row" }, accept, reason, decline), status);
}

function outgoing(c) {
  const status = el("p", { class: "error", role: "alert" });
  const parts = [];
  if (c.status === "created") {
    const cancel = el("button", { type: "button", "data-cancel": c.id }, t("people.cancel"));
    cancel.addEventListener("click", async () => {
      try {
        await call(`/api/challenges/${c.id}/cancel`);
        refresh();
      } catch (e) {
        status.textContent = e.message;
      }
    });
    parts.push(el("p", {}, t("people.waiting_for", { name: c.to }), " ", el("span", { class: "terms" }, terms(c))), cancel);
  } else if (c.status === "accepted") {
    parts.push(el("p", {}, t("people.accepted_by", { name: c.to }), " ", el("a", { href: c.url }, t("people.go"))));
  } else {
    const words = c.status === "declined" ? t("people.declined_by", { name: c.to, reason: t(`people.reason.${c.reason || "generic"}`) }) : t(`people.status.${c.status}`, { name: c.to });
    const ok = el("button", { type: "button", "data-dismiss": c.id }, t("people.dismiss"));
    ok.addEventListener("click", () => {
      markSeen(c.id);
      draw(last);
    });
    parts.push(el("p", {}, words), ok);
  }
  return el("div", { class: "notice mine", "data-challenge": c.id }, ...parts, status);
}

/** Time left, in the largest units that say it: "2 d 23 h", "5 h", "12 min" (rounded down). */
function left(s) {
  if (s >= 86400) return t("people.left_days", { n: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("people.left_hours", { n: Math.floor(s / 3600) });
  return t("people.left_minutes", { n: Math.max(0, Math.floor(s / 60)) });
}

function turnRow(x) {
  const urgent = x.remaining !== null && x.remaining < 86400;
  const bits = [gameName(x.game), x.opponents.filter(Boolean).join(", ")].filter(Boolean).join(" · ");
  return el("li", { "data-turn": x.room, class: urgent ? "urgent" : "" }, el("a", { href: x.url }, bits), x.remaining !== null ? el("span", { class: "terms" }, ` ${left(x.remaining)}`) : null, urgent ? el("strong", {}, ` ${t("people.turn_soon")}`) : null);
}

/** The "your turn" list: every game of the account waiting on it, closest deadline first.
 * A game page leaves out its own game. A new turn while the tab is hidden gives a system
 * notification when the settings page's turn notices are on (and the browser allows it). */
function drawTurns(box) {
  const here = turns.filter((x) => location.pathname !== x.url);
  if (!here.length) return null;
  let told = [];
  try {
    told = JSON.parse(localStorage.getItem(TOLD) || "[]");
  } catch {
    told = [];
  }
  const fresh = here.filter((x) => !told.includes(`${x.room}:${x.ply}`));
  const notify = settingsNow().notify === "on";
  if (fresh.length && document.hidden && notify && typeof Notification !== "undefined" && Notification.permission === "granted") {
    new Notification(t("people.your_turn"), { body: fresh.map((x) => gameName(x.game)).join(", ") });
  }
  localStorage.setItem(TOLD, JSON.stringify([...told, ...fresh.map((x) => `${x.room}:${x.ply}`)].slice(-200)));
  return el("div", { class: "notice turns" }, el("p", { id: "turns-h" }, t("people.your_turn_in", { n: here.length })), el("ul", { "aria-labelledby": "turns-h" }, ...here.map(turnRow)));
}

function draw(data) {
  if (!data) return;
  const told = seen();
  const mine = data.outgoing.filter((c) => !told.has(c.id) && !(c.status === "accepted" && location.pathname === c.url));
  const box = region();
  box.replaceChildren(...data.incoming.map(incoming), ...mine.map(outgoing));
  const turnBox = drawTurns(box);
  if (turnBox) box.append(turnBox);
  box.hidden = !box.childElementCount;
  // the challenger's page goes to the game when it is accepted (once; the key is kept here)
  for (const c of data.outgoing) {
    if (c.status === "accepted" && location.pathname === c.url) markSeen(c.id);
    else if (c.status === "accepted" && !told.has(c.id) && localStorage.getItem(`asobiba.keys.${c.room}`) && location.pathname !== c.url) {
      markSeen(c.id);
      location.href = c.url;
      return;
    }
  }
}

export async function refresh() {
  clearTimeout(timer);
  let res;
  try {
    res = await fetch("/api/challenges");
  } catch {
    timer = setTimeout(refresh, POLL_MS);
    return;
  }
  if (res.status === 401) return; // not signed in: nothing to ask for
  if (res.ok) {
    last = await res.json();
    try {
      const got = await fetch("/api/turns");
      turns = got.ok ? (await got.json()).turns : [];
    } catch {
      turns = [];
    }
    if (!titles && (last.incoming.length || last.outgoing.length || turns.length)) {
      try {
        titles = Object.fromEntries((await (await fetch("/api/games")).json()).games.map((g) => [g.id, g.title]));
      } catch {
        titles = {};
      }
    }
    draw(last);
  }
  timer = setTimeout(refresh, POLL_MS);
}

if (typeof document !== "undefined" && !window.__asobibaNotices) {
  window.__asobibaNotices = true;
  onLangChange(() => draw(last));
  refresh();
}
