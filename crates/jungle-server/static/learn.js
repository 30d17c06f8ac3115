// The lessons page: a lesson's stages one after another on the shared board. Each move goes to the server with
// the learner's moves so far; it answers with the position after the opponent's scripted reply, the legal moves
// and, once the goal is reached, the stars. /learn starts at the first lesson not finished, /learn/ID at that
// lesson's first stage without stars, /learn/ID?stage=N at a stage. A guest's stars are kept in this browser
// (localStorage); a signed-in learner's on the account.

import { mountAccountBar } from "./account-bar.js";
import { postJson } from "./api.js";
import { JungleBoard, describeMove, positionAfter } from "./board.js";
import { $ } from "./dom.js";
import { lang, localise, t } from "./i18n.js";

const STORAGE_KEY = "jungle-lessons";
const view = { lessons: [], progress: {}, signedIn: false, stage: null, moves: [], fen: "", legal: [], result: null };
window.jungle = view; // read by the end-to-end tests

const board = new JungleBoard($("board"), (move) => {
  play(move);
  return true;
});

/** A data text ({en, zh}) in the interface's language. */
const words = (text) => text[lang()] || text.en;

function starText(n) {
  return "★".repeat(n) + "☆".repeat(3 - n);
}

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

function guestProgress() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

function keep(key, stars) {
  view.progress[key] = Math.max(view.progress[key] || 0, stars);
  if (view.signedIn) return; // the server recorded it with the move
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(view.progress)); } catch { /* storage blocked */ }
}

const stageKey = (lesson, stage) => `${lesson}/${stage}`;

/** The stars earned over a lesson's stages, and the stars there are. */
function earned(lesson) {
  let sum = 0;
  for (let i = 1; i <= lesson.stages; i++) sum += view.progress[stageKey(lesson.id, i)] || 0;
  return sum;
}

