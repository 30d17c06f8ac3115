// The replay and analysis page: step through a stored game, ask the engine about the shown position,
// download the PGN, import another.

import { JungleBoard } from "./board.js";
import { $ } from "./dom.js";
import { localise } from "./i18n.js";
import { wireImportForm } from "./import-form.js";
import { fillMoveList } from "./moves.js";
import { followLive } from "./follow.js";

const gameId = location.pathname.split("/").pop();
const view = { game: null, ply: 0, flipped: false, analysisFor: null, following: false };
window.jungle = view; // read by the end-to-end tests
const board = new JungleBoard($("board"), () => {});

async function load() {
  const response = await fetch(`/api/games/${gameId}`);
  const game = await response.json();
  if (!response.ok) {
    $("summary").textContent = game.error || "Cannot load the game.";
    return;
  }
  // A viewer at the last move stays there as a live game goes on; one stepping through earlier moves stays put.
  const atEnd = !view.game || view.ply === view.game.moves.length;
  view.game = game;
  view.ply = atEnd ? game.moves.length : Math.min(view.ply, game.moves.length);
  $("download").href = `/api/games/${gameId}/pgn`;
  $("live-link").href = `/game/${gameId}`;
  $("live-link").hidden = game.mode === "import";
  $("summary").textContent = `Blue: ${game.players.blue} · Red: ${game.players.red} · ` +
    (game.outcome ? game.outcome.text : "in progress") + (game.rules === "standard" ? "" : ` · rules: ${game.rules}`);
  draw();
  if (!view.following && game.mode !== "import" && !game.outcome) {
    view.following = true;
    followLive(gameId, (state) => {
      if (state.ply !== view.game.moves.length || Boolean(state.outcome) !== Boolean(view.game.outcome)) load();
    });
  }
}

function go(ply) {
  if (!view.game) return;
  view.ply = Math.max(0, Math.min(view.game.moves.length, ply));
  draw();
}

function draw() {
  const g = view.game;
  board.flipped = view.flipped;
  board.set(g.fens[view.ply], { legal: [], lastMove: view.ply ? g.moves[view.ply - 1] : null, board: g.board });
  const bottom = view.flipped ? "red" : "blue";
  for (const [id, side] of [["player-bottom", bottom], ["player-top", bottom === "blue" ? "red" : "blue"]]) {
    $(id).className = `player ${side}`;
    $(id).querySelector(".name").textContent = g.players[side];
  }
  $("ply-label").textContent = `${view.ply} / ${g.moves.length}`;
  document.body.dataset.ply = String(view.ply);
  fillMoveList($("moves"), g.moves, g.start_fen, (span, half) => {
    span.dataset.ply = String(half.ply + 1);
    if (half.ply + 1 === view.ply) span.classList.add("current");
    span.addEventListener("click", () => go(half.ply + 1));
  });
  $("analysis").hidden = view.analysisFor !== view.ply;
}

function formatScore(a) {
  if (a.mate_plies !== null && a.mate_plies !== undefined) {
    const winner = a.mate_plies > 0 ? "Blue" : "Red";
    return `${winner} wins in ${Math.abs(a.mate_plies)} plies`;
  }
  if (a.score_cp === null || a.score_cp === undefined) return "no evaluation (the game is over)";
  const pawns = (a.score_cp / 100).toFixed(2);
  return `${a.score_cp >= 0 ? "+" : ""}${pawns} (${a.score_cp >= 0 ? "Blue" : "Red"} is better)`;
}

$("analyse").addEventListener("click", async () => {
  const ply = view.ply;
  $("analyse").disabled = true;
  $("analyse").textContent = "Thinking…";
  try {
    const response = await fetch(`/api/games/${gameId}/analysis?ply=${ply}`);
    const a = await response.json();
    if (!response.ok) throw new Error(a.error || response.statusText);
    view.analysisFor = ply;
    $("eval").textContent = formatScore(a);
    $("depth").textContent = a.depth ? `depth ${a.depth}` : "";
    $("pv").textContent = a.pv.length ? a.pv.join(" ") : "—";
    $("error").hidden = true;
    if (view.ply === ply) $("analysis").hidden = false;
  } catch (e) {
    $("error").textContent = String(e.message || e);
    $("error").hidden = false;
  } finally {
    $("analyse").disabled = false;
    $("analyse").textContent = "Analyse this position";
  }
});

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(view.ply - 1));
$("next").addEventListener("click", () => go(view.ply + 1));
$("last").addEventListener("click", () => go(Infinity));
$("flip").addEventListener("click", () => { view.flipped = !view.flipped; draw(); });
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA") return;
  if (e.key === "ArrowLeft") go(view.ply - 1);
  if (e.key === "ArrowRight") go(view.ply + 1);
  if (e.key === "Home") go(0);
  if (e.key === "End") go(Infinity);
});
localise();
wireImportForm("error");
load();
