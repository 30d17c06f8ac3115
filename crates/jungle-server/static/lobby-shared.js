// What the lobby page, the home page's list of the player's games and the game page share: the way into a
// game the lobby made, and how a time control and the time left are written.

import { postJson } from "./api.js";
import { t } from "./i18n.js";

/** Takes this account's seat in a game the lobby made (from any device) and goes there. */
export async function enterGame(gameId) {
  const answer = await postJson(`/api/lobby/games/${encodeURIComponent(gameId)}/seat`);
  location.href = answer.url;
}

/** "3+2" for a clock, "2 days / move" for correspondence. */
export function timeText(time) {
  if (time.kind === "correspondence") {
    return time.days_per_move === 1 ? t("lobby.oneDay") : t("lobby.days", { n: time.days_per_move });
  }
  const minutes = time.initial_ms / 60000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${time.increment_ms / 1000}`;
}

/** The time left until a deadline (Unix ms), in days, hours or minutes. */
export function timeLeft(deadline, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((deadline - now) / 60000));
  if (minutes >= 2 * 1440) return t("lobby.leftDays", { n: Math.floor(minutes / 1440) });
  if (minutes >= 120) return t("lobby.leftHours", { n: Math.floor(minutes / 60) });
  return t("lobby.leftMinutes", { n: minutes });
}
