// The game page: one WebSocket to the room, the generic frame (status, seats, score, legal
// moves, actions, result, move log) around the game's own SVG renderer.
import { applyStatic, lang, localized, mountSwitch, onLangChange, pick, t } from "./i18n.js";
import { reasonText as endText, refusalText } from "./codes.js";
import { el, loadInvites, loadKeys, loadRenderer, saveKeys } from "./util.js";
import { roomProgress } from "./room_progress.js";
import { confirmMove } from "./settings.js";
import { drawSet } from "./room_set.js";
import { drawClaims, noteText } from "./room_notes.js";
import { keepFocus, restoreFocus, watchFocus } from "./focus.js";
import { drawRules } from "./rules_panel.js";
import { sounds } from "./sound.js";
import { drawMoveList, isPaired } from "./movelist.js";
import { armBoard, boardKeys } from "./board.js";
import { clockText } from "./clock_view.js";
import { drawPremove, premoveAllowed, premoveCandidates, premoveOnTurn, queuePremove } from "./premove.js";
import { roomChat } from "./chat.js";

const roomId = decodeURIComponent(location.pathname.split("/").pop());
let ws = null;
let renderer = null;
let last = null; // the last "update" message
let shownSeat = null; // the seat whose view is on screen (hot-seat: changes hands)
let handoverTo = null; // hot-seat with secrets: the seat waiting behind the hand-over screen
const prevViews = new Map();
let msgId = 0;
let retry = 0;
let stopped = false;
let rematch = null;
let setNext = null; // the set's next room, once the server gave this browser its keys there
let setAsked = false; // this page asked for the set's next game: go there when it exists
// ---- the move list: every position a seat has seen, so a player can step back and forth
const seen = new Map(); // "s0" / "spec" → views by ply (index 0 = the start; holes: not yet had)
let historyAsked = null; // the id of the history page asked for and not yet answered
let historyWant = null; // a ply the person stepped to before its page arrived
let syncAsked = false; // a gap in the moves: the whole room was asked for once
// the id of a hello not yet answered: until it is, an update shows the room as a spectator
// sees it (the server sends one on connect), so the page waits rather than flash that view
let helloPending = null;
let claimed = new Set(); // the seats that hello asked for
let stepAt = null; // the ply shown while stepping through the moves; null = the live game
let reviewed = -1; // hot-seat: the ply up to which the last mover has seen their own result
let rulesDrawn = "";

let chat = null; // the chat panel (chat.js)

