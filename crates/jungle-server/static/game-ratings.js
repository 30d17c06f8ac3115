// A rated game's ratings on the game page: each player's rating beside their name, and when the game ends,
// how it moved ("1500? → 1662? (+162)") in the result banner. Casual games show nothing.

import { t } from "./i18n.js";

/** Returns `update(state)`, for the game page to call after each render of the players. */
export function followRatings(gameId) {
  let ratings = null;
  let fetchedOver = null;

  async function load(over) {
    fetchedOver = over;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`);
      if (response.ok) ratings = await response.json();
    } catch {
      // No ratings shown; the game itself is unaffected.
    }
    apply();
  }

  function change(seat) {
    const diff = Math.round(seat.after) - Math.round(seat.before);
    return `${seat.before_shown} → ${seat.after_shown} (${diff >= 0 ? "+" : ""}${diff})`;
  }

  function apply() {
    for (const el of document.querySelectorAll(".player[data-side]")) {
      const span = el.querySelector(".rating");
      if (!span) continue;
      const seat = ratings && ratings[el.dataset.side];
      span.textContent = seat ? (seat.after_shown ?? seat.before_shown) : "";
    }
    const banner = document.getElementById("banner-ratings");
    if (!banner) return;
    const settled = ratings && ratings.blue.after != null;
    banner.hidden = !settled;
    banner.textContent = settled
      ? t("ratings.moved", {
        category: t(`category.${ratings.category}`),
        blue: change(ratings.blue),
        red: change(ratings.red),
      })
      : "";
  }

  return function update(state) {
    const over = Boolean(state.outcome);
    if (fetchedOver !== over) load(over);
    else apply();
  };
}
