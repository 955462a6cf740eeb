// A person's settings (issue 27 item 5), loaded by every page: kept in this browser
// (localStorage "asobiba.settings") and, when signed in, on the account as well
// (GET/PUT /api/account/settings; the account's copy wins when a page loads). Applying them
// is immediate: the root element carries data-theme / data-board / data-coords / data-anim
// (app.css follows them), the language goes through i18n.js, the sound switch is sound.js's.
// Also the turn notices of a game page (item 6): the tab's title and favicon say when it is
// this browser's turn, an optional system notification when the tab is hidden, and a tone.
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { httpError } from "./util.js";
import "./notices.js"; // challenges on every page (issue 28)

const KEY = "asobiba.settings";
const LANG_COOKIE = "asobiba_lang";

/** Every setting with its allowed values, the first the default. The server keeps the same
 * table (asobiba/server/account_settings.py); tests/web/test_settings.py compares them. */
export const CHOICES = {
  lang: ["auto", "en", "ja"],
  theme: ["system", "light", "dark"],
  board: ["classic", "wood", "contrast"],
  coords: ["on", "off"],
  sound: ["off", "on"],
  tone: ["chime", "bell", "wood"],
  notify: ["off", "on"],
  // move-quality feedback: "auto" = after moves against the computer only, never in a
  // game between people; "on" = in every casual game; never in a rated game whatever it says
  feedback: ["auto", "on", "off"],
  confirm: ["off", "on"],
  anim: ["normal", "fast", "off"],
  chat: ["on", "off"], // every chat panel (chat.js); "off": no page joins any chat
};

function valid(s) {
  const out = {};
  for (const [k, allowed] of Object.entries(CHOICES)) out[k] = s && allowed.includes(s[k]) ? s[k] : allowed[0];
  return out;
}

function readLocal() {
  let s = {};
  try {
    s = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    s = {};
  }
  // the older switches (language button, sound box) stay the source of those two
  const savedLang = localStorage.getItem("asobiba.lang");
  if (savedLang === "en" || savedLang === "ja") s.lang = savedLang;
  if (localStorage.getItem("asobiba.sound") !== null) s.sound = localStorage.getItem("asobiba.sound") === "1" ? "on" : "off";
  return valid(s);
}

let current = readLocal();
let account = false; // signed in: changes are stored on the account too
const listeners = [];

export function get() {
  return { ...current };
}

export function onChange(fn) {
  listeners.push(fn);
}

function writeCookie(code) {
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
}

function apply() {
  const root = document.documentElement;
  root.dataset.theme = current.theme;
  root.dataset.board = current.board;
  root.dataset.coords = current.coords;
  root.dataset.anim = current.anim;
  localStorage.setItem("asobiba.sound", current.sound === "on" ? "1" : "0");
  const box = document.getElementById("sound");
  if (box && box.type === "checkbox") box.checked = current.sound === "on";
  if (current.lang !== "auto" && current.lang !== lang()) setLang(current.lang);
  if (current.lang !== "auto") writeCookie(current.lang);
  for (const fn of listeners) fn(get());
}

function saveLocal() {
  localStorage.setItem(KEY, JSON.stringify(current));
  if (current.lang === "auto") localStorage.removeItem("asobiba.lang");
}

/** Change settings: applied at once, kept here, and sent to the account when signed in.
 * Resolves with the server's answer (or null for a guest); rejects with its error. */
export async function update(changes) {
  current = valid({ ...current, ...changes });
  saveLocal();
  apply();
  if (!account) return null;
  const res = await fetch("/api/account/settings", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ settings: current }),
  });
  const body = await res.json();
  if (!res.ok) throw httpError(body, res.status);
  return body;
}

/** Whether the account's copy has been read (or there is no account): the settings page
 * and the tests wait for it. */
export const ready = (async () => {
  try {
    const res = await fetch("/api/account/settings", { credentials: "same-origin" });
    if (res.ok) {
      const body = await res.json();
      account = true;
      if (body.settings && Object.keys(body.settings).length) {
        current = valid({ ...current, ...body.settings });
        saveLocal();
      } else {
        // a first visit signed in: this browser's settings become the account's
        fetch("/api/account/settings", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ settings: current }) }).catch(() => {});
      }
    }
  } catch {
    // no server answer: this browser's settings stand
  }
  apply();
  document.documentElement.dataset.settings = account ? "account" : "local";
})();

/** Whether the move-quality badge may be shown in this room (never in a rated game). */
export function feedbackAllowed(room) {
  if (!room || !room.casual) return false;
  if (current.feedback === "off") return false;
  if (current.feedback === "on") return true;
  return (room.seats || []).some((s) => s.kind === "bot");
}

/** With "confirm moves" on, a move is played only after the person says yes. */
export function confirmMove(label) {
  if (current.confirm !== "on") return true;
  return window.confirm(t("settings.confirm_prompt", { move: label }));
}

// ---- turn notices (a game page) --------------------------------------------------------
const TONES = {
  chime: [[784, 1047], "sine"],
  bell: [[1319, 988], "triangle"],
  wood: [[330, 262], "square"],
};
let audio = null;

export function playTone(name = current.tone) {
  const [freqs, type] = TONES[name] || TONES.chime;
  document.body.dataset.turnTone = name;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const f of freqs) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.14);
      at += 0.12;
    }
  } catch {
    // no audio device
  }
}

function favicon(color) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  const dot = color ? `<circle cx='16' cy='16' r='12' fill='${color}'/>` : "";
  link.href = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>${dot}</svg>`)}`;
  link.dataset.turn = color ? "true" : "false";
}

function watchTurns() {
  const body = document.body;
  const titleEl = document.querySelector("title");
  let mine = false;
  const mark = () => {
    const prefix = `● ${t("room.turn_you")} — `;
    const base = document.title.startsWith("● ") ? document.title.slice(document.title.indexOf(" — ") + 3) : document.title;
    const want = mine ? prefix + base : base;
    if (document.title !== want) document.title = want;
  };
  const turn = () => {
    const now = body.dataset.myTurn === "true" && body.dataset.status !== "finished";
    if (now === mine) return;
    mine = now;
    favicon(mine ? "#d62d20" : null);
    mark();
    if (!mine) return;
    if (current.sound === "on") playTone();
    if (current.notify === "on" && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(t("room.turn_you"), { body: document.title, tag: "asobiba-turn" });
      } catch {
        // notifications unavailable here
      }
    }
  };
  new MutationObserver(turn).observe(body, { attributes: true, attributeFilter: ["data-my-turn", "data-status"] });
  if (titleEl) new MutationObserver(mark).observe(titleEl, { childList: true, characterData: true, subtree: true });
  onLangChange(mark);
  turn();
}

if (typeof document !== "undefined") {
  apply();
  onLangChange((code) => {
    if (current.lang !== code) {
      current = { ...current, lang: code };
      saveLocal();
      if (account) update({}).catch(() => {});
    }
    writeCookie(code);
  });
  const start = () => {
    if (document.body.classList.contains("room") && !document.body.classList.contains("tutorial")) watchTurns();
  };
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
}
