// The lobby: every game the server offers (from describe()), each card with a one-tap start
// ("Play the computer" at a shown, changeable level; "Play a friend") and the full form,
// opened inside the card.
import { challengeFrame, challengeTarget, drawChallengeSeats, sendChallenge } from "./challenge_form.js";
import { mountFollowing } from "./people.js";
import { applyStatic, has, lang, localized, mountSwitch, onLangChange, pick, t } from "./i18n.js";
import { api, el, loadRenderer, saveInvites, saveKeys } from "./util.js";
import { openSeek, startMeet } from "./lobby_meet.js";
import { clockChoice, clockValid, drawClock } from "./clock_form.js";
import { orderedBots } from "./cpu.js";

let games = [];
let chosen = null;
let formGame = null; // the game the form's inputs were drawn for
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
    openSeek({ game: chosen.id, options: requestOptions(), casual: casualChoice(), clock: clockChoice(chosen) }).catch((e) => {
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

// ---- the game cards: start in one tap (issue 27) ------------------------------------------
const levelPick = new Map(); // game id → the CPU level chosen on its card

function levelOf(g) {
  return levelPick.get(g.id) || g.default_bot || (orderedBots(g)[0] || {}).level;
}

/** An option of a level select: its title, the game's suggested one marked. */
function levelOption(g, b, selected) {
  const title = localized(b, "title");
  return el("option", { value: b.level, selected }, b.level === g.default_bot ? t("lobby.suggested", { level: title }) : title);
}

/** The form's home when no card holds it (a card's redraw must not take it away). */
function parkForm() {
  const create = document.getElementById("create");
  const home = document.getElementById("games-section");
  if (create.parentElement !== home) home.append(create);
}

function drawGames() {
  parkForm();
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
      const bots = orderedBots(g);
      const open = !!(chosen && chosen.id === g.id);
      const level = levelOf(g);
      return el(
        "li",
        { class: "game-item" + (open ? " open" : ""), "data-card": g.id },
        el(
          "div",
          { class: "game-card" + (open ? " chosen" : "") },
          el("h2", { class: "game-title", id: `title-${g.id}` }, gameTitle(g)),
          el("p", { class: "game-summary" }, summary),
          el("p", { class: "tags" }, tags.join(" · ")),
          el(
            "div",
            { class: "quick", role: "group", "aria-labelledby": `title-${g.id}` },
            bots.length
              ? el(
                  "div",
                  { class: "row level-row" },
                  el("label", { for: `level-${g.id}` }, t("lobby.cpu_level")),
                  el("select", { id: `level-${g.id}`, "data-level": g.id, onchange: (e) => levelPick.set(g.id, e.target.value) }, ...bots.map((b) => levelOption(g, b, b.level === level))),
                )
              : null,
            el(
              "div",
              { class: "row start-row" },
              bots.length ? el("button", { type: "button", class: "primary", "data-play-cpu": g.id, onclick: (e) => quickStart(g, "cpu", e.currentTarget) }, t("lobby.play_cpu")) : null,
              el("button", { type: "button", "data-play-friend": g.id, onclick: (e) => quickStart(g, "friend", e.currentTarget) }, t("lobby.play_friend")),
              el("button", { type: "button", class: "more", "data-game": g.id, "aria-expanded": String(open), "aria-controls": "create", onclick: () => choose(g.id, true) }, t("lobby.all_options")),
            ),
            el("p", { class: "error", role: "alert", id: `start-error-${g.id}` }),
          ),
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
  if (chosen) placeForm();
}

async function seatsFor(game, options) {
  const res = await api("/api/seats", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game, options }) });
  return res.seats;
}

/** "Play the computer": the game's standard options, you in the first seat and the card's
 * CPU level in every other (a one-seat game is played as two: you and one CPU sheet).
 * "Play a friend": you and one friend (the game's player count set to two where it has
 * one), then the game page with the invite link. Both casual: a CPU game is never rated. */
async function quickStart(g, mode, button) {
  const err = document.getElementById(`start-error-${g.id}`);
  const card = document.querySelector(`[data-card="${g.id}"]`);
  const buttons = [...card.querySelectorAll(".start-row button")];
  const label = button.textContent;
  err.textContent = "";
  buttons.forEach((b) => (b.disabled = true));
  button.textContent = t("lobby.starting");
  try {
    const options = {};
    let n = await seatsFor(g.id, options);
    const want = mode === "friend" ? 2 : Math.max(2, n);
    const players = g.options.find((o) => o.name === "players" && o.kind === "int");
    if (n !== want && players && (players.minimum ?? 0) <= want && want <= (players.maximum ?? want)) {
      options.players = want;
      n = await seatsFor(g.id, options);
    }
    const level = levelOf(g);
    const seats = Array.from({ length: n }, (_, i) => (i > 0 && mode === "cpu" ? { kind: "bot", level } : { kind: "human" }));
    const res = await api("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: g.id, options, seats, casual: true, hotseat: false, clock: null }),
    });
    saveKeys(res.room, res.keys.filter((k) => k.seat === 0));
    saveInvites(res.room, res.keys.filter((k) => k.seat !== 0));
    location.href = res.url;
  } catch (e) {
    err.textContent = t("lobby.error", { msg: e.message });
    buttons.forEach((b) => (b.disabled = false));
    button.textContent = label;
  }
}

