// The set panel of the game page: a reverse match or best-of-N series between two people
// (chosen in the lobby). It shows the standing from the room's public info (only finished
// games' results), asks for the next game, and links to it once the server has made it.
import { t } from "./i18n.js";
import { el } from "./util.js";

function panel() {
  let box = document.getElementById("set-panel");
  if (!box) {
    box = el("section", { id: "set-panel", class: "set", "aria-live": "polite", hidden: true });
    document.getElementById("result").after(box);
  }
  return box;
}

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** ``msg``: the room's last update; ``next``: the next room this browser got keys for;
 * ``send``: the WebSocket sender; ``seatName``: the game page's seat labels. */
export function drawSet(msg, next, send, seatName) {
  const box = panel();
  const set = msg.room.set;
  box.hidden = !set;
  if (!set) return;
  const you = msg.you;
  const sideName = (side) => {
    const seat = set.sides[side];
    if (you.length === 1 && you[0] === seat) return t("set.you");
    const name = msg.room.seats[seat].name;
    return name || t(side === "A" ? "set.side_a" : "set.side_b");
  };
  const lines = [el("h2", {}, t("set.h"))];
  const about = set.format === "reverse" ? t(set.has_tiebreak ? "set.reverse_tb" : "set.reverse") : t("set.best_of", { n: set.best_of, k: Math.floor(set.best_of / 2) + 1 });
  lines.push(el("p", { class: "hint" }, about), el("p", {}, t("set.this_game", { n: set.index + 1 })));

  const head = el("tr", {}, el("th", {}, ""), el("th", { scope: "col" }, `${sideName("A")} (${seatName(set.sides.A)})`), el("th", { scope: "col" }, `${sideName("B")} (${seatName(set.sides.B)})`));
  const rows = set.games.map((g, i) => {
    const mark = (p) => (g.points_a === p ? " ✓" : ""); // the game's winner
    return el("tr", { "data-set-game": i }, el("th", { scope: "row" }, g.room && g.room !== msg.room.id ? el("a", { href: `/r/${g.room}` }, t("set.game", { n: i + 1 })) : t("set.game", { n: i + 1 })), el("td", {}, fmt(g.score_a) + mark(1)), el("td", {}, fmt(g.score_b) + mark(0)));
  });
  if (set.format === "reverse" && set.games.length) {
    rows.push(el("tr", { class: "total", "data-set-total": set.totals.join("-") }, el("th", { scope: "row" }, t("set.total")), el("td", {}, fmt(set.totals[0])), el("td", {}, fmt(set.totals[1]))));
    if (set.has_tiebreak) rows.push(el("tr", { "data-set-tiebreak": set.tiebreak.join("-") }, el("th", { scope: "row" }, t("set.tiebreak")), el("td", {}, fmt(set.tiebreak[0])), el("td", {}, fmt(set.tiebreak[1]))));
  } else if (set.games.length) {
    rows.push(el("tr", { class: "total", "data-set-wins": set.wins.join("-") }, el("th", { scope: "row" }, t("set.wins")), el("td", {}, String(set.wins[0])), el("td", {}, String(set.wins[1]))));
  }
  if (set.games.length) lines.push(el("table", { class: "set-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));

  if (set.over) {
    const mySides = ["A", "B"].filter((s) => you.includes(set.sides[s]));
    let text;
    if (!set.winner) text = t("set.drawn");
    else if (mySides.length === 1) text = mySides[0] === set.winner ? t("set.you_won") : t("set.you_lost");
    else text = t("set.winner", { name: sideName(set.winner) });
    lines.push(el("p", { class: "big", id: "set-result", "data-winner": set.winner || "draw" }, text));
    if (set.forfeit) lines.push(el("p", {}, t("set.forfeit", { name: sideName(set.forfeit) })));
  } else if (msg.room.status === "finished") {
    const target = next || set.next.room;
    const offers = set.next.offers;
    if (target && (you.length === 0 || next)) {
      lines.push(el("a", { href: `/r/${target}`, id: "set-next-go", class: "primary button" }, t(you.length ? "set.next_go" : "set.next_watch")));
    } else if (you.length) {
      const asked = offers.some((s) => you.includes(s));
      if (!asked) lines.push(el("button", { type: "button", id: "set-next", class: "primary", onclick: () => send({ type: "next" }) }, t("set.next")));
      const others = msg.room.seats.filter((s) => s.kind === "human" && !you.includes(s.seat));
      if (asked && others.length) lines.push(el("p", {}, t("set.next_wait", { names: others.map((s) => seatName(s.seat)).join(", ") })));
      else if (!asked && offers.length) lines.push(el("p", {}, t("set.next_asked", { names: offers.map(seatName).join(", ") })));
    }
  }
  box.replaceChildren(...lines);
  box.dataset.over = String(set.over);
  box.dataset.games = String(set.games.length);
}
