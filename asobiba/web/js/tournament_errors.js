// The text of a tournament API error, from its code (docs/tournaments.md). Its own module:
// /t/<id> imports it, and importing tournaments.js would run that page's code there.
import { has, t } from "./i18n.js";
import { errorMessage } from "./util.js";

export function errorText(body, status) {
  const err = body && typeof body.error === "object" ? body.error : null;
  if (err && has(`tour.err.${err.code}`)) return t(`tour.err.${err.code}`, err.args || {});
  if (status >= 500) return t("error.server");
  return err ? errorMessage(body, status) : String(status);
}
