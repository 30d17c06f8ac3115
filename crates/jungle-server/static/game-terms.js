// The terms a game is played on, as the game and replay pages show them under the players: rated (and in
// which category) or casual, the time control, and once a rated game has ended how it moved each rating.

import { t } from "./i18n.js";
import { timeText } from "./lobby-shared.js";

/** A game's ratings (`GET /api/games/ID/ratings`): `null` for a casual game, or when they cannot be read. */
export async function loadRatings(gameId) {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`);
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** "1500? → 1662? (+162)": one seat's rating before and after a rated game. */
export function ratingChange(seat) {
  const diff = Math.round(seat.after) - Math.round(seat.before);
  return `${seat.before_shown} → ${seat.after_shown} (${diff >= 0 ? "+" : ""}${diff})`;
}

/** How the ratings moved ("Blitz ratings: Blue …, Red …"), or "" before a rated game's end. */
export function ratingsMoved(ratings) {
  if (!ratings || ratings.blue.after == null) return "";
  return t("ratings.moved", {
    category: t(`category.${ratings.category}`),
    blue: ratingChange(ratings.blue),
    red: ratingChange(ratings.red),
  });
}

/**
 * "Rated Blitz · 5+3 · Blitz ratings: Blue 1500? → 1662? (+162), …" for a game between people, "Casual ·
 * untimed"; for a game against the engine only its time control. `game` is the game's state (snapshot).
 */
export function termsText(game, ratings) {
  const parts = [];
  if (game.mode === "friend") {
    parts.push(ratings ? t("terms.rated", { category: t(`category.${ratings.category}`) }) : t("terms.casual"));
  }
  if (game.correspondence) {
    parts.push(timeText({ kind: "correspondence", days_per_move: game.correspondence.days_per_move }));
  } else if (game.clock) {
    parts.push(timeText({ kind: "clock", initial_ms: game.clock.initial_ms, increment_ms: game.clock.increment_ms }));
  } else if (game.mode !== "import") {
    parts.push(t("meta.untimed"));
  }
  const moved = ratingsMoved(ratings);
  if (moved) parts.push(moved);
  return parts.join(" · ");
}