function takeFragment() {
  // Invite links carry "#seat=N&key=K"; keep the key in this browser and drop it from the URL.
  if (!location.hash) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const key = params.get("key");
  if (seat !== null && key) saveKeys(roomId, [{ seat: Number(seat), key }]);
  history.replaceState(null, "", location.pathname + location.search);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(roomId)}`);
  ws.addEventListener("open", () => {
    retry = 0;
    helloPending = null;
    const keys = loadKeys(roomId);
    // a move's acknowledgement comes in the update that shows it (one message, not two)
    if (keys.length) {
      send({ type: "hello", seats: keys, ack_in_update: true });
      helloPending = msgId;
      claimed = new Set(keys.map((k) => k.seat));
    }
    if (chat) chat.opened(); // after the hello: the server knows this socket's seats
  });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => {
    if (event.code === 4404 || stopped) return;
    setStatus(t("room.reconnecting"));
    document.body.dataset.connected = "false";
    retry = Math.min(retry + 1, 4);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

function send(msg) {
  msg.id = ++msgId;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

/** An update carries only the moves this page has not been sent (from ``room.moves_from``
 * on): join them to the ones it holds. A gap (an update missed) asks the server for the whole
 * room once (``sync``) and drops this one; true when the update is whole. */
function joinMoves(msg) {
  const from = msg.room.moves_from;
  if (from === undefined) {
    syncAsked = false;
    return true;
  }
  const have = last ? last.room.moves : null;
  if (!have || have.length < from) {
    if (!syncAsked) send({ type: "sync" });
    syncAsked = true;
    return false;
  }
  msg.room.moves = have.slice(0, from).concat(msg.room.moves);
  delete msg.room.moves_from;
  return true;
}

function receive(msg) {
  if (chat && chat.handle(msg)) return;
  if (msg.type === "update") {
    if (msg.ack !== undefined) showError(""); // this page's move was stored
    if (!joinMoves(msg)) return;
    sounds.update(last, msg);
    last = msg;
    for (const v of msg.views) remember(v.seat, msg.room.ply, v.view);
    if (helloPending !== null && msg.views.some((v) => claimed.has(v.seat))) helloPending = null;
    if (helloPending === null) shown();
  } else if (msg.type === "error") {
    if (historyAsked !== null && msg.id === historyAsked) {
      // the history is sent within a byte budget: ask again when the server says, quietly
      const wait = msg.code === "too_fast" && typeof msg.retry_after === "number" ? msg.retry_after : null;
      if (wait === null) historyAsked = null;
      else setTimeout(() => { historyAsked = null; askHistory(); }, wait * 1000);
      return;
    }
    if (helloPending !== null && msg.id === helloPending) {
      helloPending = null; // a key was refused: the page shows what this connection may see
      if (last) shown();
    }
    if (msg.code === "no_room") {
      stopped = true;
      setStatus(t("room.no_room"));
      document.body.dataset.status = "missing";
      return;
    }
    showError(refusalText(msg, renderer && renderer.game));
  } else if (msg.type === "rematch") {
    saveKeys(msg.room, msg.keys);
    rematch = msg.room;
    if (last) draw();
  } else if (msg.type === "set_next") {
    // the same keys this browser already holds, at the seats they have in the next game
    saveKeys(msg.room, msg.keys);
    setNext = msg.room;
    if (setAsked) location.href = `/r/${encodeURIComponent(msg.room)}`;
    else if (last) draw();
  } else if (msg.type === "history") {
    historyAsked = null;
    let filled = 0;
    for (const h of msg.views) {
      const list = seen.get(seenKey(h.seat)) || [];
      h.views.forEach((v, i) => {
        if (list[msg.from + i] === undefined) {
          list[msg.from + i] = v;
          filled++;
        }
      });
      seen.set(seenKey(h.seat), list);
    }
    if (historyWant !== null && seenAt(shownSeat, historyWant) !== undefined) {
      stepAt = historyWant;
      historyWant = null;
    }
    if (filled) askHistory(); // (a page that filled nothing: wait for the next update)
    if (last) draw();
  } else if (msg.type === "ack") {
    if (helloPending !== null && msg.id === helloPending) {
      helloPending = null;
      if (last) shown();
    }
    showError("");
  }
}

/** The room is on screen and live (``data-connected``: the tests wait for it). */
function shown() {
  document.body.dataset.connected = "true";
  draw();
}

function seenKey(seat) {
  // eslint-disable-next-line asobiba/ui-strings -- a storage key, never shown
  return seat === null || seat === undefined ? "spec" : `s${seat}`;
}

/** Keep each view this page receives by ply; a gap (a reload, a missed update) is filled
 * page by page from the server's ``history`` (views_for: only what the seat has seen). */
function remember(seat, ply, view) {
  const key = seenKey(seat);
  const list = seen.get(key) || [];
  if (list.length > ply) list.length = ply; // an undo took moves back
  list[ply] = view;
  seen.set(key, list);
  askHistory();
}

/** The first position some seat shown now has no view of, or null (only the seats of the
 * last update: the server's history pages hold exactly those). */
function firstHole() {
  let hole = null;
  const keys = last ? last.views.map((v) => seenKey(v.seat)) : [];
  for (const list of keys.map((k) => seen.get(k) || [])) {
    for (let i = 0; i < list.length && (hole === null || i < hole); i++) {
      if (list[i] === undefined) {
        hole = i;
        break;
      }
    }
  }
  return hole;
}

/** Ask for the next page of history this page lacks (one page at a time: the server sends
 * history within a byte budget; a wanted ply first). */
function askHistory() {
  if (historyAsked !== null) return;
  const want = historyWant !== null && seenAt(shownSeat, historyWant) === undefined ? historyWant : null;
  const from = want !== null ? want : firstHole();
  if (from === null) return;
  send({ type: "history", from });
  historyAsked = msgId;
}

function seenAt(seat, ply) {
  const list = seen.get(seenKey(seat));
  return list ? list[ply] : undefined;
}

function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text ? t("room.error", { msg: text }) : "";
}

function setStatus(text) {
  document.getElementById("status").textContent = text;
}

// ---- what to show ------------------------------------------------------------------------
function tt(key, params) {
  return t(key, params, renderer && renderer.game);
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const info = last.room.seats[seat];
  const base = renderer.seatName ? renderer.seatName(seat, ctxBase()) : tt("room.seat_name", { n: seat + 1 });
  if (info && info.kind === "bot") return `${base} (${tt("room.bot", { level: levelTitle(info.level) })})`;
  if (info && info.name) return `${base} (${info.name})`;
  return base;
}

function levelTitle(level) {
  const bot = (window.__gameInfo && window.__gameInfo.bots || []).find((b) => b.level === level);
  if (!bot) return level;
  return localized(bot, "title");
}

function pickView() {
  const views = last.views;
  const you = last.you;
  if (!you.length) return views[0];
  const bySeat = new Map(views.map((v) => [v.seat, v]));
  const acting = views[0].view.acting.filter((s) => you.includes(s));
  let seat = shownSeat !== null && bySeat.has(shownSeat) ? shownSeat : you[0];
  if (acting.length && !acting.includes(seat)) seat = acting[0];
  const secret = !last.room.perfect_information && you.length > 1 && !views[0].view.over;
  // hot-seat with secrets: the player who just moved first sees what their move did (a
  // miss in Algo) and hands over themselves; only then is the next player's screen shown
  const moves = last.room.moves;
  const lastMover = moves.length ? moves[moves.length - 1][0] : null;
  if (secret && seat !== shownSeat && shownSeat !== null && lastMover === shownSeat && reviewed < last.room.ply && bySeat.has(shownSeat)) {
    handoverTo = seat;
    return { ...bySeat.get(shownSeat), review: true };
  }
  if (secret && seat !== shownSeat) {
    handoverTo = seat;
    return null;
  }
  shownSeat = seat;
  return bySeat.get(seat);
}

function ctxBase() {
  const view = last && last.views.length ? last.views[0].view : null;
  const board = document.getElementById("board");
  return { lang: lang(), t: tt, room: last && last.room, seat: shownSeat, play, view, width: board ? board.clientWidth : 640 };
}

function play(text) {
  if (!last || last.room.status !== "active") return;
  if (!confirmMove(renderer && renderer.moveLabel ? renderer.moveLabel(text, ctxBase()) : text)) return; // the "confirm each move" setting
  // In simultaneous games another seat may move first; the ply guard would refuse ours.
  const guard = last.room.simultaneous ? {} : { ply: last.room.ply };
  send({ type: "move", seat: shownSeat, move: text, ...guard });
}

function draw() {
  const room = last.room;
  document.body.dataset.status = room.status;
  document.body.dataset.ply = String(room.ply);
  document.body.dataset.myMoves = String(room.moves.filter(([s]) => last.you.includes(s)).length);
  document.getElementById("game-title").textContent = pick(room.title, room.game);
  const printLink = document.getElementById("print-link"); // the game's paper, same options (never the seed)
  printLink.href = `/api/print/${encodeURIComponent(room.game)}?` + new URLSearchParams({ lang: lang(), ...Object.fromEntries(Object.entries(room.options || {}).filter(([, v]) => v !== null && typeof v !== "object").map(([k, v]) => [k, String(v)])) });
  printLink.hidden = false;
  document.title = `${pick(room.title, room.game)} — ${t("app.name")}`;
  const picked = pickView();
  const board = document.getElementById("board");
  const handover = document.getElementById("handover");
  if (!picked) {
    // Hide every secret of the previous player before anything else is shown.
    board.replaceChildren();
    document.getElementById("legal").replaceChildren();
    document.getElementById("score-panel").hidden = true;
    handover.hidden = false;
    document.body.dataset.handover = "true";
    document.body.dataset.review = "false";
    document.getElementById("stepping").hidden = true;
    document.body.dataset.myTurn = "false";
    document.getElementById("handover-title").textContent = tt("room.handover", { name: seatName(handoverTo) });
    const go = document.getElementById("handover-go");
    go.textContent = tt("room.handover_go", { name: seatName(handoverTo) });
    go.onclick = () => {
      shownSeat = handoverTo;
      handoverTo = null;
      draw();
    };
    go.focus();
    drawSide(null);
    return;
  }
  handover.hidden = true;
  document.body.dataset.handover = "false";
  const seat = picked.seat;
  const stepping = stepAt !== null && stepAt < room.ply ? seenAt(seat, stepAt) : undefined;
  if (stepAt !== null && !stepping) stepAt = null;
  const view = stepping || picked.view;
  const myTurn = !stepping && !picked.review && seat !== null && view.acting.includes(seat) && room.status === "active";
  document.body.dataset.myTurn = String(myTurn);
  document.body.dataset.seat = seat === null ? "" : String(seat);
  document.body.dataset.stepping = stepping ? String(stepAt) : "";
  // a premove: queued on the opponent's turn (js/premove.js), played as this turn comes
  const premove = !stepping && !picked.review ? premoveOnTurn(last, seat, view, myTurn) : null;
  const canPremove = premoveAllowed(last, seat, myTurn, stepping || picked.review);
  const ctx = { ...ctxBase(), seat, view, prev: stepping ? seenAt(seat, stepAt - 1) : prevViews.get(seat), legal: new Set(myTurn ? view.legal_moves : canPremove ? premoveCandidates(seat) : []) };
  if (canPremove) {
    ctx.play = (m) => {
      const label = renderer.moveLabel ? renderer.moveLabel(m, ctx) : m;
      if (!confirmMove(label)) return; // "confirm each move": asked as it is queued
      queuePremove(seat, m, label);
      draw();
    };
  }
  board.replaceChildren(renderer.render(view, ctx));
  armBoard(board);
  drawPremove(board, canPremove, draw);
  if (premove !== null) send({ type: "move", seat, move: premove, ply: room.ply });
  board.setAttribute("aria-label", t("room.board_label", { game: pick(room.title, room.game) }));
  if (!stepping) prevViews.set(seat, view);
  drawStepping(stepping, picked.review);
  drawLegal(view, ctx, myTurn);
  drawScore(view, ctx);
  drawSide(view, seat);
  const rulesKey = `${lang()}|${room.game}`;
  if (rulesDrawn !== rulesKey) {
    rulesDrawn = rulesKey;
    drawRules(renderer, room.game, ctx);
  }
  restoreFocus();
  keepFocus();
}

function drawStepping(stepping, review) {
  const banner = document.getElementById("stepping");
  document.body.dataset.review = String(!!review);
  if (review) {
    banner.hidden = false;
    banner.replaceChildren(
      el("span", {}, t("room.review", { name: seatName(shownSeat) }), " "),
      el("button", { type: "button", id: "review-done", class: "primary", onclick: () => {
        reviewed = last.room.ply;
        draw();
      } }, t("room.review_done", { name: seatName(handoverTo) })),
    );
    return;
  }
  banner.hidden = !stepping;
  if (stepping) banner.replaceChildren(el("span", {}, t("room.stepping", { n: stepAt, total: last.room.ply }), " "), el("button", { type: "button", onclick: () => stepTo(null) }, t("room.live")));
}

function stepTo(ply) {
  const max = last ? last.room.ply : 0;
  const target = ply === null || ply >= max ? null : Math.max(0, ply);
  if (target !== null && seenAt(shownSeat, target) === undefined) {
    historyWant = target; // shown when its page arrives
    askHistory();
    return;
  }
  historyWant = null;
  stepAt = target;
  draw();
}

function drawLegal(view, ctx, myTurn) {
  const box = document.getElementById("legal");
  const moves = myTurn ? view.legal_moves : [];
  const label = (m) => (renderer.moveLabel ? renderer.moveLabel(m, ctx) : m);
  const listed = renderer.panelMoves ? renderer.panelMoves(moves, view, ctx) : moves;
  const buttons = listed.slice(0, 120).map((m) => el("button", { type: "button", class: "move", "data-move": m, onclick: () => play(m) }, label(m)));
  if (myTurn && renderer.hint) buttons.push(hintButton(view, ctx));
  box.replaceChildren(...buttons);
  document.getElementById("moves-panel").hidden = !myTurn;
}

// A hint costs a visible marker: the server counts it and tells the whole table (a note and
// the count beside the actions); the hint itself comes from the seat's own view.
let hintShown = null;

function hintButton(view, ctx) {
  const used = Number(((last.room.table || {}).hints || {})[String(shownSeat)] || 0);
  const kept = hintShown && hintShown.ply === last.room.ply ? hintShown : null; // a redraw keeps it
  const out = el("p", { id: "hint-text", class: "hint", "aria-live": "polite", "data-free": kept ? String(kept.free) : null, "data-moves": kept ? kept.moves : null }, kept ? kept.text : "");
  const button = el("button", { type: "button", id: "hint", onclick: () => {
    // a hint costs a marker only when it shows something new: not when it repeats the one
    // last shown (same seat, same words), nor when the game says it tells nothing the board
    // does not show already ({text, free} from the renderer)
    const got = renderer.hint(view, ctx);
    const text = typeof got === "string" ? got : got.text;
    const repeat = hintShown !== null && hintShown.seat === shownSeat && hintShown.base === text;
    const free = repeat || (typeof got === "object" && got.free === true);
    const moves = typeof got === "object" && got.moves ? got.moves.join("|") : "";
    hintShown = { ply: last.room.ply, seat: shownSeat, base: text, text: free ? `${text} ${t("room.hint_free")}` : text, free, moves };
    out.textContent = hintShown.text;
    out.dataset.free = String(free);
    out.dataset.moves = moves;
    if (!free) send({ type: "hint", seat: shownSeat });
  } }, tt("room.hint"));
  return el("div", { class: "hint-box" }, button, el("span", { id: "hints-used", class: "badge", "data-hints": used }, tt("room.hints_used", { n: used })), out);
}

function drawScore(view, ctx) {
  const panel = document.getElementById("score-panel");
  const rows = renderer.score ? renderer.score(view, ctx) : null;
  panel.hidden = !rows || !rows.length;
  if (rows) document.getElementById("score").replaceChildren(el("dl", { class: "score" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])));
}

function statusText(view, seat) {
  const room = last.room;
  if (room.status === "finished") return t("room.over");
  if (!view) return t("room.handover", { name: seatName(handoverTo) });
  if (seat !== null && view.acting.includes(seat)) return t("room.turn_you");
  const names = view.acting.map(seatName);
  const thinking = room.thinking.filter((s) => view.acting.includes(s));
  if (thinking.length) return t("room.thinking", { name: names.join(", ") });
  return names.length > 1 ? t("room.turn_many", { names: names.join(", ") }) : t("room.turn_of", { name: names[0] || "" });
}

function drawSide(view, seat = null) {
  const room = last.room;
  const you = last.you;
  setStatus(statusText(view, seat) + (you.length ? "" : ` — ${t("room.spectating")}`));
  const acting = view ? view.acting : [];
  document.getElementById("seats").replaceChildren(
    ...room.seats.map((s) =>
      el(
        "li",
        { class: `seat${acting.includes(s.seat) ? " acting" : ""}`, "data-seat": s.seat },
        el("span", { class: `dot ${s.online ? "on" : "off"}`, role: "img", title: t(s.online ? "room.online" : "room.offline"), "aria-label": t(s.online ? "room.online" : "room.offline") }),
        el("span", {}, seatName(s.seat)),
        you.includes(s.seat) ? el("span", { class: "you" }, ` — ${t("room.you")}`) : null,
        room.clock ? el("span", { class: `clock${room.clock.running === s.seat ? " running" : ""}`, "data-clock": s.seat, "aria-label": t("room.clock") }, clockText(room.clock, s.seat, room.clock.remaining[s.seat])) : null,
      ),
    ),
  );
  drawResult(seat);
  drawRequests();
  drawActions();
  drawInvites();
  drawLog();
  // the move-quality badge belongs to the seat on screen: hidden behind a hand-over and from
  // the next player of a hot-seat game
  roomProgress.update(last, seatName, { label: (m) => (renderer.moveLabel ? renderer.moveLabel(m, ctxBase()) : m), shownSeat: view ? seat : null });
  drawSet(last, setNext, askNext, seatName);
  const notes = document.getElementById("notes");
  notes.hidden = !room.notes.length;
  notes.replaceChildren(el("h2", {}, t("room.notes")), ...room.notes.map((n) => el("p", { "data-note": n.code }, noteText(n, seatName, you))));
}

function reasonText(result) {
  if (result.abandoned !== undefined) return t("room.abandoned", { name: seatName(result.abandoned) });
  if (result.aborted) return t("room.aborted");
  if (result.agreed_draw) return t("room.agreed_draw");
  if (result.resigned !== undefined) return t("room.resigned", { name: seatName(result.resigned) });
  if (result.timeout !== undefined) return t("room.timeout", { name: seatName(result.timeout) });
  return endText(result, renderer && renderer.game);
}

function drawResult(seat) {
  const box = document.getElementById("result");
  const r = last.room.result;
  box.hidden = !r;
  if (!r) return;
  const lines = [el("h2", {}, t("room.result"))];
  const mine = last.you;
  // an aborted game has no winner and no score: it says so, not "Abort" over a 0–0
  if (r.aborted) lines.push(el("p", { class: "big", "data-aborted": "true" }, t("room.aborted_head")));
  else if (r.draw) lines.push(el("p", { class: "big" }, t("room.draw")));
  else {
    if (r.scores.length === 1) {
      // a solo game has no one to beat: say what was done, not "You won!"
      const finalView = last.views.length ? last.views[0].view : null;
      const said = renderer.soloResult ? renderer.soloResult(r, finalView, ctxBase()) : t("room.solo_done", { score: r.scores[0] });
      lines.push(el("p", { class: "big", "data-solo": "true" }, said));
    } else {
      if (mine.length === 1) lines.push(el("p", { class: "big" }, r.winners.includes(mine[0]) ? t("room.you_won") : t("room.you_lost")));
      lines.push(el("p", {}, t("room.winner", { names: r.winners.map(seatName).join(", ") })));
    }
  }
  lines.push(el("p", { class: "reason" }, reasonText(r)));
  if (r.aborted) {
    box.replaceChildren(...lines);
    box.dataset.winners = "";
    return;
  }
  // a resignation or a fallen flag scores 1–0 and Algo's result keys are ranks: the table
  // shows what the board says (discs, cards left face down), the same as the score panel
  const finalView = last.views.length ? last.views[0].view : null;
  const fromView = (r.resigned !== undefined || r.timeout !== undefined || renderer.resultFromView) && renderer.score && finalView;
  const rows = fromView ? renderer.score(finalView, { ...ctxBase(), view: finalView }) : r.scores.map((sc, i) => [seatName(i), sc]);
  lines.push(el("dl", { class: "score", "data-from": fromView ? "view" : "result" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])));
  box.replaceChildren(...lines);
  box.dataset.winners = r.winners.join(",");
}

function drawRequests() {
  const box = document.getElementById("requests");
  const room = last.room;
  const items = [];
  const undo = room.undo;
  if (undo) {
    const mine = undo.waiting.filter((s) => last.you.includes(s));
    if (mine.length) {
      items.push(
        el(
          "div",
          { class: "request" },
          el("p", {}, t("room.undo_asked", { name: seatName(undo.seat) })),
          el("button", { type: "button", id: "undo-accept", onclick: () => mine.forEach((s) => send({ type: "undo_reply", seat: s, accept: true })) }, t("room.accept")),
          el("button", { type: "button", id: "undo-decline", onclick: () => mine.forEach((s) => send({ type: "undo_reply", seat: s, accept: false })) }, t("room.decline")),
        ),
      );
    } else if (last.you.includes(undo.seat)) items.push(el("p", {}, t("room.undo_wait")));
  }
  const draws = (room.table && room.table.draw_offers) || [];
  if (room.status === "active" && draws.length) {
    const mineAsked = draws.filter((s) => last.you.includes(s));
    const toAnswer = last.you.filter((s) => !draws.includes(s));
    if (toAnswer.length && !mineAsked.length) {
      items.push(el("div", { class: "request" }, el("p", {}, t("room.draw_asked", { name: draws.map(seatName).join(", ") })),
        el("button", { type: "button", id: "draw-accept", onclick: () => send({ type: "draw", seat: toAnswer[0], accept: true }) }, t("room.accept")),
        el("button", { type: "button", id: "draw-decline", onclick: () => send({ type: "draw", seat: toAnswer[0], accept: false }) }, t("room.decline"))));
    } else if (mineAsked.length) items.push(el("p", { id: "draw-wait" }, t("room.draw_wait")));
  }
  const offers = room.rematch.offers;
  if (room.status === "finished" && offers.length && !room.rematch.room) {
    const mineOffered = offers.some((s) => last.you.includes(s));
    items.push(el("p", {}, mineOffered ? t("room.rematch_offered") : t("room.rematch_from", { names: offers.map(seatName).join(", ") })));
    if (!mineOffered && last.you.length) items.push(el("button", { type: "button", id: "rematch-decline", onclick: () => send({ type: "rematch", accept: false }) }, t("room.decline")));
  }
  const target = rematch || (room.rematch.room && last.you.length ? room.rematch.room : null);
  if (target) items.push(el("a", { href: `/r/${target}`, id: "rematch-go", class: "primary button" }, t("room.rematch_go")));
  box.replaceChildren(...items);
  box.hidden = !items.length;
}

function drawActions() {
  const room = last.room;
  const held = last.you.length > 0;
  const active = room.status === "active";
  const mineMoved = room.moves.some(([s]) => last.you.includes(s));
  document.getElementById("resign").hidden = !(held && active);
  const table = room.table || {};
  document.getElementById("abort").hidden = !(held && active && table.can_abort);
  const offered = (table.draw_offers || []).some((s) => last.you.includes(s));
  document.getElementById("draw").hidden = !(held && active && table.can_draw && !offered);
  // a person who left: the server decides whether they have been gone long enough (fair-play
  // rules: abort before their first move, else the game is theirs to lose)
  // only against a seat that joined and left, after a countdown (server.room.presence)
  drawClaims(room.claims, { held, active, you: last.you, seatName });
  document.getElementById("undo").hidden = !(held && room.can_undo && mineMoved && !room.undo);
  const inSet = room.set && !room.set.over; // the set's next game, not a rematch
  document.getElementById("rematch").hidden = !(held && !active && !room.rematch.room && !inSet);
  for (const id of ["record", "replay", "analyse"]) document.getElementById(id).hidden = active;
  document.getElementById("record").href = `/api/rooms/${roomId}/record`;
  document.getElementById("record").setAttribute("download", `asobiba-${room.game}-${roomId}.json`);
  document.getElementById("replay").href = `/replay?room=${roomId}`;
  document.getElementById("analyse").href = `/analysis/${encodeURIComponent(room.game)}?room=${roomId}`;
  drawNotation().catch((err) => showError(err.message));
}

function drawInvites() {
  const invites = loadInvites(roomId);
  const box = document.getElementById("invites");
  box.hidden = !invites.length || last.room.status !== "active";
  const base = `${location.origin}/r/${roomId}`;
  const row = (label, link) => {
    const input = el("input", { readonly: true, value: link, "aria-label": label });
    const copy = el("button", { type: "button" }, t("room.copy"));
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        document.execCommand("copy");
      }
      copy.textContent = t("room.copied");
    });
    return el("li", {}, el("span", {}, label), input, copy);
  };
  document.getElementById("invite-list").replaceChildren(
    ...invites.map((i) => row(seatName(i.seat), `${base}#seat=${i.seat}&key=${encodeURIComponent(i.key)}`)),
    row(t("room.spectate_link"), base),
  );
}

