// Chat (issue 28 item 4; docs/web.md "Chat"): the room's panel — two tabs, the players'
// chat and the spectators' — and the tournament page's panel. Lines come from the server
// (asobiba/server/chat.py), which decides who reads what; this file only shows them, as
// text (never HTML). The "chat" setting (settings page; localStorage for anonymous players)
// hides every chat: the page then never joins, so it receives no line at all. A room's panel
// may also be collapsed (remembered per room in this browser). Each line has a Report button.
import { onLangChange, t } from "./i18n.js";
import { refusalText } from "./codes.js";
import { get as settings } from "./settings.js";
import { el } from "./util.js";

export function chatHidden() {
  return settings().chat === "off";
}

function lineItem(line, onReport, { marked = false } = {}) {
  const who = line.seat !== null && line.seat !== undefined ? t("chat.seat_author", { name: line.author, seat: line.seat + 1 })
    : marked && line.channel === "spectators" ? t("chat.spectator_author", { name: line.author }) : line.author;
  const report = el("button", { type: "button", class: "chat-report link", "aria-label": t("chat.report_line", { name: line.author }) }, t("chat.report"));
  report.addEventListener("click", () => onReport(line, report));
  return el("li", { class: "chat-line", "data-line": String(line.id) }, el("strong", {}, who), " ", el("span", { class: "chat-text" }, line.text), " ", report);
}

async function reportLine(line, button) {
  button.disabled = true;
  const res = await fetch("/api/chat/reports", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ line: line.id, reason: "abuse" }) });
  button.textContent = res.ok ? t("chat.reported") : refusalText((await res.json()).error);
}

function form(id, onSend) {
  const input = el("input", { id: `${id}-input`, maxlength: "300", autocomplete: "off", "aria-label": t("chat.say") });
  const button = el("button", { type: "submit" }, t("chat.send"));
  const f = el("form", { class: "row chat-form", id: `${id}-form` }, input, button);
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) onSend(text, input);
  });
  return f;
}

/** The room's chat panel, in ``host`` (an aside section). ``send`` sends one socket message
 * (it sets ``msg.id``). Returns ``handle(msg)``: true when the message was the chat's. */
export function roomChat(host, roomId, send) {
  const collapseKey = `asobiba.chat.collapsed.${roomId}`;
  let joined = false;
  let status = null;
  let state = null;
  let tab = "players";
  const lines = { players: [], spectators: [] };
  // lines relayed after the last chat_join was sent: its answer may have been read before
  // they were stored, so it is joined with them, not put in their place
  let sinceJoin = [];
  const pending = new Set();
  const error = el("p", { class: "error chat-error", role: "alert" });
  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0" });
  const note = el("p", { class: "hint", id: "chat-note" });
  const tabs = ["players", "spectators"].map((name) => {
    const b = el("button", { type: "button", role: "tab", id: `chat-tab-${name}`, "aria-controls": "chat-body" }, t(`chat.tab_${name}`));
    b.addEventListener("click", () => {
      tab = name;
      draw();
    });
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        tab = name === "players" ? "spectators" : "players"; // the other tab of the two
        draw();
        document.getElementById(`chat-tab-${tab}`).focus();
      }
    });
    return b;
  });
  const say = form("chat", (text, input) => {
    const msg = { type: "chat", channel: tab, text };
    send(msg);
    pending.add(msg.id);
    input.value = "";
    error.textContent = "";
  });
  const toggle = el("button", { type: "button", id: "chat-collapse", "aria-expanded": "true", "aria-controls": "chat-body" });
  toggle.addEventListener("click", () => {
    const collapsed = toggle.getAttribute("aria-expanded") === "true";
    localStorage.setItem(collapseKey, collapsed ? "1" : "0");
    draw();
  });
  const body = el("div", { id: "chat-body", role: "tabpanel", "aria-labelledby": "chat-h" }, list, note, say, error);
  host.replaceChildren(el("div", { class: "chat-head" }, el("h2", { id: "chat-h" }, t("chat.title")), toggle), el("div", { class: "chat-tabs", role: "tablist", "aria-label": t("chat.title") }, ...tabs), body);
  host.hidden = chatHidden();

  function join() {
    if (chatHidden()) return;
    joined = true;
    sinceJoin = [];
    // its answer is the chat's own: the room page must not take its ack for the answer to
    // something else (it cleared a refused key's message)
    const msg = { type: "chat_join" };
    send(msg);
    pending.add(msg.id);
  }

  function draw() {
    const collapsed = localStorage.getItem(collapseKey) === "1";
    toggle.setAttribute("aria-expanded", String(!collapsed));
    toggle.textContent = t(collapsed ? "chat.expand" : "chat.collapse");
    body.hidden = collapsed;
    host.querySelector(".chat-tabs").hidden = collapsed;
    for (const b of tabs) {
      const on = b.id === `chat-tab-${tab}`;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    list.replaceChildren(...lines[tab].map((l) => lineItem(l, reportLine)));
    list.setAttribute("aria-label", t(`chat.tab_${tab}`));
    let why = "";
    if (state) {
      if (!state.signed_in) why = "chat.sign_in";
      else if (tab === "players" && !state.player) why = "chat.players_only";
      else if (tab === "players" && !state.players_chat) why = "chat.players_off";
      else if (tab === "spectators" && state.player) why = state.spectators_hidden ? "chat.spectators_hidden" : "chat.spectators_read";
    }
    note.textContent = why ? t(why) : "";
    // no form before the server answered chat_join: a line typed before the socket is open
    // would be lost without a word
    say.hidden = !state || Boolean(why);
    host.dataset.joined = String(Boolean(state));
  }

  draw();
  return {
    opened() {
      if (!chatHidden()) join();
    },
    relabel() {
      tabs.forEach((b, i) => (b.textContent = t(`chat.tab_${["players", "spectators"][i]}`)));
      host.querySelector("#chat-h").textContent = t("chat.title");
      say.querySelector("button").textContent = t("chat.send");
      say.querySelector("input").setAttribute("aria-label", t("chat.say"));
      draw();
    },
    handle(msg) {
      if (msg.type === "update") {
        const now = msg.room.status;
        if (joined && status === "active" && now === "finished") join(); // the held lines, now
        status = now;
        return false;
      }
      if (msg.type === "chat_lines") {
        state = msg;
        const got = new Set(msg.lines.map((l) => l.id));
        const all = msg.lines.concat(sinceJoin.filter((l) => !got.has(l.id))).sort((a, b) => a.id - b.id);
        lines.players = all.filter((l) => l.channel === "players");
        lines.spectators = all.filter((l) => l.channel === "spectators");
        draw();
        return true;
      }
      if (msg.type === "chat") {
        const l = msg.line;
        sinceJoin.push(l);
        if (!lines[l.channel].some((x) => x.id === l.id)) lines[l.channel].push(l);
        draw();
        return true;
      }
      if ((msg.type === "error" || msg.type === "ack") && pending.has(msg.id)) {
        pending.delete(msg.id);
        if (msg.type === "error") error.textContent = refusalText(msg);
        return true;
      }
      return false;
    },
  };
}

