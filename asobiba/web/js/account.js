// Sign in, create an account, play as a guest, sign out. The session lives in an HttpOnly
// cookie set by the server; this page never sees the token.
import { t } from "./i18n.js";
import { el } from "./util.js";
import { page, post, showError, whoami } from "./progress.js";

let player = null;

async function draw() {
  document.getElementById("page-title").textContent = t("acct.title");
  document.title = `${t("acct.title")} — ${t("app.name")}`;
  player = await whoami();
  const signed = Boolean(player);
  document.body.dataset.signedIn = String(signed);
  document.getElementById("signed-in").hidden = !signed;
  document.getElementById("guest-note").hidden = !(signed && player.kind === "guest");
  document.getElementById("forms").hidden = signed && player.kind !== "guest";
  document.getElementById("login-h").hidden = signed;
  document.getElementById("login-form").hidden = signed;
  if (signed) {
    document.getElementById("me").replaceChildren(el("strong", { id: "me-name" }, player.name), player.kind === "guest" ? ` (${t("acct.guest_kind")})` : "");
    document.getElementById("my-page").href = `/player/${player.id}`;
  }
}

async function act(fn) {
  const busy = document.getElementById("busy");
  busy.textContent = t("acct.busy");
  showError(null);
  try {
    await fn();
    busy.textContent = "";
    await draw();
  } catch (err) {
    busy.textContent = "";
    showError(err);
  }
}

function wire() {
  document.getElementById("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act(() => post("/api/account/login", { name: document.getElementById("login-name").value, password: document.getElementById("login-password").value }));
  });
  document.getElementById("register-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act(() => post("/api/account/register", { name: document.getElementById("reg-name").value, password: document.getElementById("reg-password").value }));
  });
  document.getElementById("guest").addEventListener("click", () => act(() => post("/api/account/guest")));
  document.getElementById("logout").addEventListener("click", () => act(() => post("/api/account/logout")));
}

wire();
page(draw);