/** Move i (0-based) for the move list: its text where it is public, else what the seat's
 * own views show of it (``told``: a whole sentence that names the mover itself). */
function moveEntry(i) {
  const [s, text] = last.room.moves[i];
  const ctx = ctxBase();
  if (text !== null) return { seat: s, label: renderer.moveLabel ? renderer.moveLabel(text, ctx) : text, told: false };
  const after = seenAt(shownSeat, i + 1);
  const told = renderer.historyText && after ? renderer.historyText(after, seenAt(shownSeat, i), { ...ctx, mover: s }) : null;
  return told ? { seat: s, label: told, told: true } : { seat: s, label: "·", told: false };
}

/** A seat's short mark in the move list: the game's own name for it, never the player's. */
function seatMark(seat) {
  return renderer.seatName ? renderer.seatName(seat, ctxBase()) : tt("room.seat_name", { n: seat + 1 });
}

function drawLog() {
  const moves = last.room.moves;
  const list = document.getElementById("movelog");
  const panel = document.getElementById("log-panel");
  // while the hot-seat hand-over screen is up, nothing of the previous player is listed
  panel.hidden = handoverTo !== null && document.body.dataset.handover === "true";
  const current = stepAt === null ? moves.length : stepAt;
  const paired = isPaired(last.room.seats.length, last.room.simultaneous);
  const entries = moves.map((_, i) => {
    const m = moveEntry(i);
    if (paired) return { seat: m.seat, text: m.label, said: m.told ? "" : `${seatName(m.seat)}: ` };
    return { seat: m.seat, text: m.told ? m.label : `${seatMark(m.seat)}: ${m.label}` };
  });
  drawMoveList(list, { entries, seatCount: last.room.seats.length, paired, current, startLabel: t("room.start"), onStep: stepTo });
  document.getElementById("step-back").disabled = current === 0;
  document.getElementById("step-forward").disabled = stepAt === null;
  document.getElementById("step-live").hidden = stepAt === null;
  if (stepAt === null) list.scrollTop = list.scrollHeight;
}

