// The settings page (/settings): one labelled select per setting (js/settings.js holds the
// values and applies them); a change is applied at once and saved (here, and on the account
// when signed in).
import { applyStatic, mountSwitch, onLangChange, t } from "./i18n.js";
import { CHOICES, get, playTone, ready, update } from "./settings.js";
import { el } from "./util.js";

const HINTS = { feedback: "settings.feedback_hint" };

function build() {
  const form = document.getElementById("settings-form");
  const s = get();
  const rows = Object.entries(CHOICES).map(([key, values]) => {
    const select = el("select", { id: `set-${key}`, name: key, "data-setting": key },
      ...values.map((v) => el("option", { value: v, selected: s[key] === v }, t(`settings.${key}.${v}`))));
    select.addEventListener("change", () => save({ [key]: select.value }));
    const row = el("div", { class: "row setting" }, el("label", { for: `set-${key}` }, t(`settings.${key}`)), select);
    if (key === "tone") row.append(el("button", { type: "button", id: "tone-try", onclick: () => playTone(select.value) }, t("settings.tone_try")));
    if (HINTS[key]) row.append(el("span", { class: "hint" }, t(HINTS[key])));
    return row;
  });
  form.replaceChildren(...rows);
  document.getElementById("where").textContent = t(document.documentElement.dataset.settings === "account" ? "settings.where_account" : "settings.where_local");
}

async function save(changes) {
  const saved = document.getElementById("saved");
  const error = document.getElementById("error");
  error.textContent = "";
  document.body.dataset.saved = "false";
  if (changes.notify === "on" && "Notification" in window && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission().catch(() => null);
    if (answer !== "granted") error.textContent = t("settings.notify_denied");
  }
  try {
    const res = await update(changes);
    saved.textContent = t(res ? "settings.saved_account" : "settings.saved_local");
    document.body.dataset.saved = "true";
  } catch (e) {
    error.textContent = t("settings.error", { msg: e.message });
  }
  build();
}

mountSwitch(document.getElementById("lang"));
applyStatic();
document.title = `${t("settings.title")} — ${t("app.name")}`;
onLangChange(() => {
  document.title = `${t("settings.title")} — ${t("app.name")}`;
  build();
});
await ready;
build();
document.body.dataset.ready = "true";
