// The log-in / sign-up page and the account settings page (change password, log out).

import { postJson } from "./api.js";
import { mountAccountBar, signedInName } from "./account-bar.js";
import { $ } from "./dom.js";
import { localise, tOr } from "./i18n.js";
import { returnPath } from "./return-path.js";

localise();
mountAccountBar();

/** Sends a form's request; shows the server's refusal in `errorId`, else runs `done`. The page's submit
 * buttons start disabled and are enabled here: a form sent before this script ran would go to the server as
 * a plain form, with the password in it. */
function wire(formId, errorId, request, done) {
  const form = $(formId);
  if (!form) return;
  form.querySelector("button[type=submit]").disabled = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorId).hidden = true;
    try {
      done(await request());
    } catch (e) {
      $(errorId).textContent = tOr(`error.${e.message}`, String(e.message || e));
      $(errorId).hidden = false;
    }
  });
}

const home = () => { location.href = "/"; };
// Signed in or up, the player goes back to the page they came from: the `next` parameter, else the page that
// linked here.
const back = () => { location.href = returnPath(new URLSearchParams(location.search).get("next") ?? document.referrer); };
wire("login", "login-error",
  () => postJson("/api/login", { name: $("login-name").value, password: $("login-password").value }), back);
wire("signup", "signup-error",
  () => postJson("/api/signup", { name: $("signup-name").value, password: $("signup-password").value }), back);
wire("password", "password-error",
  () => postJson("/api/password", { old: $("old-password").value, new: $("new-password").value }),
  () => {
    $("password").reset();
    $("password-done").hidden = false;
  });

if ($("logout")) {
  $("logout").addEventListener("click", async () => {
    await postJson("/api/logout").catch(() => {});
    home();
  });
  signedInName().then((name) => {
    if (name) return;
    $("signed-out").hidden = false;
    $("password").hidden = true;
    $("logout").hidden = true;
  });
}
