// The Hidden Jungle page (/hidden/ID): one websocket to the game's room, which sends this page the state of
// its own audience only (its seat's view, or the spectators'). The page draws what it is sent and nothing
// more: an enemy piece is face down exactly when the server's view FEN says X/x, and an animal is named only
// once the server's public moves or view name it. It never works out a hidden identity itself.

import { mountAccountBar } from "./account-bar.js";
import { JungleBoard, parseFen } from "./board.js";
import { $ } from "./dom.js";
import { lang, localise, t, tOr } from "./i18n.js";
import { fillMoveList, sideName } from "./moves.js";
import { playMoveSound } from "./sound.js";
import { GAME_SILENT_MS, abandon, keepAlive, reconnectGame } from "./liveness.js";
import { wireCopy, wireJoin, wireMoveKeys, wireMute } from "./game-controls.js";
import { inSetupOrder, lettersOn, shuffled, swapMoves, swapped, withLetters } from "./hidden-setup.js";
import { readPublic, revealWords } from "./hidden-words.js";

const gameId = location.pathname.split("/").pop();
// Everything the page holds, on window for the end-to-end tests: the last state, the setup being arranged
// (letters in start-square order), the ply shown while browsing (null: the live position), the reveal being
// animated.
const page = { state: null, socket: null, retries: 0, letters: null, browsing: null, flippedByUser: null, flash: null, resignUntil: 0 };
window.jungle = page;

const board = new JungleBoard($("board"), boardMove);
page.board = board;