// The record in the game's own notations, beside the JSON record: the server's formats
// (asobiba.formats, the same as `asobiba export`): text for every game, Reversi's
// transcript and GGF, and whatever a game adds.
let formats = null;

async function drawNotation() {
  const box = document.getElementById("notation");
  if (last.room.status !== "finished") {
    box.hidden = true;
    return;
  }
  if (!formats) formats = (await (await fetch(`/api/formats/${encodeURIComponent(last.room.game)}`)).json()).formats.filter((f) => f.name !== "json");
  box.replaceChildren(`${t("room.notation")}: `, ...formats.flatMap((f, i) => [i ? " · " : "", el("a", { href: `/api/rooms/${roomId}/record?format=${encodeURIComponent(f.name)}`, download: "", "data-format": f.name, title: f.description }, f.name)]));
  box.hidden = false;
}

// ---- clocks: the server sends the time left; the page counts the running one down -------
let clockBase = null;

function tickClock() {
  if (!last || !last.room.clock || last.room.status !== "active") return;
  const c = last.room.clock;
  if (c.running === null || c.running === undefined) return;
  if (!clockBase || clockBase.msg !== last) clockBase = { msg: last, at: performance.now() };
  const left = c.remaining[c.running] - (performance.now() - clockBase.at) / 1000;
  const node = document.querySelector(`[data-clock="${c.running}"]`);
  if (node) node.textContent = clockText(c, c.running, left);
  if (left <= 10 && last.you.includes(c.running)) sounds.lowTime(last.room.ply);
}
setInterval(tickClock, 250);

