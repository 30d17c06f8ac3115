// What the tournaments' list and a tournament's page both write: a tournament's kind, clock and rules in a
// few words, and a countdown.

import { t } from "./i18n.js";
import { timeText } from "./lobby-shared.js";

/** "Swiss · 5 rounds · 3+2 · rated", "Arena · 30 min · 1+0 · casual · modern". */
export function describe(tournament) {
  const kind = tournament.kind === "swiss"
    ? t("tour.swissRounds", { n: tournament.rounds })
    : t("tour.arenaMinutes", { n: Math.round(tournament.duration_ms / 6000) / 10 });
  const clock = timeText({
    kind: "clock",
    initial_ms: tournament.clock_initial_ms,
    increment_ms: tournament.clock_increment_ms,
  });
  const parts = [kind, clock, tournament.rated ? t("lobby.ratedGame") : t("lobby.casualGame")];
  if (tournament.rules !== "standard") parts.push(tournament.rules);
  return parts.join(" · ");
}

/** "4:05" or "1:02:03" until `at` (Unix ms), never negative. */
export function countdown(at, now) {
  const total = Math.max(0, Math.ceil((at - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
