// The create form's time control: the presets as shortcuts, and a custom control — Fischer
// (main minutes + seconds added per move) or byo-yomi (main minutes, then N periods of S
// seconds, as in the ReverStarGo app). The ranges are the server's (server/clock.py), which
// checks them again and refuses with bad_clock and the field's range.
import { t } from "./i18n.js";
import { el } from "./util.js";

const FISCHER = [[1, 0], [3, 2], [5, 0], [10, 5], [30, 0]]; // minutes, seconds added
const BYOYOMI = [[0, 1, 30], [3, 1, 30], [10, 1, 30], [15, 1, 60]]; // minutes, periods, seconds
// correspondence: days per move (issue 28 item 2); the server's range is 1 hour to 14 days
export const DAYS = [1, 2, 3, 5, 7, 14];
// [id, i18n label, min, max] of the custom fields (minutes for the main time)
const FIELDS = {
  main: ["clock-main", "lobby.clock.main", 0, 180],
  inc: ["clock-inc", "lobby.clock.inc", 0, 120],
  period: ["clock-period", "lobby.clock.period", 5, 300],
  periods: ["clock-periods", "lobby.clock.periods", 1, 10],
};
const KEPT = { main: "10", inc: "5", period: "30", periods: "3" };

function byoyomiLabel(min, n, s) {
  return min ? t("lobby.clock.byoyomi", { min, n, s }) : t("lobby.clock.per_move", { s, n });
}

/** Draw the select (presets + "custom") and the custom fields; hidden where turns are
 * simultaneous (no clock there). Keeps what was chosen across a redraw (language switch). */
export function drawClock(game) {
  const sel = document.getElementById("clock");
  const kept = sel.value;
  sel.replaceChildren(
    el("option", { value: "0" }, t("lobby.clock.none")),
    ...FISCHER.map(([min, inc], i) => el("option", { value: String(i + 1) }, t("lobby.clock.value", { min, inc }))),
    ...BYOYOMI.map(([min, n, s], i) => el("option", { value: `b${i}` }, byoyomiLabel(min, n, s))),
    ...DAYS.map((n) => el("option", { value: `d${n}` }, t("lobby.clock.days", { n }))),
    el("option", { value: "custom" }, t("lobby.clock.custom")),
  );
  sel.value = kept || "0";
  sel.onchange = () => showCustom();
  document.getElementById("clock-row").hidden = !!game.simultaneous;
  let box = document.getElementById("clock-custom");
  if (!box) {
    box = el("fieldset", { id: "clock-custom", class: "clock-custom", hidden: true });
    document.getElementById("clock-row").after(box);
  } else {
    for (const key of Object.keys(FIELDS)) KEPT[key] = document.getElementById(FIELDS[key][0]).value;
    KEPT.kind = document.getElementById("clock-kind").value;
  }
  const kind = el("select", { id: "clock-kind" }, el("option", { value: "fischer" }, t("lobby.clock.fischer")), el("option", { value: "byoyomi" }, t("lobby.clock.byoyomi_kind")));
  kind.value = KEPT.kind || "byoyomi";
  kind.onchange = () => showCustom();
  const rows = Object.entries(FIELDS).map(([key, [id, label, min, max]]) => {
    const input = el("input", { id, type: "number", inputmode: "numeric", min, max, step: 1, required: true, value: KEPT[key] });
    input.addEventListener("input", () => check(input));
    return el("div", { class: "row", "data-clock-field": key }, el("label", { for: id }, t(label)), input);
  });
  box.replaceChildren(
    el("legend", {}, t("lobby.clock.custom")),
    el("div", { class: "row" }, el("label", { for: "clock-kind" }, t("lobby.clock.kind")), kind),
    ...rows,
    el("p", { id: "clock-hint", class: "hint" }),
  );
  showCustom();
}

function check(input) {
  const key = Object.keys(FIELDS).find((k) => FIELDS[k][0] === input.id);
  const [, label, , max] = FIELDS[key];
  const min = key === "main" && document.getElementById("clock-kind").value === "fischer" ? 1 : FIELDS[key][2];
  input.min = String(min);
  const v = Number(input.value);
  const ok = input.value.trim() !== "" && Number.isInteger(v) && v >= min && v <= max;
  input.setCustomValidity(ok ? "" : t("lobby.clock.bad", { field: t(label), min, max }));
  return ok;
}

function showCustom() {
  const box = document.getElementById("clock-custom");
  const custom = document.getElementById("clock").value === "custom" && !document.getElementById("clock-row").hidden;
  box.hidden = !custom;
  const byo = document.getElementById("clock-kind").value === "byoyomi";
  box.querySelector("[data-clock-field=inc]").hidden = byo;
  box.querySelector("[data-clock-field=period]").hidden = !byo;
  box.querySelector("[data-clock-field=periods]").hidden = !byo;
  for (const key of Object.keys(FIELDS)) {
    const input = document.getElementById(FIELDS[key][0]);
    const used = custom && !input.closest(".row").hidden;
    input.disabled = !used; // a hidden field takes no part in the form's validation
    if (used) check(input);
  }
  document.getElementById("clock-hint").textContent = byo ? t("lobby.clock.byoyomi_hint") : t("lobby.clock.fischer_hint");
}

function num(id) {
  return Number(document.getElementById(id).value);
}

/** The request's ``clock`` (seconds), or null for no clock. */
export function clockChoice(game) {
  const v = document.getElementById("clock").value;
  if (game.simultaneous || v === "0" || !v) return null;
  if (v === "custom") {
    const initial = Math.round(num("clock-main") * 60);
    if (document.getElementById("clock-kind").value === "fischer") return { initial, increment: num("clock-inc") };
    return { initial, periods: num("clock-periods"), byoyomi: num("clock-period") };
  }
  if (v.startsWith("d")) return { per_move: Number(v.slice(1)) * 86400 };
  if (v.startsWith("b")) {
    const [min, periods, byoyomi] = BYOYOMI[Number(v.slice(1))];
    return { initial: min * 60, periods, byoyomi };
  }
  const [min, increment] = FISCHER[Number(v) - 1];
  return { initial: min * 60, increment };
}

/** False (and the browser says why, in the page's language) when a custom field is out of
 * range: for the buttons outside the form's own submit. */
export function clockValid() {
  const box = document.getElementById("clock-custom");
  if (!box || box.hidden) return true;
  return [...box.querySelectorAll("input:not([disabled])")].every((i) => check(i) && i.reportValidity());
}

/** A control in a few words (the open games' list): "10+5" or "10 min, byo-yomi 3 × 30 s". */
export function clockShort(c) {
  if (!c) return "";
  if (c.per_move) return c.per_move % 86400 === 0 ? t("lobby.clock.days", { n: c.per_move / 86400 }) : t("lobby.clock.hours", { n: Math.round(c.per_move / 3600) });
  if (c.byoyomi) return byoyomiLabel(Math.round(c.initial / 60), c.periods, c.byoyomi);
  return `${Math.round(c.initial / 60)}+${c.increment}`;
}
