// The profile's puzzle history: the player's rated puzzle attempts (their first at each puzzle), newest first,
// a page of twenty at a time, each with the puzzle (a link to it), solved or failed, the rating change and the
// day. Everything the server sends is written with textContent.

import { $ } from "./dom.js";
import { t } from "./i18n.js";

function cell(row, content) {
  const td = document.createElement("td");
  if (typeof content === "string") td.textContent = content;
  else td.appendChild(content);
  row.appendChild(td);
}

function ratingChange(a) {
  if (a.rating_before === null || a.rating_after === null) return "—";
  const [before, after] = [Math.round(a.rating_before), Math.round(a.rating_after)];
  const delta = after - before;
  return `${before} → ${after} (${delta >= 0 ? "+" : "−"}${Math.abs(delta)})`;
}

/** Fills the puzzle history of the player whose API address is `api` (`/api/users/NAME`). */
export function mountPuzzleHistory(api) {
  let page = 0;
  const load = async () => {
    try {
      const response = await fetch(`${api}/puzzles?page=${page}`);
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      const body = $("puzzle-history").querySelector("tbody");
      body.textContent = "";
      for (const a of answer.attempts) {
        const row = document.createElement("tr");
        row.dataset.puzzle = a.puzzle_id;
        const link = document.createElement("a");
        link.href = `/puzzles/${encodeURIComponent(a.puzzle_id)}`;
        link.textContent = a.puzzle_id;
        cell(row, link);
        cell(row, t(a.solved ? "profile.puzzleSolved" : "profile.puzzleFailed"));
        cell(row, ratingChange(a));
        cell(row, new Date(a.played_at).toISOString().slice(0, 10));
        row.className = a.solved ? "solved" : "failed";
        body.appendChild(row);
      }
      const empty = answer.attempts.length === 0 && answer.page === 0;
      $("no-puzzles").hidden = !empty;
      $("puzzle-history").hidden = empty;
      $("puzzle-nav").hidden = empty;
      $("puzzle-page").textContent = t("profile.page", { n: answer.page + 1 });
      $("puzzles-newer").disabled = answer.page === 0;
      $("puzzles-older").disabled = !answer.more;
    } catch (e) {
      $("puzzle-error").textContent = e.message;
      $("puzzle-error").hidden = false;
    }
  };
  $("puzzles-newer").addEventListener("click", () => { page = Math.max(0, page - 1); load(); });
  $("puzzles-older").addEventListener("click", () => { page += 1; load(); });
  return load();
}