/** The full form sits in the chosen card's list item (the item spans the row). */
function placeForm() {
  const item = document.querySelector(`[data-card="${chosen.id}"]`);
  const create = document.getElementById("create");
  if (item && create.parentElement !== item) item.append(create);
}

/** Open the full form for a game (``toggle``: the card's button closes it again). The focus
 * goes into the form — the first control — and never drops to the page. */
function choose(id, toggle = false) {
  const create = document.getElementById("create");
  if (toggle && chosen && chosen.id === id && !create.hidden) {
    create.hidden = true;
    chosen = null;
    for (const item of document.querySelectorAll("[data-card]")) markOpen(item, false);
    parkForm();
    document.querySelector(`[data-game="${id}"]`).focus();
    return;
  }
  chosen = games.find((g) => g.id === id);
  for (const item of document.querySelectorAll("[data-card]")) markOpen(item, item.dataset.card === id);
  placeForm();
  create.hidden = false;
  drawForm();
  refreshSeats();
  const first = create.querySelector("#create-form select, #create-form input, #create-form button");
  if (first) first.focus();
  create.scrollIntoView({ block: "nearest" });
}

function markOpen(item, open) {
  item.classList.toggle("open", open);
  item.querySelector(".game-card").classList.toggle("chosen", open);
  item.querySelector("[data-game]").setAttribute("aria-expanded", String(open));
}

/** An option's name and its one-line help in players' words: the table's
 * "<game>.opt:<name>" and "<game>.help:<name>", else describe()'s description. */
function optionLabel(o) {
  const key = `opt:${o.name}`;
  if (has(key, chosen.id)) return t(key, {}, chosen.id);
  return localized(o, "description") || o.name;
}

function optionHelp(o) {
  const key = `help:${o.name}`;
  return has(key, chosen.id) ? t(key, {}, chosen.id) : "";
}

/** An option value in the page's language: the table's "value:<option>:<value>", else its
 * "value:<option>" pattern ({n}: the value counted from 1, for seats), yes/no for booleans,
 * else the value itself (numbers, board sizes). */
function valueLabel(o, c) {
  const key = `value:${o.name}:${c}`;
  if (has(key, chosen.id)) return t(key, {}, chosen.id);
  if (typeof c === "number" && has(`value:${o.name}`, chosen.id)) return t(`value:${o.name}`, { n: c + 1, value: c }, chosen.id);
  if (c === true || c === false) return t(c ? "lobby.yes" : "lobby.no");
  return String(c);
}

function variantLabel(v) {
  const key = `variant:${v}`;
  return has(key, chosen.id) ? t(key, {}, chosen.id) : v;
}

