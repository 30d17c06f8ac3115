// The puzzle page: the position of a puzzle on the shared board; each move of the solver is sent to the server
// with the line so far, which answers with the defender's reply, or with the end of the attempt (solved or
// failed) and then, only then, the solution. After a wrong move the solver may retry from the position before
// it (the attempt stays failed for the rating) or step through the solution on the board.
// /puzzles shows the daily puzzle, /puzzles/ID one puzzle, /puzzles?theme=T a random one of a theme, and
// /puzzles/streak a streak: puzzles of rising difficulty until the first mistake.

import { mountAccountBar } from "./account-bar.js";
import { postJson } from "./api.js";
import { JungleBoard, positionAfter } from "./board.js";
import { $ } from "./dom.js";
import { localise, t } from "./i18n.js";
import { SolutionViewer } from "./puzzle-solution.js";
import { Streak } from "./puzzle-streak.js";

// The pause between the solver's move and the defender's reply (and before a streak's next puzzle), so
// each is seen arriving rather than both at once.
const REPLY_PAUSE_MS = 400;
const NEXT_PAUSE_MS = 900;

const streakMode = location.pathname === "/puzzles/streak";
// played: the line so far (the solver's moves and the replies); legal: the moves the solver may make now.
const view = {
  puzzle: null, played: [], fen: "", legal: [], result: null, ratings: null, answer: null, theme: "",
  streak: streakMode ? new Streak() : null,
};
window.jungle = view; // read by the end-to-end tests

const board = new JungleBoard($("board"), (move) => {
  play(move);
  return true;
});
const solution = new SolutionViewer(board, $("board"));

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

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function showStreak() {
  $("streak-count").textContent = String(view.streak.count);
  $("streak-best").textContent = String(view.streak.best);
}

function findText(puzzle) {
  return t("puzzle.find", { side: t(`side.${puzzle.side}`), n: puzzle.solver_moves });
}

function show(puzzle) {
  view.puzzle = puzzle;
  view.played = [];
  view.result = null;
  view.ratings = null;
  view.answer = null;
  view.fen = puzzle.fen;
  view.legal = puzzle.legal;
  solution.hide();
  board.setFlipped(puzzle.side === "red");
  board.set(puzzle.fen, { legal: puzzle.legal });
  $("status").textContent = findText(puzzle);
  const r = puzzle.rating;
  $("puzzle-rating").textContent = `${r.rating} ± ${r.deviation}` + (r.provisional ? "?" : "");
  $("puzzle-themes").textContent = puzzle.themes.map(themeName).join(", ") || "—";
  $("puzzle-source").textContent = t(`puzzle.source.${puzzle.source}`) + (puzzle.daily ? ` · ${t("puzzle.daily")}` : "");
  $("after-attempt").hidden = true;
  $("ratings").hidden = true;
  showError("");
  if (view.streak) {
    view.streak.shown(puzzle.id);
    showStreak();
  } else if (location.pathname !== `/puzzles/${puzzle.id}`) {
    history.replaceState(null, "", `/puzzles/${puzzle.id}`);
  }
}

// The board has already drawn the move (it does once this answers): the position is only recorded here.
async function play(move) {
  const before = { fen: view.fen, legal: view.legal };
  view.played.push(move);
  view.fen = positionAfter(before.fen, [move], 1);
  view.legal = [];
  view.retryFrom = before;
  try {
    const answer = await postJson(`/api/puzzles/${view.puzzle.id}/moves`, { moves: view.played });
    if (answer.result === "continue") {
      await pause(REPLY_PAUSE_MS);
      view.played.push(answer.reply);
      view.fen = answer.fen;
      view.legal = answer.legal;
      board.set(answer.fen, { legal: answer.legal, lastMove: answer.reply });
      $("status").textContent = t("puzzle.right", { reply: answer.reply_animal });
    } else {
      finish(answer);
    }
  } catch (e) {
    view.played.pop();
    view.fen = before.fen;
    view.legal = before.legal;
    board.set(before.fen, { legal: before.legal });
    showError(e.message);
  }
}

