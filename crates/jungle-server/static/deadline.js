// A correspondence game's deadline on the game page: who must move by when, and the time left.

import { $ } from "./dom.js";
import { locale, t } from "./i18n.js";
import { timeLeft } from "./lobby-shared.js";

/** Shows (or hides) the deadline of the side to move for the state `s`. */
export function drawDeadline(s) {
  const el = $("deadline");
  const shown = Boolean(s.correspondence && !s.outcome);
  el.hidden = !shown;
  if (!shown) return;
  const deadline = s.correspondence.deadline_ms;
  const date = new Date(deadline).toLocaleString(locale(),
    { dateStyle: "medium", timeStyle: "short" });
  el.textContent = t("corr.deadline", { side: t(`side.${s.turn}`), date, left: timeLeft(deadline) });
}

/** The meta line's words for a correspondence game's time control. */
export function correspondenceMeta(s) {
  return s.correspondence ? t("corr.meta", { n: s.correspondence.days_per_move }) : null;
}
