// The tablebase explorer's page (`/tablebase?fen=…[&rules=…]`): the position on a board and every move's
// result from the server's tables; clicking a move (in the list or on the board) goes to the position after it.

import { mountAccountBar } from "./account-bar.js";
import { JungleBoard } from "./board.js";
import { $ } from "./dom.js";
import { localise, t } from "./i18n.js";
import { TablebaseList, explorerUrl } from "./tablebase-explorer.js";

const view = { fen: null, rules: null, lastMove: null, answer: null };
window.jungle = view; // read by the end-to-end tests

const board = new JungleBoard($("board"), (uci) => {
  const move = view.answer && view.answer.moves.find((m) => m.uci === uci);
  if (move) go(move);
  return Boolean(move);
});
const list = new TablebaseList($("explorer"), { onPick: go, onAnswer: drawBoard });

function drawBoard(answer) {
  view.answer = answer;
  view.fen = answer.fen;
  $("fen-input").value = answer.fen;
  board.set(answer.fen, {
    legal: answer.moves.map((m) => m.uci),
    lastMove: view.lastMove,
    board: answer.board,
  });
}

// Goes to the position after a move, as a new entry of the browser's history.
function go(move) {
  view.lastMove = move.uci;
  history.pushState({ lastMove: move.uci }, "", explorerUrl(move.fen, view.rules));
  list.show(move.fen, view.rules);
}

// Shows the position the address names.
function load() {
  const params = new URLSearchParams(location.search);
  view.rules = params.get("rules");
  view.lastMove = history.state ? history.state.lastMove : null;
  const fen = params.get("fen");
  if (!fen) {
    $("explorer").textContent = t("tb.noFen");
    return;
  }
  list.show(fen, view.rules);
}

$("fen-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const fen = $("fen-input").value.trim();
  if (!fen) return;
  view.lastMove = null;
  history.pushState(null, "", explorerUrl(fen, view.rules));
  list.show(fen, view.rules);
});
$("flip").addEventListener("click", () => board.setFlipped(!board.flipped));
window.addEventListener("popstate", load);
localise();
mountAccountBar();
load();