function renderList() {
  const list = $("lessons");
  list.replaceChildren();
  for (const lesson of view.lessons) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/learn/${lesson.id}`;
    link.textContent = words(lesson.title);
    link.dataset.lesson = lesson.id;
    if (view.stage && view.stage.lesson === lesson.id) link.setAttribute("aria-current", "page");
    const stars = document.createElement("span");
    stars.className = "earned";
    const got = earned(lesson);
    stars.textContent = `★ ${got}/${lesson.stages * 3}`;
    stars.setAttribute("aria-label", t("learn.earned", { n: got, total: lesson.stages * 3 }));
    item.append(link, stars);
    list.appendChild(item);
  }
}

function setStatus(text) {
  $("status").textContent = text;
}

async function openStage(lessonId, number) {
  showError("");
  try {
    const stage = await getJson(`/api/lessons/${encodeURIComponent(lessonId)}/${number}`);
    view.stage = stage;
    view.moves = [];
    view.result = null;
    view.fen = stage.fen;
    view.legal = stage.legal;
    document.title = `${words(stage.title)} — ${t("learn.title")}`;
    $("lesson-title").textContent = words(stage.title);
    $("lesson-intro").textContent = words(stage.intro);
    $("stage-label").textContent = t("learn.stage", { n: stage.stage, total: stage.stages });
    $("task").textContent = words(stage.text);
    $("best").textContent = t("learn.best", { n: stage.best });
    $("stars").hidden = true;
    $("next").hidden = true;
    board.setFlipped(stage.side === "red");
    board.set(stage.fen, { legal: stage.legal, board: stage.board });
    setStatus(t("learn.yourMove"));
    if (location.pathname !== `/learn/${stage.lesson}`) history.replaceState(null, "", `/learn/${stage.lesson}`);
    renderList();
  } catch (e) {
    setStatus("");
    showError(e.message);
  }
}

async function play(move) {
  const stage = view.stage;
  if (!stage || view.result) return;
  const before = view.fen;
  view.moves.push(move);
  const legalBefore = view.legal;
  view.legal = []; // nothing to play until the server answers
  const afterMine = positionAfter(before, [move], 1);
  view.fen = afterMine;
  board.set(afterMine, { legal: [], lastMove: move, board: stage.board });
  try {
    const answer = await postJson(`/api/lessons/${stage.lesson}/${stage.stage}/moves`, { moves: view.moves });
    const reply = answer.replies.length === view.moves.length ? answer.replies[answer.replies.length - 1] : null;
    view.fen = answer.fen;
    view.legal = answer.legal;
    board.set(answer.fen, { legal: answer.legal, lastMove: reply || move, board: stage.board });
    if (answer.result === "done") {
      finish(answer.stars);
    } else if (answer.result === "failed") {
      view.result = "failed";
      setStatus(t("learn.failed", { reason: answer.reason }));
      $("retry").focus();
    } else {
      const said = reply ? t("learn.replied", { move: describeMove(afterMine, reply) }) : "";
      setStatus(`${said} ${t("learn.yourMove")}`.trim());
    }
  } catch (e) {
    view.moves.pop();
    view.fen = before;
    view.legal = legalBefore;
    board.set(before, { legal: legalBefore, board: stage.board });
    showError(e.message);
  }
}

function finish(stars) {
  const stage = view.stage;
  view.result = "done";
  keep(stageKey(stage.lesson, stage.stage), stars);
  const starsBox = $("stars");
  starsBox.textContent = starText(stars);
  starsBox.setAttribute("aria-label", t("learn.starsLabel", { n: stars }));
  starsBox.hidden = false;
  setStatus(t("learn.done", { n: stars, used: view.moves.length, best: stage.best }));
  const next = following();
  $("next").hidden = false;
  $("next").textContent = next ? (next.lesson === stage.lesson ? t("learn.next") : t("learn.nextLesson")) : t("learn.again");
  $("next").focus();
  renderList();
}

/** The stage after the current one ({lesson, stage}), `null` after the last of the course. */
function following() {
  const stage = view.stage;
  if (stage.stage < stage.stages) return { lesson: stage.lesson, stage: stage.stage + 1 };
  const index = view.lessons.findIndex((l) => l.id === stage.lesson);
  const lesson = view.lessons[index + 1];
  return lesson ? { lesson: lesson.id, stage: 1 } : null;
}

/** The first stage of a lesson without stars (its first when all have some). */
function firstOpen(lesson) {
  for (let i = 1; i <= lesson.stages; i++) if (!view.progress[stageKey(lesson.id, i)]) return i;
  return 1;
}

async function start() {
  localise();
  mountAccountBar();
  $("retry").addEventListener("click", () => view.stage && openStage(view.stage.lesson, view.stage.stage));
  $("next").addEventListener("click", () => {
    const next = following();
    if (next) openStage(next.lesson, next.stage);
    else openStage(view.lessons[0].id, 1);
  });
  try {
    const overview = await getJson("/api/lessons");
    view.lessons = overview.lessons;
    view.signedIn = overview.progress !== null;
    view.progress = overview.progress || guestProgress();
  } catch (e) {
    showError(e.message);
    return;
  }
  $("kept").textContent = t(view.signedIn ? "learn.keptAccount" : "learn.keptBrowser");
  renderList();
  const id = location.pathname.split("/")[2];
  const unfinished = (l) => Array.from({ length: l.stages }, (_, i) => i + 1).some((n) => !view.progress[stageKey(l.id, n)]);
  const lesson = view.lessons.find((l) => l.id === id) || view.lessons.find(unfinished) || view.lessons[0];
  if (id && lesson.id !== id) showError(t("learn.unknown"));
  if (!lesson) return;
  const asked = Number(new URLSearchParams(location.search).get("stage"));
  const number = lesson.id === id && asked >= 1 && asked <= lesson.stages ? asked : firstOpen(lesson);
  await openStage(lesson.id, number);
}

start();
