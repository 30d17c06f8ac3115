// The setup screen of a Hidden Jungle game: the player's animals on their side's start squares, as letters in
// start-square order (the order the server reads a setup in, docs/hidden.md "Setups"). The page starts from
// the animals the server drew on those squares and only rearranges them; the server checks the setup.

import { parseFen, placement } from "./board.js";

/** The start squares in increasing square order (rank by rank from a1, file by file in a rank). */
export function inSetupOrder(squares) {
  const index = (sq) => (Number(sq.slice(1)) - 1) * 7 + "abcdefg".indexOf(sq[0]);
  return [...squares].sort((a, b) => index(a) - index(b));
}

/** The side's animal letters on `squares` of a (view) FEN, upper case; "" when a square holds none of them. */
export function lettersOn(fen, squares, side) {
  const { pieces } = parseFen(fen);
  return squares.map((sq) => {
    const piece = pieces[sq];
    return piece && piece.side === side && piece.animal !== "x" ? piece.animal.toUpperCase() : "";
  }).join("");
}

/** `letters` with the animals at positions `i` and `j` exchanged. */
export function swapped(letters, i, j) {
  const list = [...letters];
  [list[i], list[j]] = [list[j], list[i]];
  return list.join("");
}

/** The letters in a uniformly random order (Fisher–Yates, from the browser's cryptographic generator). */
export function shuffled(letters) {
  const list = [...letters];
  const random = new Uint32Array(list.length);
  crypto.getRandomValues(random);
  for (let i = list.length - 1; i > 0; i--) {
    const j = random[i] % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list.join("");
}

/** `fen` with `side`'s pieces on `squares` replaced by `letters` (one per square, in the same order). */
export function withLetters(fen, squares, side, letters) {
  const { pieces } = parseFen(fen);
  squares.forEach((sq, i) => { pieces[sq] = { side, animal: letters[i].toLowerCase() }; });
  return `${placement(pieces)} ${fen.trim().split(/\s+/).slice(1).join(" ")}`;
}

/** The board's "moves" of the setup screen: from any start square to any other, each one a swap. */
export function swapMoves(squares) {
  return squares.flatMap((from) => squares.filter((to) => to !== from).map((to) => from + to));
}
