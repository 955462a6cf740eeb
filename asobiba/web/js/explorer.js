// The opening explorer's table (docs/explorer.md): the moves played from a position in the
// stored finished games — count, win/draw/loss bar for the side to move, average rating — and
// the bundled engine book's evaluation, from GET /api/explorer/<game>?moves=…
//
//   const ex = mountExplorer(section, { game: id, moves: ["f5"], onPlay: (m) => … });
//   ex.update(["f5", "d6"]);   // another position
//
// Each move is a button (keyboard: Tab, Enter/Space) that calls onPlay(move). Words come from
// js/i18n.js (explorer.*) and follow the language switch; errors are shown from their codes.
import { lang, onLangChange, t } from "./i18n.js";
import { el } from "./util.js";

function pct(n, total) {
  return total ? Math.round((100 * n) / total) : 0;
}

function errorText(code, args) {
  const key = `explorer.err.${code}`;
  const text = t(key, args || {});
  return text === key ? t("explorer.err.other", { code }) : text;
}

function bookText(book) {
  if (!book) return "";
  if (book.result) return t(`explorer.book_${book.result}`);
  const v = Number(book.eval);
  return (v > 0 ? "+" : "") + v.toFixed(Number.isInteger(v) ? 0 : 1);
}

function bar(row) {
  const total = row.games;
  const w = pct(row.wins, total);
  const l = pct(row.losses, total);
  const d = total ? 100 - w - l : 0;
  const label = t("explorer.bar", { w, d, l });
  return el(
    "div",
    { class: "wdl", role: "img", "aria-label": label, title: label },
    el("span", { class: "wdl-w", style: `width:${w}%` }, w >= 12 ? `${w}%` : ""),
    el("span", { class: "wdl-d", style: `width:${d}%` }, d >= 12 ? `${d}%` : ""),
    el("span", { class: "wdl-l", style: `width:${l}%` }, l >= 12 ? `${l}%` : ""),
  );
}

export function mountExplorer(element, { game, moves = [], onPlay = () => {}, label = (m) => m, seatName = null }) {
  let line = [...moves];
  let data = null;
  let error = null;
  let asked = 0;

  function draw() {
    const heading = el("h2", { id: `explorer-h-${game}` }, t("explorer.h"));
    if (error) {
      element.replaceChildren(heading, el("p", { class: "error", role: "alert" }, errorText(error.code, error.args)));
      return;
    }
    if (!data) {
      element.replaceChildren(heading, el("p", { role: "status" }, t("explorer.loading")));
      return;
    }
    element.setAttribute("aria-labelledby", heading.id);
    const side = data.to_move === null || data.to_move === undefined ? "" : seatName ? seatName(data.to_move) : t("room.seat_name", { n: data.to_move + 1 });
    const rows = data.played.map((row) => {
      const move = el(
        "button",
        { type: "button", class: "explorer-move", "data-move": row.move, "aria-label": t("explorer.play", { move: label(row.move) }), onclick: () => onPlay(row.move) },
        label(row.move),
      );
      return el(
        "tr",
        { "data-move": row.move },
        el("th", { scope: "row" }, move),
        el("td", { class: "num" }, row.games ? row.games.toLocaleString(lang()) : "–"),
        el("td", { class: "bar" }, row.games ? bar(row) : ""),
        el("td", { class: "num" }, row.rating === null || row.rating === undefined ? "–" : String(row.rating)),
        el("td", { class: "num book" }, bookText(row.book) || "–"),
      );
    });
    const head = el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["explorer.move", "explorer.games", "explorer.results", "explorer.rating", "explorer.book"].map((k) => el("th", { scope: "col" }, t(k))),
      ),
    );
    const total = data.total;
    const foot = total.games
      ? el(
          "tfoot",
          {},
          el("tr", {}, el("th", { scope: "row" }, t("explorer.total")), el("td", { class: "num" }, total.games.toLocaleString(lang())), el("td", { class: "bar" }, bar(total)), el("td", {}, ""), el("td", {}, "")),
        )
      : null;
    const parts = [heading];
    if (data.over) parts.push(el("p", { role: "status" }, t("explorer.over")));
    else if (!data.played.length) parts.push(el("p", { role: "status" }, t("explorer.none")));
    if (data.played.length) {
      const caption = el("caption", {}, t("explorer.caption", { side }));
      parts.push(el("div", { class: "explorer-scroll" }, el("table", { class: "explorer-table" }, caption, head, el("tbody", {}, ...rows), foot)));
    }
    element.replaceChildren(...parts);
  }

  async function load() {
    const mine = ++asked;
    data = null;
    error = null;
    draw();
    let res;
    let body;
    try {
      res = await fetch(`/api/explorer/${encodeURIComponent(game)}?moves=${encodeURIComponent(line.join(","))}`);
      body = await res.json();
    } catch {
      body = null;
    }
    if (mine !== asked) return; // a newer position was asked meanwhile
    if (!res || !res.ok || !body) {
      const err = body && body.error ? body.error : { code: res ? `http_${res.status}` : "unreachable" };
      error = { code: err.code, args: err.args };
      data = null;
    } else {
      data = body;
    }
    draw();
    element.dispatchEvent(new CustomEvent("explorer:loaded", { detail: data }));
  }

  onLangChange(draw);
  element.classList.add("explorer");
  load();
  return {
    update(moves2) {
      line = [...moves2];
      return load();
    },
    get data() {
      return data;
    },
  };
}
