// A rated game's ratings on the game page: each player's rating beside their name, the game's terms (rated
// or casual, time control) in the panel, and when the game ends, how it moved ("1500? → 1662? (+162)") in the
// result banner and the terms. Casual games show no ratings.

import { loadRatings, ratingsMoved, termsText } from "./game-terms.js";

/**
 * Returns `update(state)`, for the game page to call after each render of the players; `update.rated()`
 * says whether the game is rated (`null` until known). `loaded` is called after each answer.
 */
export function followRatings(gameId, loaded = () => {}) {
  let ratings = null;
  let fetchedOver = null;
  let shown = null;
  // The terms wait for the first answer: a rated game is not shown as casual meanwhile.
  let known = false;

  async function load(over) {
    fetchedOver = over;
    ratings = await loadRatings(gameId);
    known = true;
    apply();
    loaded();
  }

  function apply() {
    for (const el of document.querySelectorAll(".player[data-side]")) {
      const span = el.querySelector(".rating");
      if (!span) continue;
      const seat = ratings && ratings[el.dataset.side];
      span.textContent = seat ? (seat.after_shown ?? seat.before_shown) : "";
    }
    const terms = document.getElementById("terms");
    if (terms && shown && known) terms.textContent = termsText(shown, ratings);
    const banner = document.getElementById("banner-ratings");
    if (!banner) return;
    const moved = ratingsMoved(ratings);
    banner.hidden = !moved;
    banner.textContent = moved;
  }

  function update(state) {
    shown = state;
    const over = Boolean(state.outcome);
    if (fetchedOver !== over) load(over);
    else apply();
  }
  update.rated = () => (known ? Boolean(ratings) : null);
  return update;
}