/** The tournament page's chat: read by anyone, written by its players (polled). */
export function tournamentChat(host, id) {
  if (chatHidden()) {
    host.hidden = true;
    return;
  }
  let after = 0;
  let lines = [];
  const list = el("ol", { class: "chat-lines", id: "tour-chat-lines", "aria-live": "polite", "aria-labelledby": "tour-chat-h", tabindex: "0" });
  const note = el("p", { class: "hint", id: "tour-chat-note" });
  const error = el("p", { class: "error chat-error", role: "alert" });
  const say = form("tour-chat", async (text, input) => {
    error.textContent = "";
    const res = await fetch(`/api/tournaments/${id}/chat`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text }) });
    if (res.ok) {
      input.value = "";
      poll();
    } else {
      error.textContent = refusalText((await res.json()).error);
    }
  });
  const heading = el("h2", { id: "tour-chat-h" }, t("chat.tournament"));
  host.replaceChildren(heading, list, note, say, error);
  let state = null;

  function draw() {
    heading.textContent = t("chat.tournament");
    say.querySelector("button").textContent = t("chat.send");
    say.querySelector("input").setAttribute("aria-label", t("chat.say"));
    list.replaceChildren(...lines.map((l) => lineItem(l, reportLine)));
    if (!state) return;
    say.hidden = !state.can_write;
    note.textContent = state.can_write ? "" : t(state.signed_in ? "chat.entrants_only" : "chat.sign_in");
  }
  onLangChange(draw);

  async function poll() {
    const res = await fetch(`/api/tournaments/${id}/chat?after=${after}`);
    if (!res.ok) return;
    const got = await res.json();
    lines = lines.concat(got.lines);
    if (got.lines.length) after = got.lines[got.lines.length - 1].id;
    state = got;
    draw();
    host.dataset.ready = "true";
  }
  poll();
  setInterval(() => {
    if (!document.hidden) poll();
  }, 5000);
}

/** The replay's chat: a finished room's lines, both channels in the order they were written
 * (GET /api/rooms/{room}/chat; the server gives them only once the game is over). Hidden when
 * the "chat" setting is off or nobody wrote. */
export async function replayChat(host, roomId) {
  host.hidden = true;
  if (chatHidden()) return;
  let res = null;
  try {
    res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/chat`);
  } catch {
    return;
  }
  if (!res.ok) return;
  const { lines } = await res.json();
  const heading = el("h2", { id: "replay-chat-h" });
  const list = el("ol", { class: "chat-lines", id: "replay-chat-lines", "aria-labelledby": "replay-chat-h", tabindex: "0" });
  host.replaceChildren(heading, list);
  function draw() {
    heading.textContent = t("chat.replay_h");
    list.replaceChildren(...lines.map((l) => lineItem(l, reportLine, { marked: true })));
  }
  draw();
  onLangChange(draw);
  host.hidden = lines.length === 0;
  host.dataset.ready = "true";
}
