// An interactive tutorial: each step's start view drawn by the game's own renderer, the goal
// in the current language, the player's move checked by the server (tutorial_attempt), then
// the next step. Every move is also a button and can be typed (keyboard use).
import { applyStatic, lang, mountSwitch, onLangChange, pick, t } from "./i18n.js";
import { api, el, loadRenderer } from "./util.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
let renderer = null;
let steps = [];
let index = 0;
let shown = null; // the view on screen (the start view, or the position after a right move)
let done = new Set();
let message = null; // {en, ja} or a platform string key
let busy = false;

function tt(key, params) {
  return t(key, params, renderer && renderer.game);
}

function ctxFor(view, playable) {
  return {
    lang: lang(), t: tt, room: null, seat: view.seat ?? view.to_move ?? null, view, prev: null,
    legal: new Set(playable ? view.legal_moves || [] : []), play: attempt,
    width: document.getElementById("board").clientWidth || 640,
  };
}

async function attempt(move) {
  const step = steps[index];
  if (busy || shown !== step.view) return;
  busy = true;
  document.body.dataset.busy = "true";
  try {
    const res = await api(`/api/tutorials/${encodeURIComponent(gameId)}/${encodeURIComponent(step.key)}`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ move }),
    });
    message = res.message;
    if (res.done) {
      done.add(step.key);
      shown = res.view;
    }
    document.getElementById("error").textContent = "";
    document.body.dataset.result = res.done ? "done" : "refused";
  } catch (err) {
    document.getElementById("error").textContent = t("room.error", { msg: err.message });
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
  draw();
}

function go(i) {
  index = i;
  shown = steps[i].view;
  message = null;
  document.body.dataset.result = "";
  draw();
}

function draw() {
  const step = steps[index];
  const complete = done.has(step.key);
  const playable = shown === step.view && !shown.over;
  document.body.dataset.step = step.key;
  document.body.dataset.stepIndex = String(index);
  document.body.dataset.stepDone = String(complete);
  document.body.dataset.doneCount = String(done.size);
  document.getElementById("game-title").textContent = t("tut.title", { game: pick(window.__title, gameId) });
  document.title = `${t("tut.title", { game: pick(window.__title, gameId) })} — ${t("app.name")}`;
  document.getElementById("step-title").textContent = t("tut.step_title", { n: index + 1, total: steps.length, title: pick(step.title) });
  document.getElementById("explain").textContent = pick(step.explain);
  document.getElementById("goal").textContent = t("tut.goal", { goal: pick(step.goal) });
  const ctx = ctxFor(shown, playable);
  document.getElementById("board").replaceChildren(renderer.render(shown, ctx));
  const label = (m) => (renderer.moveLabel ? renderer.moveLabel(m, ctx) : m);
  const all = playable ? shown.legal_moves || [] : [];
  // the same actions as the game page (Algo guesses on the board, no Patapata solutions)
  const moves = renderer.panelMoves ? renderer.panelMoves(all, shown, ctx) : all;
  document.getElementById("legal").replaceChildren(...moves.slice(0, 120).map((m) => el("button", { type: "button", class: "move", "data-move": m, onclick: () => attempt(m) }, label(m))));
  document.getElementById("moves-panel").hidden = !playable;
  const msg = document.getElementById("message");
  msg.textContent = message ? (typeof message === "string" ? t(message) : pick(message)) : t(step.many_ways ? "tut.many_ways" : "tut.your_move");
  msg.dataset.kind = document.body.dataset.result || "";
  const last = index === steps.length - 1;
  const next = document.getElementById("next");
  next.hidden = !complete;
  next.textContent = last ? t("tut.finish") : t("tut.next");
  document.getElementById("steps").replaceChildren(
    ...steps.map((s, i) => el("li", { class: `${i === index ? "current" : ""}${done.has(s.key) ? " done" : ""}` },
      el("button", { type: "button", class: "link", "data-step": s.key, "aria-current": i === index ? "step" : null, onclick: () => go(i) },
        `${done.has(s.key) ? "✓ " : ""}${pick(s.title)}`))),
  );
  document.body.dataset.lang = lang();
  if (done.size === steps.length) {
    document.body.dataset.finished = "true";
    if (last && complete) msg.textContent = `${msg.textContent} ${t("tut.all_done")}`;
  }
}

function wire() {
  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("move-input");
    if (input.value.trim()) attempt(input.value.trim());
    input.value = "";
  });
  document.getElementById("retry").addEventListener("click", () => go(index));
  document.getElementById("next").addEventListener("click", () => {
    if (index < steps.length - 1) go(index + 1);
    else location.href = "/";
  });
}

async function main() {
  mountSwitch(document.getElementById("lang"));
  applyStatic();
  wire();
  try {
    const [tut, games] = await Promise.all([api(`/api/tutorials/${encodeURIComponent(gameId)}`), api("/api/games")]);
    const info = games.games.find((g) => g.id === gameId);
    window.__title = info ? info.title : gameId;
    renderer = await loadRenderer(gameId);
    steps = tut.steps;
  } catch (err) {
    document.getElementById("error").textContent = t("room.error", { msg: err.message });
    document.body.dataset.ready = "error";
    return;
  }
  onLangChange(() => draw());
  go(0);
  document.body.dataset.ready = "true";
}

main();
