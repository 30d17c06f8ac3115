// The puzzle page: the position of a puzzle on the shared board; each move of the solver is sent to the server
// with the line so far, which answers with the defender's reply, or with the end of the attempt (solved or
// failed) and then, only then, the solution. /puzzles shows the daily puzzle, /puzzles/ID one puzzle,
// /puzzles?theme=T a random one of a theme.

import { mountAccountBar } from "./account-bar.js";
import { postJson } from "./api.js";
import { JungleBoard, describeMove, positionAfter } from "./board.js";
import { $ } from "./dom.js";
import { localise, t } from "./i18n.js";

const view = { puzzle: null, played: [], fen: "", result: null, ratings: null };
window.jungle = view; // read by the end-to-end tests

const board = new JungleBoard($("board"), (move) => {
  play(move);
  return true;
});

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function getJson(url) {
  const response = await fetch(url);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function themeName(theme) {
  return t(`theme.${theme}`);
}

function show(puzzle) {
  view.puzzle = puzzle;
  view.played = [];
  view.result = null;
  view.ratings = null;
  view.fen = puzzle.fen;
  board.setFlipped(puzzle.side === "red");
  board.set(puzzle.fen, { legal: puzzle.legal });
  $("status").textContent = t("puzzle.find", { side: t(`side.${puzzle.side}`), n: puzzle.solver_moves });
  const r = puzzle.rating;
  $("puzzle-rating").textContent = `${r.rating} ± ${r.deviation}` + (r.provisional ? "?" : "");
  $("puzzle-themes").textContent = puzzle.themes.map(themeName).join(", ") || "—";
  $("puzzle-source").textContent = t(`puzzle.source.${puzzle.source}`) + (puzzle.daily ? ` · ${t("puzzle.daily")}` : "");
  $("solution").hidden = true;
  $("ratings").hidden = true;
  showError("");
  if (location.pathname !== `/puzzles/${puzzle.id}`) history.replaceState(null, "", `/puzzles/${puzzle.id}`);
}

async function play(move) {
  const before = view.fen;
  view.played.push(move);
  view.fen = positionAfter(before, [move], 1);
  board.set(view.fen, { legal: [], lastMove: move });
  try {
    const answer = await postJson(`/api/puzzles/${view.puzzle.id}/moves`, { moves: view.played });
    if (answer.result === "continue") {
      view.played.push(answer.reply);
      view.fen = answer.fen;
      board.set(answer.fen, { legal: answer.legal, lastMove: answer.reply });
      $("status").textContent = t("puzzle.right");
    } else {
      finish(answer);
    }
  } catch (e) {
    view.played.pop();
    view.fen = before;
    board.set(before, { legal: view.puzzle.legal });
    showError(e.message);
  }
}

function finish(answer) {
  view.result = answer.result;
  view.ratings = answer.ratings;
  board.set(view.fen, { legal: [], lastMove: view.played[view.played.length - 1] });
  $("status").textContent = t(answer.result === "solved" ? "puzzle.solved" : "puzzle.failed");
  const list = $("solution");
  list.replaceChildren();
  let fen = view.puzzle.fen;
  for (const move of answer.solution) {
    const item = document.createElement("li");
    item.textContent = `${move} — ${describeMove(fen, move)}`;
    list.appendChild(item);
    fen = positionAfter(fen, [move], 1);
  }
  list.hidden = false;
  const ratings = $("ratings");
  if (answer.ratings) {
    const { solver, puzzle } = answer.ratings;
    const change = (r) => `${Math.round(r.before.rating)} → ${Math.round(r.after.rating)}`;
    ratings.textContent = t("puzzle.ratingChange", { solver: change(solver), puzzle: change(puzzle) });
  } else {
    ratings.textContent = t("puzzle.unrated");
  }
  ratings.hidden = false;
}

async function load(url) {
  try {
    show(await getJson(url));
  } catch (e) {
    $("status").textContent = "";
    showError(e.message);
  }
}

async function start() {
  localise();
  mountAccountBar();
  const overview = await getJson("/api/puzzles").catch(() => ({ themes: [] }));
  for (const { theme, count } of overview.themes) {
    const option = document.createElement("option");
    option.value = theme;
    option.textContent = `${themeName(theme)} (${count})`;
    $("theme").appendChild(option);
  }
  const params = new URLSearchParams(location.search);
  if (params.get("theme")) $("theme").value = params.get("theme");
  $("next").addEventListener("click", () => {
    const query = new URLSearchParams({ theme: $("theme").value, after: view.puzzle ? view.puzzle.id : "" });
    load(`/api/puzzles/next?${query}`);
  });
  const id = location.pathname.split("/")[2];
  if (id) await load(`/api/puzzles/${encodeURIComponent(id)}`);
  else if (params.get("theme")) await load(`/api/puzzles/next?${new URLSearchParams({ theme: params.get("theme") })}`);
  else await load("/api/puzzles/daily");
}

start();
