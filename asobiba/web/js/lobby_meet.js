// Meet and watch: the open games (seeks) anyone can take, quick pairing by rating and the
// live games to watch, kept current by the lobby WebSocket (/ws/lobby).
import { lang, pick, t } from "./i18n.js";
import { api, el, saveKeys } from "./util.js";
import { clockShort } from "./clock_form.js";
import { cpuName } from "./cpu.js";

const TOKENS = "asobiba.seeks";
let ws = null;
let snapshot = { seeks: [], live: [] };
let games = [];
let retry = 0;

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}"); // seek id → token
  } catch {
    return {};
  }
}

function keepToken(seek, token) {
  const all = tokens();
  all[seek] = token;
  localStorage.setItem(TOKENS, JSON.stringify(all));
  hello();
  draw(); // the push may have come before the answer: now it is known to be ours
}

function dropToken(seek) {
  const all = tokens();
  delete all[seek];
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

function hello() {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hello", tokens: Object.values(tokens()) }));
}

function title(id) {
  const g = games.find((x) => x.id === id);
  return g ? pick(g.title, id) : id;
}

function note(text) {
  document.getElementById("meet-note").textContent = text;
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

function go(res) {
  saveKeys(res.room, res.keys);
  location.href = res.url;
}

async function take(seek) {
  try {
    go(await post(`/api/seeks/${encodeURIComponent(seek)}/accept`, {}));
  } catch (e) {
    note(t("lobby.error", { msg: e.message }));
  }
}

async function cancel(seek) {
  try {
    await post(`/api/seeks/${encodeURIComponent(seek)}/cancel`, { token: tokens()[seek] });
  } catch (e) {
    note(t("lobby.error", { msg: e.message }));
  }
  dropToken(seek);
}

export async function openSeek(body) {
  const res = await post("/api/seeks", body);
  keepToken(res.seek.id, res.token);
  note(t("lobby.quick_wait"));
  document.getElementById("meet").scrollIntoView({ block: "nearest" });
}

async function quick() {
  const game = document.getElementById("quick-game").value;
  try {
    const res = await post("/api/seeks/quick", { game, token: Object.values(tokens())[0] || null });
    if (res.paired) go(res);
    else {
      keepToken(res.seek.id, res.token);
      note(t("lobby.quick_wait"));
    }
  } catch (e) {
    note(t("lobby.error", { msg: e.message }));
  }
}

/** A seek of this person's, taken while their lobby was closed: its seat key is saved and
 * the game is offered as a link ("your game"), kept above the open games. */
function yourGame(msg) {
  const box = document.getElementById("meet-note");
  box.replaceChildren(el("span", {}, t("lobby.seek_taken_late")), " ",
    el("a", { class: "button primary", href: msg.url, "data-mine": msg.room }, t("lobby.seek_join")));
}

function draw() {
  const mine = tokens();
  const seeks = snapshot.seeks;
  document.getElementById("seek-list").replaceChildren(
    ...(seeks.length ? seeks.map((s) => el("li", { "data-seek": s.id },
      el("span", {}, t("lobby.seek_item", { game: title(s.game), name: s.name || t("lobby.guest"), rating: s.rating, kind: t(s.casual ? "lobby.casual_word" : "lobby.rated"), clock: clockShort(s.clock) ? ` · ${clockShort(s.clock)}` : "" })),
      mine[s.id] ? el("button", { type: "button", "data-cancel": s.id, onclick: () => cancel(s.id) }, t("lobby.cancel"))
        : el("button", { type: "button", class: "primary", "data-take": s.id, onclick: () => take(s.id) }, t("lobby.take")))) : [el("li", { class: "hint" }, t("lobby.no_seeks"))]),
  );
  const live = snapshot.live;
  document.getElementById("live-list").replaceChildren(
    ...(live.length ? live.map((r) => el("li", { "data-live": r.room },
      el("span", {}, t("lobby.live_item", { game: title(r.game), players: r.seats.map((s) => (s.kind === "bot" ? cpuName(games.find((g) => g.id === r.game), s.level) : s.name || t("lobby.guest"))).join(" – "), ply: r.ply })),
      el("a", { class: "button", href: `/r/${encodeURIComponent(r.room)}`, "data-watch": r.room }, t("lobby.watch")))) : [el("li", { class: "hint" }, t("lobby.no_live"))]),
  );
  document.body.dataset.seeks = String(seeks.length);
  document.body.dataset.live = String(live.length);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  ws.addEventListener("open", () => {
    retry = 0;
    hello();
  });
  ws.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "lobby") {
      snapshot = msg;
      draw();
    } else if (msg.type === "seek_taken") {
      dropToken(msg.seek);
      saveKeys(msg.room, msg.keys);
      if (msg.late) yourGame(msg); // taken while this person was away: a link, no jump
      else location.href = msg.url;
    }
  });
  ws.addEventListener("close", () => {
    retry = Math.min(retry + 1, 4);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

/** Start the open-games panel; ``list`` is the lobby's games (from describe()). */
export function startMeet(list) {
  games = list;
  const pairable = games.filter((g) => g.seats[0] <= 2 && g.seats[1] >= 2 && !g.simultaneous);
  const sel = document.getElementById("quick-game");
  const kept = sel.value;
  sel.replaceChildren(...pairable.map((g) => el("option", { value: g.id }, pick(g.title, g.id))));
  if (kept) sel.value = kept;
  if (!ws) {
    document.getElementById("quick-btn").addEventListener("click", quick);
    connect();
  }
  draw();
  document.documentElement.lang = lang();
}
