// The PGN import form of the home and replay pages.

import { $ } from "./dom.js";

/**
 * Makes the form `#import` send its PGN (`#pgn`) to the server and open the imported game; a refusal is shown
 * in the element `errorId`. Used by the home and replay pages.
 */
export function wireImportForm(errorId) {
  $("import").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const response = await fetch("/api/import", {
        method: "POST",
        headers: { "Content-Type": "application/x-chess-pgn" },
        body: $("pgn").value,
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      location.href = answer.url;
    } catch (e) {
      $(errorId).textContent = String(e.message || e);
      $(errorId).hidden = false;
    }
  });
}
