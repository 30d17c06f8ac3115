// The replay and analysis page: step through a stored game with the engine following the shown position
// (evaluation bar, best-move arrow, line), the evaluation graph of the whole game, the PGN, imports.

import { mountAccountBar } from "./account-bar.js";
import { JungleBoard } from "./board.js";
import { $ } from "./dom.js";
import { localise, t, tOr } from "./i18n.js";
import { wireImportForm } from "./import-form.js";
import { fillMoveList } from "./moves.js";
import { followLive } from "./follow.js";
import { ArrowLayer, LiveAnalysis, drawEvalBar, scoreText } from "./analysis.js";
import { drawGraph } from "./graph.js";
import { loadRatings, termsText } from "./game-terms.js";
import { TablebaseList } from "./tablebase-explorer.js";
import { OpeningExplorer } from "./opening-explorer.js";

const gameId = location.pathname.split("/").pop();
const view = { game: null, ply: 0, flipped: false, following: false, engineOn: false, info: null, graph: null };
window.jungle = view; // read by the end-to-end tests
const board = new JungleBoard($("board"), () => {});
const arrow = new ArrowLayer(board, $("board"));
const tablebase = new TablebaseList($("tablebase"), { hiddenWithoutTables: true });
// The explorer shows a position it went to on the board; back at the game's, the page draws its own again.
const explorer = new OpeningExplorer($("opening-explorer"), (fen, move) => {
  if (fen) board.set(fen, { legal: [], lastMove: move, board: view.game.board });
  else draw();
});
const live = new LiveAnalysis(showReport, (message) => {
  $("error").textContent = message;
  $("error").hidden = false;
});

// The result in the page's language: who won (or a draw) and why; "in progress" while it is played.
function outcomeText(outcome) {
  if (!outcome) return t("replay.inProgress");
  if (outcome.reason === "aborted") return t("result.aborted");
  const result = outcome.winner ? t("result.wins", { side: t(`side.${outcome.winner}`) }) : t("result.draw");
  return `${result} (${tOr(`reason.${outcome.reason}`, outcome.reason)})`;
}

async function load() {
  const response = await fetch(`/api/games/${gameId}`);
  const game = await response.json();
  if (!response.ok) {
    $("summary").textContent = game.error || t("replay.cannotLoad");
    return;
  }
  // A viewer at the last move stays there as a live game goes on; one stepping through earlier moves stays put.
  const atEnd = !view.game || view.ply === view.game.moves.length;
  view.game = game;
  view.ply = atEnd ? game.moves.length : Math.min(view.ply, game.moves.length);
  $("download").href = `/api/games/${gameId}/pgn`;
  $("download-animal").href = `/api/games/${gameId}/pgn?notation=animal`;
  $("live-link").href = `/game/${gameId}`;
  $("live-link").hidden = game.mode === "import";
  $("summary").textContent = t("replay.summary", {
    blue: game.players.blue,
    red: game.players.red,
    state: outcomeText(game.outcome),
  }) + (game.rules === "standard" ? "" : ` · ${t("home.rules")}: ${game.rules}`);
  loadRatings(gameId).then((ratings) => { $("terms").textContent = termsText(game, ratings); });
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
  explorer.follow(g.fens[view.ply], g.rules);
  document.body.dataset.ply = String(view.ply);
  const marks = new Map((view.graph ? view.graph.mistakes : []).map((m) => [m.ply, m]));
  fillMoveList($("moves"), g.animal_moves, g.start_fen, (span, half) => {
    span.dataset.ply = String(half.ply + 1);
    if (half.ply + 1 === view.ply) span.classList.add("current");
    const mark = marks.get(half.ply);
    if (mark) {
      span.classList.add(mark.kind);
      span.title = `${t(`replay.${mark.kind}`)} (−${(mark.drop / 100).toFixed(2)})`;
    }
    span.addEventListener("click", () => go(half.ply + 1));
  });
  if (view.graph) drawGraph($("graph"), view.graph, view.ply, go);
  tablebase.show(g.fens[view.ply], g.rules);
  if (view.engineOn) {
    // The engine follows the shown position; the old report goes at once, the new one comes depth by depth.
    if (!view.info || view.info.ply !== view.ply) showReport(null);
    live.show(g.fens[view.ply], g.rules);
  }
  // The arrow is drawn in the board's square positions: redraw it after a flip.
  if (view.info) arrow.show(view.info.best);
}

// Shows an engine report about the shown position (null: none yet).
function showReport(report) {
  if (report && report.type === "done") {
    $("depth").textContent += ` · ${t("replay.done")}`;
    return;
  }
  view.info = report ? { ...report, ply: view.ply } : null;
  drawEvalBar($("eval-bar"), report, view.flipped);
  arrow.show(report ? report.best : null);
  $("eval").textContent = report ? (scoreText(report) || t("replay.gameOver")) : "…";
  $("depth").textContent = report && report.depth ? t("replay.depth", { depth: report.depth }) : "";
  $("pv").textContent = report ? (report.line.join(" ") || "—") : "";
}

function setEngine(on) {
  view.engineOn = on;
  $("analyse").textContent = t(on ? "replay.stopEngine" : "replay.analyse");
  $("analyse").setAttribute("aria-pressed", String(on));
  $("analysis").hidden = !on;
  $("eval-bar").hidden = !on;
  if (on) {
    draw();
  } else {
    live.stop();
    view.info = null;
    arrow.show(null);
  }
}

$("analyse").addEventListener("click", () => setEngine(!view.engineOn));

$("graph-button").addEventListener("click", async () => {
  $("graph-button").disabled = true;
  $("graph-button").textContent = t("replay.graphBusy");
  try {
    const response = await fetch(`/api/games/${gameId}/evaluations`);
    const graph = await response.json();
    if (!response.ok) throw new Error(graph.error || response.statusText);
    view.graph = graph;
    $("graph").removeAttribute("hidden"); // an <svg> has no `hidden` property
    const count = (kind) => graph.mistakes.filter((m) => m.kind === kind).length;
    $("graph-summary").textContent = t("replay.graphSummary", {
      mistakes: count("mistake"),
      blunders: count("blunder"),
      mistake: (graph.mistake_cp / 100).toFixed(2),
      blunder: (graph.blunder_cp / 100).toFixed(2),
      nodes: graph.nodes_per_position.toLocaleString("en"),
    });
    $("graph-button").hidden = true;
    draw();
  } catch (e) {
    $("error").textContent = String(e.message || e);
    $("error").hidden = false;
    $("graph-button").disabled = false;
    $("graph-button").textContent = t("replay.graph");
  }
});

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(view.ply - 1));
$("next").addEventListener("click", () => go(view.ply + 1));
$("last").addEventListener("click", () => go(Infinity));
$("flip").addEventListener("click", () => {
  view.flipped = !view.flipped;
  draw();
  if (view.info) drawEvalBar($("eval-bar"), view.info, view.flipped);
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA") return;
  if (e.key === "ArrowLeft") go(view.ply - 1);
  if (e.key === "ArrowRight") go(view.ply + 1);
  if (e.key === "Home") go(0);
  if (e.key === "End") go(Infinity);
});
localise();
mountAccountBar();
wireImportForm("error");
load();
