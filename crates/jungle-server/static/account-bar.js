// The account bar of every page's top bar: the signed-in name (a link to the player's profile) and the
// settings, or "Sign in". Names are shown as text, never as HTML.

import { t } from "./i18n.js";

/** Who is signed in (`null`: a guest), as `GET /api/me` says. */
export async function signedInName() {
  try {
    const response = await fetch("/api/me");
    return response.ok ? (await response.json()).name : null;
  } catch {
    return null;
  }
}

function link(href, text, id) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.id = id;
  return a;
}

/** Adds the bar to the page's `.top-bar`. */
export async function mountAccountBar() {
  const bar = document.querySelector(".top-bar");
  if (!bar || document.getElementById("account-bar")) return;
  const box = document.createElement("span");
  box.id = "account-bar";
  box.className = "account-bar";
  bar.insertBefore(box, document.getElementById("lang"));
  const name = await signedInName();
  if (name) {
    box.append(link(`/@/${encodeURIComponent(name)}`, name, "account-name"), link("/account", t("account.settings"), "account-settings"));
  } else {
    // The log-in page sends the player back here once signed in (account.js, `returnPath`).
    const here = location.pathname + location.search;
    const href = location.pathname === "/login" ? "/login" : `/login?next=${encodeURIComponent(here)}`;
    box.append(link(href, t("account.signIn"), "account-sign-in"));
  }
}
