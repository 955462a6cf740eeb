// CPU levels in players' words: weakest first, each named by its title (which carries the
// level in both languages, e.g. "Lv.1 Entry" / "Lv.1 入門") and never by its raw id.
import { localized, t } from "./i18n.js";

/** A game's CPU levels (describe()'s ``bots``), weakest first: a level named "random" plays
 * no plan at all and comes first (the ladder's rule, progression/ladder_data.spread_levels);
 * the rest keep the game's own order, which is weakest first. */
export function orderedBots(game) {
  const bots = (game && game.bots) || [];
  return [...bots.filter((b) => b.level === "random"), ...bots.filter((b) => b.level !== "random")];
}

/** The title of ``level`` in the page's language ("Lv.2 Forgetful"); the id if unknown. */
export function botTitle(game, level) {
  const bot = ((game && game.bots) || []).find((b) => b.level === String(level));
  return bot ? localized(bot, "title") : String(level);
}

/** "CPU: Lv.2 Forgetful" / "CPU：Lv.2 うっかり". */
export function cpuName(game, level) {
  return t("lobby.cpu", { level: botTitle(game, level) });
}
