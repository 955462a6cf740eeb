// The lobby: every game the server offers (from describe()), and a form to start one.
import { applyStatic, has, lang, localized, mountSwitch, onLangChange, pick, t } from "./i18n.js";
import { api, el, loadRenderer, saveInvites, saveKeys } from "./util.js";
import { openSeek, startMeet } from "./lobby_meet.js";
import { clockChoice, clockValid, drawClock } from "./clock_form.js";

let games = [];
let chosen = null;
let seatCount = 2;
let setsAllowed = false; // two seats taking turns: a reverse match or series may be chosen
const renderers = new Map();

async function main() {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  games = (await api("/api/games")).games;
  await Promise.all(games.map(async (g) => renderers.set(g.id, await loadRenderer(g.id))));
  drawGames();
  startMeet(games);
  await drawMine();
  onLangChange(() => {
    drawMine();
    drawGames();
    startMeet(games);
    if (chosen) drawForm();
  });
  document.getElementById("create-form").addEventListener("submit", create);
  document.getElementById("seek-btn").addEventListener("click", () => {
    const err = document.getElementById("create-error");
    err.textContent = "";
    if (!clockValid()) return;
    openSeek({ game: chosen.id, options: requestOptions(), casual: document.getElementById("casual").checked, clock: clockChoice(chosen) }).catch((e) => {
      err.textContent = t("lobby.error", { msg: e.message });
    });
  });
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) {
    choose(wanted);
    await seatsReady; // ready means the seat list follows the game's options already
  }
  document.body.dataset.ready = "true";
}

const mineInfo = new Map();

/** Rooms this browser holds seat keys for (newest first), so a reload or a closed tab
 * never loses a game. */
async function drawMine() {
  const ids = Object.keys(localStorage).filter((k) => k.startsWith("asobiba.keys.")).map((k) => k.slice(13));
  await Promise.all(ids.filter((id) => !mineInfo.has(id)).slice(0, 20).map(async (id) => {
    const res = await fetch(`/api/rooms/${encodeURIComponent(id)}`);
    mineInfo.set(id, res.ok ? await res.json() : null);
  }));
  const rooms = ids.map((id) => mineInfo.get(id)).filter(Boolean).sort((a, b) => (a.status === b.status ? 0 : a.status === "active" ? -1 : 1));
  document.getElementById("mine").hidden = !rooms.length;
  document.getElementById("mine-list").replaceChildren(...rooms.slice(0, 12).map((r) => el("li", {}, el("a", { href: `/r/${r.id}`, "data-room": r.id }, t(r.status === "active" ? "lobby.mine_item" : "lobby.mine_over", { title: pick(r.title, r.game), ply: r.ply })))));
}

function gameTitle(g) {
  return pick(g.title, g.id);
}

function drawGames() {
  const list = document.getElementById("games");
  list.replaceChildren(
    ...games.map((g) => {
      const r = renderers.get(g.id);
      const summary = pick({ en: g.summary, ja: g.summary_ja || g.summary }); // describe() is the one source
      const seats = g.seats[0] === g.seats[1] ? t("lobby.seats_fixed", { n: g.seats[0] }) : t("lobby.seats_count", { min: g.seats[0], max: g.seats[1] });
      const tags = [seats];
      if (!g.perfect_information) tags.push(t("lobby.hidden"));
      if (g.chance) tags.push(t("lobby.chance"));
      if (r.generic) tags.push(t("lobby.no_renderer"));
      return el(
        "li",
        {},
        el(
          "button",
          { type: "button", class: "game-card" + (chosen && chosen.id === g.id ? " chosen" : ""), "data-game": g.id, onclick: () => choose(g.id) },
          el("span", { class: "game-title" }, gameTitle(g)),
          el("span", { class: "game-summary" }, summary),
          el("span", { class: "tags" }, tags.join(" · ")),
        ),
        el(
          "div",
          { class: "game-links" },
          ...[["tutorial", "nav.tutorial"], ["daily", "nav.daily"], ["ladder", "nav.ladder"], ["leaderboard", "nav.leaderboard"]].map(([path, key]) => el("a", { href: `/${path}/${encodeURIComponent(g.id)}`, "data-link": `${path}-${g.id}` }, t(key))),
          el("a", { href: `/api/print/${encodeURIComponent(g.id)}?lang=${lang()}`, "data-link": `print-${g.id}`, download: "" }, t("nav.print")),
        ),
      );
    }),
  );
}

