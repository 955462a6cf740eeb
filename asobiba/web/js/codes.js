// Issue 26 item 2: every refusal and every end of game arrives as a code with arguments
// ({"code": "illegal", "args": {"move": "a1", "why": "reversi.no_bracket", "sq": "a1", ...}},
// a result's {"code": "flipflop.holds", "args": {"colour": "white", "sq": "b3"}}) and is
// rendered here from the one i18n table, in the page's language. The server's English
// ``message`` / ``reason`` is never shown (only a result stored before codes existed, which
// has no code, falls back to its stored sentence, translated when the table knows it).
import { has, t } from "./i18n.js";

/** An argument value as shown: a word argument (a colour, a piece's face, a step) is itself
 * a key, "arg.<name>.<value>" (the game's own first); anything else (a square, a number) is
 * shown as it is. */
export function argText(name, value, game = null) {
  const key = `arg.${name}.${value}`;
  return has(key, game) ? t(key, {}, game) : String(value);
}

export function argsText(args, game = null) {
  const out = {};
  for (const [k, v] of Object.entries(args || {})) out[k] = argText(k, v, game);
  return out;
}

/** The text of a refusal ``{code, args}`` (a WebSocket error or an HTTP error body). */
export function refusalText(err, game = null) {
  const args = argsText(err.args, game);
  const rule = err.args && err.args.why;
  if (rule && has(`why:${rule}`, game)) args.why = t(`why:${rule}`, args, game);
  else if (rule) args.why = t("why:unknown", { code: rule }, game);
  // a refusal whose specific reason is a code of its own (an option's or a record's:
  // {"code": "bad_options", "args": {"why": "option.bad_value", …}}) says it
  const key = rule && has(`err:${err.code}.why`, game) ? `err:${err.code}.why` : `err:${err.code}`;
  if (has(key, game)) return t(key, args, game);
  return t("err:unknown", { code: err.code }, game);
}

/** The text of a game's end ``{code, args, reason}`` (a result or an outcome). */
export function reasonText(result, game = null) {
  if (result.code && has(`reason:${result.code}`, game)) return t(`reason:${result.code}`, argsText(result.args, game), game);
  const legacy = `reason:${result.reason}`; // a record made before codes: its English sentence
  return has(legacy, game) ? t(legacy, {}, game) : result.reason || "";
}