// ---- actions --------------------------------------------------------------------------
function askNext(msg) {
  setAsked = true;
  send(msg);
}

function actionSeat() {
  if (shownSeat !== null && last.you.includes(shownSeat)) return shownSeat;
  return last.you[0];
}

function wire() {
  document.getElementById("resign").addEventListener("click", () => {
    if (confirm(t("room.resign_confirm"))) send({ type: "resign", seat: actionSeat() });
  });
  document.getElementById("undo").addEventListener("click", () => {
    const mine = last.room.moves.filter(([s]) => last.you.includes(s));
    const seat = last.you.length === 1 ? last.you[0] : mine.length ? mine[mine.length - 1][0] : actionSeat();
    send({ type: "undo", seat });
  });
  document.getElementById("rematch").addEventListener("click", () => send({ type: "rematch" }));
  document.getElementById("abort").addEventListener("click", () => {
    if (confirm(t("room.abort_confirm"))) send({ type: "abort", seat: actionSeat() });
  });
  document.getElementById("draw").addEventListener("click", () => send({ type: "draw", seat: actionSeat() }));
  document.getElementById("claim").addEventListener("click", () => send({ type: "claim" }));
  document.getElementById("step-back").addEventListener("click", () => stepTo((stepAt === null ? last.room.ply : stepAt) - 1));
  document.getElementById("step-forward").addEventListener("click", () => stepTo(stepAt === null ? null : stepAt + 1));
  document.getElementById("step-live").addEventListener("click", () => stepTo(null));
  sounds.mount(document.getElementById("sound"));
  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("move-input");
    if (input.value.trim()) play(input.value.trim());
    input.value = "";
  });
}

async function main() {
  takeFragment();
  watchFocus();
  boardKeys(document.getElementById("board"));
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  wire();
  const info = await fetch(`/api/rooms/${encodeURIComponent(roomId)}`);
  if (!info.ok) {
    setStatus(t("room.no_room"));
    document.body.dataset.status = "missing";
    return;
  }
  const room = await info.json();
  renderer = await loadRenderer(room.game);
  const games = await (await fetch("/api/games")).json();
  window.__gameInfo = games.games.find((g) => g.id === room.game);
  onLangChange(() => last && draw());
  chat = roomChat(document.getElementById("chat-panel"), roomId, send);
  onLangChange(() => chat.relabel());
  window.addEventListener("resize", () => last && renderer.resizes && draw());
  connect();
  roomProgress.start(roomId, room.game, loadKeys(roomId));
}

main();
