// The board editor: place and remove pieces, choose the side to move and the rules; the server checks the
// position as it changes, then it can be played against the engine or analysed.

import { mountAccountBar } from "./account-bar.js";
import { JungleBoard, parseFen, pieceFace, placement } from "./board.js";
import { post, postJson } from "./api.js";
import { $ } from "./dom.js";
import { localise, t, tOr } from "./i18n.js";

const START_FEN = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
const LETTERS = "ELTPDWCR"; // strongest first, as the palette shows them

const view = { pieces: {}, pick: "E", checked: null, fen: "", layout: null };
window.jungle = view; // read by the end-to-end tests
const board = new JungleBoard($("board"), () => {});

function currentFen() {
  return `${placement(view.pieces)} ${$("turn").value} 0 1`;
}

function load(fen) {
  const parsed = parseFen(fen);
  view.pieces = parsed.pieces;
  $("turn").value = parsed.turn === "red" ? "b" : "w";
  changed();
}

let checking = null;
// Redraws, and asks the server whether the position is valid under the rules (the last answer wins).
function changed() {
  view.fen = currentFen();
  $("fen").value = view.fen;
  // Drawn with the terrain and ranks of the rules last checked; redrawn when the server answers.
  board.set(view.fen, { legal: [], board: view.layout });
  view.checked = null;
  $("play").disabled = true;
  $("study").disabled = true;
  const query = new URLSearchParams({ fen: view.fen, rules: $("rules").value });
  const asked = (checking = fetch(`/api/position?${query}`).then(async (response) => {
    const answer = await response.json();
    if (asked !== checking) return;
    if (!response.ok) {
      $("verdict").textContent = answer.error || response.statusText;
      $("verdict").className = "status invalid";
      document.body.dataset.valid = "false";
      return;
    }
    view.checked = answer;
    view.layout = answer.board;
    board.set(view.fen, { legal: [], board: view.layout });
    $("verdict").className = "status valid";
    $("verdict").textContent = answer.over
      ? t("editor.over", { reason: tOr(`reason.${answer.over}`, answer.over) })
      : t("editor.valid", { side: t(`side.${answer.turn}`), legal: answer.legal });
    $("play").disabled = Boolean(answer.over);
    $("study").disabled = false;
    document.body.dataset.valid = "true";
  }));
}

function buildPalette() {
  const palette = $("palette");
  const picks = [];
  for (const side of ["blue", "red"]) {
    for (const letter of LETTERS) {
      const animal = letter.toLowerCase();
      picks.push({ id: side === "blue" ? letter : animal, side, label: t("editor.piece", { side: t(`side.${side}`), animal: t(`animal.${animal}`) }), face: pieceFace(animal) });
    }
  }
  picks.push({ id: "x", side: "none", label: t("editor.eraser"), face: { character: "✕", name: "✕" } });
  for (const pick of picks) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `pick ${pick.side}`;
    // As on the board: the character, and the name under it where it differs (not in Chinese).
    const character = document.createElement("span");
    character.className = "zh";
    character.textContent = pick.face.character;
    button.appendChild(character);
    if (pick.face.name !== pick.face.character) {
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = pick.face.name;
      button.appendChild(name);
    }
    button.title = pick.label;
    button.setAttribute("aria-label", pick.label);
    button.setAttribute("role", "radio");
    button.dataset.pick = pick.id;
    button.addEventListener("click", () => choose(pick.id));
    palette.appendChild(button);
  }
  choose("E");
}

function choose(id) {
  view.pick = id;
  for (const button of $("palette").children) button.setAttribute("aria-checked", String(button.dataset.pick === id));
}

// A click on a square places the picked piece there (each side has one of each animal: it moves from where it
// was), or removes what is there when it is the same piece or the eraser is picked.
function place(square) {
  const pieces = view.pieces;
  const here = pieces[square];
  if (view.pick === "x") {
    delete pieces[square];
  } else {
    const side = view.pick === view.pick.toUpperCase() ? "blue" : "red";
    const animal = view.pick.toLowerCase();
    if (here && here.side === side && here.animal === animal) {
      delete pieces[square];
    } else {
      for (const [sq, p] of Object.entries(pieces)) if (p.side === side && p.animal === animal) delete pieces[sq];
      pieces[square] = { side, animal };
    }
  }
  changed();
}

$("board").addEventListener("pointerdown", (event) => {
  const square = board.squareAt(event.clientX, event.clientY);
  if (square) place(square);
});
$("turn").addEventListener("change", changed);
$("rules").addEventListener("change", changed);
$("fen").addEventListener("change", () => {
  try {
    load($("fen").value);
  } catch (_) {
    $("verdict").textContent = t("editor.badFen");
  }
});
$("start").addEventListener("click", () => load(START_FEN));
$("clear").addEventListener("click", () => { view.pieces = {}; changed(); });

/** Opens the page of the game a request makes (`request`: a promise of the server's answer). */
async function openAnswer(request) {
  $("error").hidden = true;
  try {
    location.href = (await request).url;
  } catch (e) {
    $("error").textContent = String(e.message || e);
    $("error").hidden = false;
  }
}

$("play").addEventListener("click", () => {
  openAnswer(postJson("/api/games", {
    opponent: "engine",
    level: Number($("level").value),
    side: $("side").value,
    rules: $("rules").value,
    fen: view.fen,
  }));
});

// Analysing goes through the replay page: the position is imported as a game with no moves yet.
$("study").addEventListener("click", () => {
  const escape = (text) => text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  const pgn = `[Event "Board editor"]\n[FEN "${escape(view.fen)}"]\n[Rules "${escape($("rules").value)}"]\n\n*\n`;
  openAnswer(post("/api/import", pgn, "application/x-chess-pgn"));
});

localise();
mountAccountBar();
buildPalette();
const given = new URLSearchParams(location.search);
if (given.get("rules")) $("rules").value = given.get("rules");
load(given.get("fen") || START_FEN);
