// The public moves of Hidden Jungle (docs/hidden.md): `a3a4` an unknown piece's quiet move, `g3g4=R` a known
// mover, `c3c4=LxC` a Lion that attacked and took a Cat, `c3c4=C/L` a Cat that attacked a Lion and was taken.
// They say only what both players know; this module reads them and puts them into words.

import { t } from "./i18n.js";

/** A public move's parts: { from, to, mover (animal letter, lower case, or null), effect ("x", "/" or null),
 * defender (letter or null) }; null for text that is not a public move. */
export function readPublic(text) {
  const match = /^([a-g][1-9])([a-g][1-9])(?:=([RCWDPTLE])(?:([x/])([RCWDPTLE]))?)?$/i.exec(text || "");
  if (!match) return null;
  const letter = (l) => (l ? l.toLowerCase() : null);
  return { from: match[1], to: match[2], mover: letter(match[3]), effect: match[4] || null, defender: letter(match[5]) };
}

function animal(letter) {
  return t(`animal.${letter}`);
}

/**
 * What a move made public, in words, or null when it made nothing public: "Red's Lion attacks and takes the
 * Cat", "Blue's Cat attacks the Lion and is taken", "Red's Tiger is revealed" (a jump or a swim).
 * `wasHidden`: whether the mover was face down on this page before the move (a known piece moving is no news).
 */
export function revealWords(text, side, wasHidden) {
  const move = readPublic(text);
  if (!move || !move.mover) return null;
  const words = { side: t(`side.${side}`), attacker: animal(move.mover), defender: move.defender ? animal(move.defender) : "" };
  if (move.effect === "x") return t("hidden.takes", words);
  if (move.effect === "/") return t("hidden.repelled", words);
  return wasHidden ? t("hidden.revealed", words) : null;
}
