// The fallback for a game without its own renderer: the view's fields as a readable table.
// Moves are still playable through the legal-move list of the frame.
import { el } from "../js/util.js";

function show(value) {
  if (Array.isArray(value) && value.every((r) => typeof r === "string")) return el("pre", { class: "rows" }, value.join("\n"));
  if (value !== null && typeof value === "object") return el("pre", {}, JSON.stringify(value, null, 1));
  return el("span", {}, String(value));
}

const SKIP = new Set(["game", "seat", "seats", "to_move", "acting", "over", "outcome", "legal_moves"]);

export default {
  generic: true,
  render(view, ctx) {
    const rows = Object.entries(view).filter(([k]) => !SKIP.has(k));
    return el("dl", { class: "generic", "aria-label": ctx.t("generic.board") }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, show(v))]));
  },
};