const INLINE_OPTIONS = 3; // a game with more options shows them under "More rules"
const SELECT_RANGE = 16; // a bounded number with at most this many values is a select

function optionInput(o, value, id) {
  const described = optionHelp(o) ? `help-${o.name}` : null;
  const common = { id, "data-option": o.name, "aria-describedby": described };
  const bounded = o.kind === "int" && o.minimum !== null && o.minimum !== undefined && o.maximum !== null && o.maximum !== undefined && o.maximum - o.minimum < SELECT_RANGE;
  let values = null;
  if (o.kind === "choice") values = o.choices;
  else if (bounded) values = Array.from({ length: o.maximum - o.minimum + 1 }, (_, i) => o.minimum + i);
  else if (o.kind === "bool" && o.default === null) values = [true, false];
  if (values) {
    const auto = o.default === null ? [el("option", { value: "null" }, t("lobby.auto"))] : [];
    return el("select", common, ...auto, ...values.map((c) => el("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(value) }, valueLabel(o, c))));
  }
  if (o.kind === "bool") return el("input", { ...common, type: "checkbox", checked: !!value });
  if (o.kind === "int") return el("input", { ...common, type: "number", value: value ?? "" });
  return el("input", { ...common, type: "text", value: value ?? "", autocomplete: "off", spellcheck: "false" });
}

function optionRow(o, kept) {
  const id = `opt-${o.name}`;
  const input = optionInput(o, o.name in kept ? kept[o.name] : o.default, id);
  input.addEventListener("change", refreshSeats);
  const help = optionHelp(o);
  const head = input.type === "checkbox"
    ? el("div", { class: "row" }, el("label", { class: "check" }, input, " ", optionLabel(o)))
    : el("div", { class: "row" }, el("label", { for: id }, optionLabel(o)), input);
  return el("div", { class: "opt" }, head, help ? el("p", { class: "help", id: `help-${o.name}` }, help) : null);
}

function drawForm() {
  document.getElementById("create-title").textContent = gameTitle(chosen);
  const variants = Object.keys(chosen.variants || {});
  const vrow = document.getElementById("variant-row");
  vrow.replaceChildren();
  if (variants.length) {
    const sel = el("select", { id: "variant", onchange: refreshSeats, "aria-describedby": "variant-help" }, el("option", { value: "" }, t("lobby.variant.none")), ...variants.map((v) => el("option", { value: v }, variantLabel(v))));
    vrow.append(el("div", { class: "row" }, el("label", { for: "variant" }, t("lobby.variant")), sel), el("p", { class: "help", id: "variant-help" }, t("lobby.variant_help")));
  }
  const box = document.getElementById("options");
  const same = formGame === chosen.id;
  const kept = same ? readOptions() : {};
  const opened = same && !!document.querySelector("#more-options[open]");
  if (!same) document.getElementById("seats").replaceChildren(); // no seats of another game
  formGame = chosen.id;
  box.replaceChildren(el("legend", {}, t("lobby.options")));
  // the player count decides the seats: always in sight; the rest folds away when many
  const many = chosen.options.length > INLINE_OPTIONS;
  const inline = chosen.options.filter((o) => !many || o.name === "players");
  const folded = chosen.options.filter((o) => !inline.includes(o));
  for (const o of inline) box.append(optionRow(o, kept));
  if (folded.length) {
    box.append(el("details", { id: "more-options", open: opened }, el("summary", {}, t("lobby.more_rules", { n: folded.length })), ...folded.map((o) => optionRow(o, kept))));
  }
  box.hidden = chosen.options.length === 0;
  drawClock(chosen);
  fitSeatOptions();
  drawSeats();
  drawMatch();
  if (challengeTarget()) challengeFrame();
}

/** The selects of seat-numbered options (Algo's dealer). */
function seatSelects() {
  return (chosen.options || []).filter((o) => o.seat).map((o) => [o, document.getElementById(`opt-${o.name}`)]).filter(([, sel]) => sel && sel.tagName === "SELECT");
}

/** Put every seat-numbered option back on the first seat; true if one was elsewhere. */
function resetSeatOptions() {
  let moved = false;
  for (const [o, sel] of seatSelects()) {
    const first = JSON.stringify(o.minimum ?? 0);
    if (sel.value !== first) {
      sel.value = first;
      moved = true;
    }
  }
  return moved;
}

/** A seat-numbered option offers only the seats this table has. */
function fitSeatOptions() {
  for (const [, sel] of seatSelects()) {
    for (const opt of sel.options) {
      const v = JSON.parse(opt.value);
      const out = typeof v === "number" && v >= seatCount;
      opt.hidden = out;
      opt.disabled = out;
    }
  }
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
  const ask = () => api("/api/seats", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: chosen.id, options: requestOptions() }) });
  try {
    let res;
    try {
      res = await ask();
    } catch (e) {
      // fewer players than the chosen dealer's seat: the dealer falls back to the first seat
      if (!resetSeatOptions()) throw e;
      res = await ask();
    }
    seatCount = res.seats;
    setsAllowed = !!res.sets;
  } catch (e) {
    err.textContent = t("lobby.error", { msg: e.message });
  }
  fitSeatOptions();
  drawSeats();
  drawMatch();
  if (challengeTarget()) challengeFrame();
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
  if (challengeTarget()) { // a challenge: the colour instead of the seats (issue 28)
    drawChallengeSeats(box);
    drawCasual();
    return;
  }
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const focused = box.contains(document.activeElement) ? document.activeElement.id : null;
  box.replaceChildren(el("legend", {}, t("lobby.seats")));
  const bots = orderedBots(chosen); // weakest first, the suggested level marked
  const level = levelOf(chosen);
  for (let i = 0; i < seatCount; i++) {
    const id = `seat-${i}`;
    const choices = [el("option", { value: "you" }, t("lobby.you")), el("option", { value: "friend" }, t("lobby.friend"))];
    for (const b of bots) {
      const title = localized(b, "title");
      choices.push(el("option", { value: `bot:${b.level}` }, t("lobby.cpu", { level: b.level === chosen.default_bot ? t("lobby.suggested", { level: title }) : title })));
    }
    const sel = el("select", { id, "data-seat": i, onchange: drawCasual }, ...choices);
    const fallback = i === 0 || bots.length === 0 ? "you" : `bot:${level}`;
    sel.value = before[i] && choices.some((c) => c.value === before[i]) ? before[i] : fallback;
    box.append(el("div", { class: "row" }, el("label", { for: id }, t("lobby.seat", { n: i + 1 })), sel));
  }
  // the seat list is redrawn when the options change: the focus stays on its seat
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  drawCasual();
}

