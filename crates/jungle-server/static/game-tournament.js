// A tournament game's page links back to its tournament ("Round 2 of Friday Swiss"); other games show
// nothing (the server answers 404 for them).

import { $ } from "./dom.js";
import { t } from "./i18n.js";

/** Shows the link to the tournament of game `gameId`, if it belongs to one. */
export async function linkTournament(gameId) {
  try {
    const response = await fetch(`/api/tournaments/of-game/${encodeURIComponent(gameId)}`);
    if (!response.ok) return;
    const tournament = await response.json();
    const link = $("tournament-link");
    link.href = tournament.url;
    link.textContent = tournament.kind === "swiss"
      ? t("tour.roundOfName", { n: tournament.round, name: tournament.name })
      : t("tour.gameOfArena", { name: tournament.name });
    link.hidden = false;
  } catch {
    // Not worth an error on the game's page: the link stays hidden.
  }
}