function choose(id) {
  chosen = games.find((g) => g.id === id);
  document.getElementById("create").hidden = false;
  drawGames();
  drawForm();
  refreshSeats();
  document.getElementById("create").scrollIntoView({ block: "nearest" });
}

function optionLabel(o) {
  const d = localized(o, "description");
  return d || o.name;
}

/** An option value in the page's language: the renderer's "value:<option>:<value>", yes/no
 * for booleans, else the value itself (numbers, board sizes). */
function valueLabel(o, c) {
  const key = `value:${o.name}:${c}`;
  if (has(key, chosen.id)) return t(key, {}, chosen.id);
  if (c === true || c === false) return t(c ? "lobby.yes" : "lobby.no");
  return String(c);
}

function variantLabel(v) {
  const key = `variant:${v}`;
  return has(key, chosen.id) ? t(key, {}, chosen.id) : v;
}

function drawForm() {
  document.getElementById("create-title").textContent = gameTitle(chosen);
  const variants = Object.keys(chosen.variants || {});
  const vrow = document.getElementById("variant-row");
  vrow.replaceChildren();
  if (variants.length) {
    const sel = el("select", { id: "variant", onchange: refreshSeats }, el("option", { value: "" }, t("lobby.variant.none")), ...variants.map((v) => el("option", { value: v }, variantLabel(v))));
    vrow.append(el("label", { for: "variant" }, t("lobby.variant")), sel);
  }
  const box = document.getElementById("options");
  const kept = readOptions();
  box.replaceChildren(el("legend", {}, t("lobby.options")));
  for (const o of chosen.options) {
    const id = `opt-${o.name}`;
    let input;
    const value = o.name in kept ? kept[o.name] : o.default;
    if (o.default === null && (o.kind === "bool" || o.kind === "choice")) {
      const values = o.kind === "bool" ? [true, false] : o.choices;
      input = el("select", { id, "data-option": o.name }, el("option", { value: "null" }, t("lobby.variant.none")), ...values.map((c) => el("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(value) }, valueLabel(o, c))));
    } else if (o.kind === "choice") {
      input = el("select", { id, "data-option": o.name }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(value) }, valueLabel(o, c))));
    } else if (o.kind === "bool") {
      input = el("input", { id, type: "checkbox", "data-option": o.name, checked: !!value });
    } else if (o.kind === "int") {
      input = el("input", { id, type: "number", "data-option": o.name, value: value ?? "" });
    } else {
      input = el("input", { id, type: "text", "data-option": o.name, value: value ?? "" });
    }
    input.addEventListener("change", refreshSeats);
    box.append(el("div", { class: "row" }, el("label", { for: id, title: o.name }, optionLabel(o)), input));
  }
  box.hidden = chosen.options.length === 0;
  // undo exists only where taking a move back reveals nothing (perfect information, no
  // chance); elsewhere "casual" means unrated and nothing more
  const undoable = chosen.perfect_information && !chosen.chance;
  document.getElementById("casual-label").textContent = t(undoable ? "lobby.casual_undo" : "lobby.casual_only");
  drawClock(chosen);
  drawSeats();
  drawMatch();
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") out[name] = input.checked;
    else if (input.tagName === "SELECT") out[name] = JSON.parse(input.value);
    else if (input.type === "number") out[name] = input.value === "" ? null : Number(input.value);
    else out[name] = input.value;
  }
  return out;
}