/** Casual or rated. A game with a CPU seat is never rated (the server's unrated code
 * "cpu"), so no rated choice is offered there: the box gives way to a note saying so. */
function drawCasual() {
  const undoable = chosen.perfect_information && !chosen.chance; // undo reveals nothing there
  const cpu = [...document.querySelectorAll("[data-seat]")].some((s) => s.value.startsWith("bot:"));
  document.getElementById("casual-label").textContent = t(undoable ? "lobby.casual_undo" : "lobby.casual_only");
  document.getElementById("casual-row").hidden = cpu;
  const note = document.getElementById("cpu-note");
  note.hidden = !cpu;
  note.textContent = t(undoable ? "lobby.cpu_unrated_undo" : "lobby.cpu_unrated");
}

function casualChoice() {
  const cpu = [...document.querySelectorAll("[data-seat]")].some((s) => s.value.startsWith("bot:"));
  return cpu || document.getElementById("casual").checked;
}

async function create(event) {
  event.preventDefault();
  if (challengeTarget()) return sendChallenge(chosen.id, requestOptions(), casualChoice(), clockChoice(chosen));
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
      body: JSON.stringify({ game: chosen.id, options: requestOptions(), seats, casual: casualChoice(), hotseat: you > 1, clock: clockChoice(chosen), match: matchChoice() }),
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
mountFollowing(document.getElementById("following")).catch(() => {});