function finish(answer) {
  const solved = answer.result === "solved";
  view.result = answer.result;
  view.ratings = answer.ratings;
  view.answer = answer;
  board.set(view.fen, { legal: [], lastMove: view.played[view.played.length - 1] });
  $("status").textContent = solved ? t("puzzle.solved") : t("puzzle.failed", { move: answer.played_animal });
  const ratings = $("ratings");
  if (answer.ratings) {
    const { solver, puzzle } = answer.ratings;
    const change = (r) => `${Math.round(r.before.rating)} → ${Math.round(r.after.rating)}`;
    ratings.textContent = t("puzzle.ratingChange", { solver: change(solver), puzzle: change(puzzle) });
  } else {
    ratings.textContent = t("puzzle.unrated");
  }
  ratings.hidden = Boolean(view.streak);
  $("after-attempt").hidden = false;
  // A streak ends at the first mistake: no retry there, a new streak instead.
  $("retry").hidden = solved || Boolean(view.streak);
  $("new-streak").hidden = !(view.streak && !solved);
  $("view-solution").hidden = false;
  if (view.streak) streakGoesOn(solved);
}

async function streakGoesOn(solved) {
  if (!solved) {
    view.streak.failed();
    showStreak();
    $("status").textContent = t("puzzle.streakOver", { n: view.streak.count, move: view.answer.played_animal });
    return;
  }
  view.streak.solved();
  showStreak();
  const id = view.puzzle.id;
  await pause(NEXT_PAUSE_MS);
  // The solver may have stepped into the solution meanwhile: the next puzzle waits for them.
  if (view.puzzle.id === id && !solution.line) await load(view.streak.nextUrl());
}

// Back to the position before the wrong move, with the same legal moves; the server judges the retry as any
// attempt, but only the first attempt at a puzzle is rated, so the failure stands.
function retry() {
  view.played.pop();
  view.fen = view.retryFrom.fen;
  view.legal = view.retryFrom.legal;
  view.result = null;
  solution.hide();
  $("after-attempt").hidden = true;
  board.set(view.fen, { legal: view.legal, lastMove: view.played[view.played.length - 1] || null });
  $("status").textContent = t("puzzle.retrying");
}

function viewSolution() {
  $("status").textContent = t("puzzle.solutionHint");
  solution.show(view.puzzle.fen, view.answer.solution, view.answer.solution_animal);
  $("solution-next").focus();
}

async function load(url) {
  try {
    show(await getJson(url));
  } catch (e) {
    $("status").textContent = "";
    showError(e.message);
  }
}

// The theme picker: one button per theme (and "any"), the chosen one pressed; a click loads a puzzle of it.
function mountThemes(themes) {
  const list = $("themes");
  const button = (theme, label) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.theme = theme;
    b.textContent = label;
    b.setAttribute("aria-pressed", String(theme === view.theme));
    b.addEventListener("click", () => {
      view.theme = theme;
      for (const other of list.children) other.setAttribute("aria-pressed", String(other === b));
      nextPuzzle();
    });
    list.appendChild(b);
  };
  button("", t("puzzle.anyTheme"));
  for (const { theme, count } of themes) button(theme, `${themeName(theme)} (${count})`);
}

function nextPuzzle() {
  const query = new URLSearchParams({ theme: view.theme, after: view.puzzle ? view.puzzle.id : "" });
  return load(`/api/puzzles/next?${query}`);
}

async function start() {
  localise();
  mountAccountBar();
  $("retry").addEventListener("click", retry);
  $("view-solution").addEventListener("click", viewSolution);
  if (view.streak) {
    $("heading").textContent = t("puzzle.streakHeading");
    document.title = t("puzzle.streakHeading");
    $("browse").hidden = true;
    $("streak").hidden = false;
    $("new-streak").addEventListener("click", () => {
      view.streak.restart();
      load(view.streak.nextUrl());
    });
    showStreak();
    await load(view.streak.nextUrl());
    return;
  }
  const params = new URLSearchParams(location.search);
  view.theme = params.get("theme") || "";
  const overview = await getJson("/api/puzzles").catch(() => ({ themes: [] }));
  mountThemes(overview.themes);
  $("next").addEventListener("click", nextPuzzle);
  const id = location.pathname.split("/")[2];
  if (id) await load(`/api/puzzles/${encodeURIComponent(id)}`);
  else if (view.theme) await nextPuzzle();
  else await load("/api/puzzles/daily");
}

start();