function requestOptions() {
  const options = {};
  const raw = readOptions();
  for (const o of chosen.options) {
    if (raw[o.name] !== undefined && raw[o.name] !== null && JSON.stringify(raw[o.name]) !== JSON.stringify(o.default)) options[o.name] = raw[o.name];
  }
  const variant = document.getElementById("variant");
  if (variant && variant.value) options.variant = variant.value;
  return options;
}

// the seat list follows the options through /api/seats; create() waits for the latest answer,
// so a quick click never sends the old number of seats
let seatsReady = Promise.resolve();

function refreshSeats() {
  seatsReady = loadSeats();
  return seatsReady;
}

async function loadSeats() {
  const err = document.getElementById("create-error");
  err.textContent = "";
  try {
    const res = await api("/api/seats", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: chosen.id, options: requestOptions() }) });
    seatCount = res.seats;
    setsAllowed = !!res.sets;
  } catch (e) {
    err.textContent = t("lobby.error", { msg: e.message });
  }
  drawSeats();
  drawMatch();
}

const MATCHES = [["single", null], ["reverse", null], ["best_of", 3], ["best_of", 5], ["best_of", 7]];

function drawMatch() {
  const sel = document.getElementById("match");
  const kept = sel.value;
  sel.replaceChildren(...MATCHES.map(([kind, n], i) => el("option", { value: String(i) }, n ? t("lobby.match.best_of", { n }) : t(`lobby.match.${kind}`))));
  sel.value = setsAllowed ? kept || "0" : "0";
  document.getElementById("match-row").hidden = !setsAllowed;
  // an open game is one game between two people taking turns (the same test as a set)
  document.getElementById("seek-btn").hidden = !setsAllowed;
}

function matchChoice() {
  const [kind, n] = MATCHES[Number(document.getElementById("match").value) || 0];
  if (!setsAllowed || kind === "single") return undefined;
  return n ? { format: kind, games: n } : kind;
}

function drawSeats() {
  const box = document.getElementById("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", {}, t("lobby.seats")));
  const bots = chosen.bots || [];
  for (let i = 0; i < seatCount; i++) {
    const id = `seat-${i}`;
    const choices = [el("option", { value: "you" }, t("lobby.you")), el("option", { value: "friend" }, t("lobby.friend"))];
    for (const b of bots) choices.push(el("option", { value: `bot:${b.level}` }, t("lobby.cpu", { level: localized(b, "title") })));
    const sel = el("select", { id, "data-seat": i }, ...choices);
    const fallback = i === 0 || bots.length === 0 ? "you" : `bot:${bots[0].level}`;
    sel.value = before[i] || fallback;
    box.append(el("div", { class: "row" }, el("label", { for: id }, t("lobby.seat", { n: i + 1 })), sel));
  }
}

async function create(event) {
  event.preventDefault();
  const btn = document.getElementById("create-btn");
  const err = document.getElementById("create-error");
  btn.disabled = true;
  let pending;
  do {
    pending = seatsReady;
    await pending;
  } while (pending !== seatsReady);
  err.textContent = "";
  const picks = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  const seats = picks.map((p) => (p.startsWith("bot:") ? { kind: "bot", level: p.slice(4) } : { kind: "human" }));
  const you = picks.filter((p) => p === "you").length;
  btn.disabled = true;
  btn.textContent = t("lobby.creating");
  try {
    const res = await api("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: chosen.id, options: requestOptions(), seats, casual: document.getElementById("casual").checked, hotseat: you > 1, clock: clockChoice(chosen), match: matchChoice() }),
    });
    const mine = res.keys.filter((k) => picks[k.seat] === "you");
    const invites = res.keys.filter((k) => picks[k.seat] === "friend");
    saveKeys(res.room, mine);
    saveInvites(res.room, invites);
    location.href = res.url;
  } catch (e) {
    err.textContent = t("lobby.error", { msg: e.message });
    btn.disabled = false;
    btn.textContent = t("lobby.create");
  }
}

main();