// A move made on the board. In the setup phase a "move" from one start square to another swaps the two
// animals there (nothing is sent until Ready); in play it is sent to the server.
function boardMove(move) {
  if (page.state && page.state.phase === "setup") {
    const squares = mySquares();
    page.letters = swapped(page.letters, squares.indexOf(move.slice(0, 2)), squares.indexOf(move.slice(2, 4)));
    draw();
    return false; // the board draws the new arrangement from draw(), not a piece moving
  }
  return send({ type: "move", move });
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  showError(t("game.offline"));
  return false;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/hidden/${gameId}`);
  page.socket = socket;
  let life = null;
  socket.onopen = () => {
    page.retries = 0;
    life = keepAlive(socket, () => abandon(socket), GAME_SILENT_MS);
    $("connection").textContent = "";
    $("connection").className = "connection online";
  };
  socket.onmessage = (event) => {
    if (life) life.heard();
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "state") receive(message);
    else if (message.type === "error") {
      showError(message.message);
      if (page.state) draw(); // undo a move shown as made
    }
  };
  socket.onclose = () => {
    if (life) life.stop();
    $("connection").textContent = t("game.reconnecting");
    $("connection").className = "connection offline";
    if (page.state) draw(); // no moves are offered while offline
    reconnectGame(gameId, page.retries++, connect);
  };
}

function receive(state) {
  const before = page.state;
  page.state = state;
  $("error").hidden = true;
  if (state.phase !== "setup") page.letters = null;
  else if (page.letters === null || state.setup) {
    // The seat's animals as the server placed them (or its setup once handed in); none for a spectator.
    const letters = state.setup || lettersOn(state.fen, mySquares(), state.you);
    page.letters = state.you && letters.length === mySquares().length ? letters : null;
  }
  if (before && state.ply === before.ply + 1) noticeMove(before, state);
  else if (!before || state.ply !== before.ply) showLastReveal(state);
  draw();
}

// A new move: the reveal it made in words, the piece on its destination turned over, and a sound.
function noticeMove(before, after) {
  const text = after.moves[after.moves.length - 1];
  const move = readPublic(text);
  if (!move) return;
  const wasHidden = parseFen(before.fen).pieces[move.from]?.animal === "x";
  setReveal(revealWords(text, before.turn, wasHidden));
  if (move.mover) {
    const flash = { ply: after.ply, square: move.to };
    page.flash = flash;
    // Long enough for the animation to play; the next draw after it shows the piece plainly.
    setTimeout(() => { if (page.flash === flash) { page.flash = null; draw(); } }, 1600);
  }
  playMoveSound(Boolean(move.effect));
}

// After a (re)connection: the last move's attack, if it was one, stays in words.
function showLastReveal(state) {
  const text = state.moves[state.moves.length - 1];
  const attack = text && readPublic(text)?.effect;
  setReveal(attack ? revealWords(text, moverOf(state.moves.length - 1), false) : null);
}

// Who made the move at `index` (0-based): every Hidden Jungle game starts with Blue to move.
function moverOf(index) {
  return index % 2 === 0 ? "blue" : "red";
}

function other(side) {
  return side === "blue" ? "red" : "blue";
}

function setReveal(words) {
  $("reveal").hidden = !words;
  $("reveal").textContent = words || "";
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

function mySquares() {
  const s = page.state;
  return s && s.you ? inSetupOrder(s.start_squares[s.you]) : [];
}

function flipped() {
  if (page.flippedByUser !== null) return page.flippedByUser;
  return page.state?.you === "red";
}

function online() {
  return Boolean(page.socket && page.socket.readyState === WebSocket.OPEN);
}

function myTurn() {
  const s = page.state;
  return Boolean(s && s.you && s.phase === "play" && s.turn === s.you && !s.thinking);
}

function settingUp() {
  const s = page.state;
  return Boolean(s && s.phase === "setup" && s.you && !s.setup_done[s.you] && page.letters);
}

// The pieces to mark: the seat's own animals the opponent has not seen (from the server's list of revealed
// squares), and the piece a reveal is turning over.
function pieceClasses(fen, live) {
  const s = page.state;
  const classes = {};
  if (s.you && s.phase === "play" && live && Array.isArray(s.revealed)) {
    for (const [sq, piece] of Object.entries(parseFen(fen).pieces)) {
      if (piece.side === s.you && !s.revealed.includes(sq)) classes[sq] = "unseen";
    }
  }
  if (live && page.flash && page.flash.ply === s.ply) {
    classes[page.flash.square] = `${classes[page.flash.square] || ""} revealing`.trim();
  }
  return classes;
}

function draw() {
  const s = page.state;
  if (!s) return;
  board.flipped = flipped();
  if (page.browsing !== null && page.browsing >= s.moves.length) page.browsing = null;
  const live = page.browsing === null;
  const shown = live ? s.moves.length : page.browsing;
  let fen = live ? s.fen : s.positions[shown];
  let legal = live && myTurn() && online() ? s.legal : [];
  if (s.phase === "setup" && s.you && page.letters) {
    fen = withLetters(s.fen, mySquares(), s.you, page.letters);
    legal = settingUp() ? swapMoves(mySquares()) : [];
  }
  const last = shown ? readPublic(s.moves[shown - 1]) : null;
  board.set(fen, {
    legal,
    lastMove: last ? last.from + last.to : null,
    board: s.board,
    classes: pieceClasses(fen, live),
  });
  document.title = t(myTurn() ? "game.titleTurn" : "hidden.title");
  const body = document.body.dataset;
  Object.assign(body, {
    phase: s.phase, ply: String(s.ply), shown: String(shown), seat: s.you || "spectator",
    myturn: String(myTurn()), over: String(s.phase === "over"),
  });
  // Only while an earlier position is shown: there is a game to go back to.
  $("back-to-game").hidden = live || shown >= s.moves.length;
  drawPlayer($(flipped() ? "player-top" : "player-bottom"), "blue");
  drawPlayer($(flipped() ? "player-bottom" : "player-top"), "red");
  drawMoves(shown);
  drawPanel();
}

function drawPlayer(el, side) {
  const s = page.state;
  el.className = `player ${side}` + (s.phase === "play" && s.turn === side ? " to-move" : "");
  const name = seatFree(side) ? t("hidden.freeSeat") : s.players[side];
  el.querySelector(".name").textContent = s.you === side ? t("player.you", { name }) : name;
  el.querySelector(".ready").textContent = s.phase === "setup" && s.setup_done[side] ? t("hidden.isReady") : "";
}

function drawMoves(shown) {
  const s = page.state;
  fillMoveList($("moves"), s.moves, (s.positions && s.positions[0]) || s.fen, (span, half) => {
    span.dataset.ply = String(half.ply + 1);
    const words = revealWords(half.move, moverOf(half.ply), false);
    if (words) span.title = words;
    if (half.ply + 1 === shown) span.classList.add("current");
  });
  if (page.browsing === null) $("moves").scrollTop = $("moves").scrollHeight;
}

function statusText() {
  const s = page.state;
  if (s.phase === "over") return lang() === "en" ? s.outcome.text : `${resultTitle(s.outcome)} · ${tOr(`reason.${s.outcome.reason}`, s.outcome.reason)}`;
  if (s.phase === "setup") {
    if (settingUp()) return t("hidden.arrange");
    return t(s.you ? "hidden.waitSetup" : "hidden.watchSetup");
  }
  if (!s.you) return t("status.watching", { side: sideName(s.turn) });
  if (s.thinking) return t("status.thinking");
  // Offline, no move can be made: the status says so rather than "Your turn.".
  if (!online()) return t("status.offline");
  if (s.turn === s.you) return t("status.yourTurn");
  return t(seatFree(s.turn) ? "status.waitFriend" : "status.waitOpponent");
}

function seatFree(side) {
  const s = page.state;
  return s.mode === "friend" && Boolean(s.seats_taken) && !s.seats_taken[side];
}

function resultTitle(outcome) {
  const s = page.state;
  if (s.you && outcome.winner) return t(outcome.winner === s.you ? "result.youWin" : "result.youLose");
  return outcome.winner ? t("result.wins", { side: sideName(outcome.winner) }) : t("result.draw");
}

function drawPanel() {
  const s = page.state;
  $("status").textContent = statusText();
  $("setup").hidden = !settingUp();
  const freeSeat = s.mode === "friend" && s.phase !== "over" && ["blue", "red"].find(seatFree);
  $("share").hidden = !(s.you && freeSeat);
  if (!$("share").hidden) $("share-link").value = location.href;
  $("join").hidden = Boolean(s.you) || !freeSeat;
  if (freeSeat) $("join-button").textContent = t("game.joinAs", { side: sideName(freeSeat) });
  $("resign").disabled = !s.you || s.phase !== "play";
  drawUnknown();
  $("unseen-note").hidden = !(s.you && s.phase === "play" && Array.isArray(s.revealed));
  const banner = $("banner");
  banner.hidden = s.phase !== "over" || page.bannerClosed === true;
  if (s.phase === "over") {
    $("banner-title").textContent = resultTitle(s.outcome);
    $("banner-reason").textContent = tOr(`reason.${s.outcome.reason}`, s.outcome.reason);
    banner.className = `banner ${s.outcome.winner || "draw"}`;
    drawSetups();
  }
  const level = s.engine ? ` · ${t("meta.level", { level: s.engine.level })}` : "";
  $("meta").textContent = `${t("hidden.variant")} · ${t("meta.rules", { rules: s.rules })}${level}`;
}

// The enemy animals whose place this page does not know (for a spectator, both sides'), as the server lists
// them.
function drawUnknown() {
  const s = page.state;
  const sides = s.you ? [other(s.you)] : ["blue", "red"];
  const lists = s.unknown || {};
  const box = $("unknown");
  box.textContent = "";
  let any = false;
  for (const side of sides) {
    for (const letter of lists[side] || []) {
      const chip = document.createElement("span");
      chip.className = `chip ${side}`;
      chip.textContent = t(`animal.${letter.toLowerCase()}`);
      box.appendChild(chip);
      any = true;
    }
  }
  $("unknown-label").textContent = t(s.you ? "hidden.unknownEnemy" : "hidden.unknownAll");
  $("unknown-box").hidden = s.phase !== "play" || !any;
}

// Both setups, which the server sends only once the game is over.
function drawSetups() {
  const s = page.state;
  const list = $("setups");
  list.textContent = "";
  for (const side of ["blue", "red"]) {
    if (!s.setups || !s.setups[side]) continue;
    const dt = document.createElement("dt");
    dt.textContent = t("hidden.setupOf", { side: sideName(side) });
    const dd = document.createElement("dd");
    dd.className = `setup-line ${side}`;
    dd.dataset.side = side;
    const squares = inSetupOrder(s.start_squares[side]);
    dd.textContent = [...s.setups[side]].map((l, i) => `${squares[i]} ${t(`animal.${l.toLowerCase()}`)}`).join(" · ");
    list.append(dt, dd);
  }
}

function browse(ply) {
  const s = page.state;
  if (!s || s.phase === "setup") return;
  page.browsing = ply === null || ply >= s.moves.length ? null : Math.max(0, ply);
  draw();
}

$("shuffle").addEventListener("click", () => {
  if (!settingUp()) return;
  page.letters = shuffled(page.letters);
  draw();
});
$("ready").addEventListener("click", () => {
  if (settingUp()) send({ type: "setup", setup: page.letters });
});
$("flip").addEventListener("click", () => {
  page.flippedByUser = !flipped();
  draw();
});
// Resigning takes a second press within four seconds, so a stray tap does not end the game.
$("resign").addEventListener("click", () => {
  const now = performance.now();
  if (now < page.resignUntil) {
    page.resignUntil = 0;
    send({ type: "resign" });
  } else {
    page.resignUntil = now + 4000;
    setTimeout(() => { $("resign").textContent = t("game.resign"); }, 4000);
  }
  $("resign").textContent = t(page.resignUntil ? "game.reallyResign" : "game.resign");
});
$("banner-close").addEventListener("click", () => {
  page.bannerClosed = true;
  $("banner").hidden = true;
});
$("moves").addEventListener("click", (e) => {
  const span = e.target.closest("[data-ply]");
  if (span) browse(Number(span.dataset.ply));
});
$("back-to-game").addEventListener("click", () => browse(null));
wireMoveKeys(() => (page.state && page.state.phase !== "setup" ? (page.browsing ?? page.state.moves.length) : null), browse);
wireMute();
wireJoin(`/api/hidden/${gameId}/join`, () => {
  // The seat cookie is set: the next connection carries it and is sent the seat's view.
  page.retries = 0;
  if (page.socket) page.socket.close();
}, showError);
wireCopy();

localise();
mountAccountBar();
connect();
