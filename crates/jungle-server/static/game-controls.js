// Controls both game pages share (the open game's and Hidden Jungle's): the sound switch, the Join button of a
// free seat, the share box's Copy button, and the keys that step through the moves.

import { postJson } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { muted, setMuted } from "./sound.js";

/** The sound switch (#mute): its label and pressed state follow the choice the browser remembers. */
export function wireMute() {
  const draw = () => {
    $("mute").setAttribute("aria-pressed", String(muted()));
    $("mute").textContent = t(muted() ? "game.soundOff" : "game.soundOn");
  };
  $("mute").addEventListener("click", () => {
    setMuted(!muted());
    draw();
  });
  draw();
}

/**
 * The Join button (#join-button) takes the free seat with a POST to `url`; then `joined()` (the seat cookie
 * is set, so the page's next connection carries it), or `failed(message)`.
 */
export function wireJoin(url, joined, failed) {
  const button = $("join-button");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await postJson(url);
      joined();
    } catch (e) {
      failed(e instanceof TypeError ? t("game.tryAgain") : String(e.message));
    } finally {
      button.disabled = false;
    }
  });
}

/** The share box's Copy button (#copy) copies this page's address (#share-link shows it). */
export function wireCopy() {
  $("copy").addEventListener("click", () => {
    $("share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
  });
}

/**
 * ← → Home End step through the moves, unless the board or a field has the focus (there they move the
 * cursor). `shown()` is the ply shown now (null: nothing to step through yet); `browse(ply)` shows a ply
 * (null: the live position).
 */
export function wireMoveKeys(shown, browse) {
  document.addEventListener("keydown", (e) => {
    const at = shown();
    if (at === null || e.target.closest("#board, input, textarea, select")) return;
    const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: null }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    browse(step);
  });
}
