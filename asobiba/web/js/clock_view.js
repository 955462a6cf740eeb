// A seat's clock as text: Fischer and correspondence clocks show the time left; a byo-yomi
// clock shows the main time and the periods behind it, then, once the main time is gone,
// the current period counting down and how many periods are left.
import { t } from "./i18n.js";

export function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** ``left``: the seconds before the seat's flag falls (the server's ``remaining``, counted
 * down by the page for the running seat); ``periods_left`` is as the server last said. */
export function clockText(clock, seat, left) {
  if (!clock.byoyomi) return fmtClock(left);
  const s = clock.byoyomi;
  const periods = clock.periods_left[seat];
  if (left > periods * s) return t("room.clock.main_byo", { time: fmtClock(left - periods * s), n: periods, s });
  const n = Math.max(0, Math.ceil(left / s));
  return t("room.clock.in_byo", { time: fmtClock(n ? left - (n - 1) * s : 0), n });
}
