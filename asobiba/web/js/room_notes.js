// The room's notes and claims, rendered from codes (asobiba/server/room/notes.py and
// presence.py): the server never sends prose, the page says it in the reader's language.
import { t } from "./i18n.js";

/** The words of one note ``{code, args}``; ``seatName(seat)`` names a seat and ``you`` lists
 * the seats this page holds (a note about one of them says "You"). */
export function noteText(note, seatName, you) {
  const args = note.args || {};
  const who = (seat) => (you.includes(seat) ? t("note.you") : seatName(seat));
  switch (note.code) {
    case "undo_declined":
    case "draw_declined":
    case "rematch_declined":
    case "aborted":
      return t(`note.${note.code}`, { name: who(args.seat) });
    case "hint_taken":
      return t("note.hint_taken", { name: who(args.seat), count: args.count });
    case "bot_fallback":
      return t("note.bot_fallback", { name: seatName(args.seat), why: t(`note.why.${args.why}`) });
    case "claimed":
      return t(args.kind === "abort" ? "note.claimed_abort" : "note.claimed_win", { name: who(args.seat), other: seatName(args.against) });
    default:
      return t("note.unknown", { code: String(note.code) });
  }
}

let due = new Map(); // seat -> the time (ms, this page's clock) a claim against it opens
let ticker = null;

/** The claim countdown: ``claims`` (``[{seat, in}]``, seconds from now) of the seats that
 * joined and left; only those this page does not hold count. The "Claim the win" button
 * shows only then, disabled until the countdown ends. */
export function drawClaims(claims, { held, active, you, seatName }) {
  const button = document.getElementById("claim");
  const box = document.getElementById("claim-wait");
  const now = Date.now();
  due = new Map((held && active ? claims || [] : []).filter((c) => !you.includes(c.seat)).map((c) => [c.seat, now + c.in * 1000]));
  const tick = () => {
    const left = [...due.entries()].map(([seat, at]) => [seat, Math.max(0, Math.ceil((at - Date.now()) / 1000))]);
    button.hidden = !left.length;
    box.hidden = !left.length;
    if (!left.length) {
      clearInterval(ticker);
      ticker = null;
      return;
    }
    const soonest = Math.min(...left.map(([, s]) => s));
    const names = left.map(([seat]) => seatName(seat)).join(", ");
    button.disabled = soonest > 0;
    box.textContent = soonest > 0 ? t("room.claim_in", { name: names, secs: soonest }) : t("room.claim_now", { name: names });
    box.dataset.secs = String(soonest);
  };
  tick();
  if (due.size && ticker === null) ticker = setInterval(tick, 500);
}
