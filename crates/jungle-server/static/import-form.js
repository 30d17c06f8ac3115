// The PGN import form of the home and replay pages.

import { post } from "./api.js";
import { $ } from "./dom.js";

/**
 * Makes the form `#import` send its PGN (`#pgn`) to the server and open the imported game; a refusal is shown
 * in the element `errorId`. Used by the home and replay pages.
 */
export function wireImportForm(errorId) {
  $("import").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      location.href = (await post("/api/import", $("pgn").value, "application/x-chess-pgn")).url;
    } catch (e) {
      $(errorId).textContent = String(e.message || e);
      $(errorId).hidden = false;
    }
  });
}
