// The move list of the game and replay pages: one row per move number, "1. Ea3-a4 Ra7-a6" (the animal notation
// the server sends as `animal_moves`).

import { t } from "./i18n.js";

export function sideName(side) {
  return t(`side.${side}`);
}

// Move list rows: "1. a3a4 g7g6". startsRed: the game's first move is Red's.
function jungleMoveRows(moves, startsRed) {
  const rows = [];
  let i = 0;
  let number = 1;
  if (startsRed && moves.length) {
    rows.push({ number, blue: null, red: { move: moves[0], ply: 0 } });
    i = 1;
    number = 2;
  }
  for (; i < moves.length; i += 2, number++) {
    rows.push({
      number,
      blue: { move: moves[i], ply: i },
      red: i + 1 < moves.length ? { move: moves[i + 1], ply: i + 1 } : null,
    });
  }
  return rows;
}

/**
 * Fills the move list element `list` (an <ol>) with one row per move number; `decorate(span, half)` is called
 * for each half-move span that holds a move (`half` is `{move, ply}`), so each page adds its own highlight and
 * clicks.
 */
export function fillMoveList(list, moves, startFen, decorate) {
  list.textContent = "";
  const startsRed = startFen.split(" ")[1] === "b";
  for (const row of jungleMoveRows(moves, startsRed)) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${row.number}.`;
    li.appendChild(num);
    for (const half of [row.blue, row.red]) {
      const span = document.createElement("span");
      span.className = "mv";
      span.textContent = half ? half.move : "…";
      if (half) decorate(span, half);
      li.appendChild(span);
    }
    list.appendChild(li);
  }
}
