// The ladder of a game: rank, the next rank's condition, wins per tier, the unlocked CPU
// levels (each starts a ladder game), and the rank-up exam (start; each exam game in a room;
// leave = fail, as the seed says).
import { pick, t } from "./i18n.js";
import { el, saveKeys } from "./util.js";
import { gameFromPath, gameTitle, page, post, showError, whoami } from "./progress.js";
import { api } from "./util.js";

const game = gameFromPath();
let events = [];

function eventText(ev) {
  if (ev.type === "promoted") return `⬆ ${pick(ev)}`;
  if (ev.type === "exam_passed") return `✓ ${ev.rank}`;
  if (ev.type === "exam_failed") return `✗ ${ev.rank} (${ev.reason})`;
  return ev.reason || ev.type;
}

async function play(body) {
  try {
    const room = await post(`/api/ladder/${encodeURIComponent(game)}/play`, body);
    saveKeys(room.room, room.keys);
    location.href = room.url;
  } catch (err) {
    showError(err);
  }
}

async function draw() {
  const title = t("ladder.title", { game: await gameTitle(game) });
  document.getElementById("page-title").textContent = title;
  document.title = `${title} — ${t("app.name")}`;
  const player = await whoami();
  if (!player) {
    document.getElementById("rank").replaceChildren(el("a", { href: "/account" }, t("ladder.sign_in")));
    for (const id of ["next", "progress", "exam"]) document.getElementById(id).textContent = "";
    document.getElementById("levels").replaceChildren();
    document.getElementById("start-exam").hidden = true;
    document.getElementById("leave-exam").hidden = true;
    return;
  }
  const st = await api(`/api/ladder/${encodeURIComponent(game)}`);
  document.body.dataset.rank = st.rank.key;
  document.body.dataset.exam = st.exam ? "running" : st.exam_due ? "due" : "none";
  document.getElementById("rank").textContent = pick(st.rank);
  document.getElementById("next").textContent = st.next ? t("ladder.next", { rank: pick(st.next), condition: pick(st.next.condition) }) : t("ladder.top");
  document.getElementById("progress").textContent = Object.entries(st.wins).map(([tier, n]) => `${(st.unlocked.find((u) => u.tier === tier) || { title: tier }).title}: ${t("ladder.wins", { n })}`).join(" · ");
  document.getElementById("levels").replaceChildren(...st.unlocked.map((u) => el("li", { "data-tier": u.tier },
    `${u.title} (${u.level})${u.reverse ? ` — ${t("ladder.reverse")}` : ""} `,
    st.exam ? null : el("button", { type: "button", "data-play": u.tier, onclick: () => play({ tier: u.tier }) }, t("ladder.play")))));
  const exam = document.getElementById("exam");
  if (st.exam) {
    exam.replaceChildren(t("ladder.exam_running", { n: (st.exam.game_index || 0) + 1, level: st.exam.level, seat: st.exam.player_seat + 1 }), " ", el("button", { type: "button", id: "exam-play", class: "primary", onclick: () => play({}) }, t("ladder.play")));
  } else exam.textContent = st.exam_due ? t("ladder.exam_due") : t("ladder.exam_none");
  // how the last exam ended, and why (a lost series, the Leave button, or its game's page
  // gone past the grace)
  const last = document.getElementById("last-exam");
  const le = st.last_exam;
  last.hidden = !le;
  last.dataset.reason = le ? le.reason : "";
  last.textContent = le ? t(le.passed ? "ladder.last_exam_passed" : "ladder.last_exam_failed", { rank: pick(le), wins: (le.wins || []).join("–"), why: t(`ladder.exam_why.${le.reason}`) }) : "";
  document.getElementById("start-exam").hidden = !(st.exam_due && !st.exam);
  document.getElementById("leave-exam").hidden = !st.exam;
  document.getElementById("events").replaceChildren(...events.map((ev) => el("li", { "data-event": ev.type }, eventText(ev))));
}

document.getElementById("start-exam").addEventListener("click", async () => {
  try {
    await post(`/api/ladder/${encodeURIComponent(game)}/exam`);
    await draw();
  } catch (err) {
    showError(err);
  }
});
document.getElementById("leave-exam").addEventListener("click", async () => {
  if (!confirm(t("ladder.leave_confirm"))) return;
  try {
    events = (await post(`/api/ladder/${encodeURIComponent(game)}/leave`)).events;
    await draw();
  } catch (err) {
    showError(err);
  }
});

page(draw);
