// The game page: one websocket to the game's room. The server sends the whole state after every change; this
// page draws it and sends the player's actions. A dropped connection reconnects to the same seat (the cookie).

import { mountAccountBar } from "./account-bar.js";
import { postJson } from "./api.js";
import { JungleBoard, describeMove, parseFen, positionAfter } from "./board.js";
import { $ } from "./dom.js";
import { lang, localise, t, tOr } from "./i18n.js";
import { fillMoveList, sideName } from "./moves.js";
import { playMoveSound, sounds } from "./sound.js";
import { followRatings } from "./game-ratings.js";
import { correspondenceMeta, drawDeadline } from "./deadline.js";
import { GAME_SILENT_MS, abandon, keepAlive, reconnectGame } from "./liveness.js";
import { wireCopy, wireJoin, wireMoveKeys, wireMute } from "./game-controls.js";
import { linkTournament } from "./game-tournament.js";

const gameId = location.pathname.split("/").pop();
linkTournament(gameId);
const view = { premove: null, browsing: null, sounds, seat: null, state: null, receivedAt: 0, offlineAt: null, bannerClosedAt: null, flippedByUser: null, socket: null, retries: 0, resignArmed: null };
window.jungle = view; // read by the end-to-end tests
const showRatings = followRatings(gameId, () => { if (view.state) drawStatus(); });

const board = new JungleBoard($("board"), (move) => send({ type: "move", move }));
view.board = board; // the tests read its orientation
// A move picked while the opponent is to move waits here (one at most) and is sent when it is legal on the
// player's turn; null cancels it.
board.onPremove = (move) => {
  view.premove = move;
  draw();
};

// Sends an action; false (and an error on screen) when the connection is down: nothing is queued, so a move
// made offline is refused at once instead of being shown as made.
function send(message) {
  if (online()) {
    view.socket.send(JSON.stringify(message));
    return true;
  }
  showError(t("game.offline"));
  return false;
}

function online() {
  return Boolean(view.socket && view.socket.readyState === WebSocket.OPEN);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
  view.socket = socket;
  let life = null;
  socket.onopen = () => {
    view.retries = 0;
    life = keepAlive(socket, () => abandon(socket), GAME_SILENT_MS);
    $("connection").textContent = "";
    $("connection").className = "connection online";
  };
  socket.onmessage = (event) => {
    life.heard();
    const message = JSON.parse(event.data);
    if (message.type === "welcome") {
      view.seat = message.seat;
      document.body.dataset.seat = message.seat || "spectator";
    } else if (message.type === "state") {
      noticeMove(view.state, message);
      view.state = message;
      view.receivedAt = performance.now();
      view.offlineAt = null;
      hideError();
      playPremove();
      draw();
    } else if (message.type === "notice") {
      // News for the players, not an error: e.g. the opponent (or the engine) declined a draw or a takeback.
      const declined = message.event === "draw_declined" || message.event === "takeback_declined";
      if (!declined || message.by !== view.seat) showNotice(tOr(`notice.${message.event}`, message.text));
    } else if (message.type === "error") {
      showError(message.message);
      if (view.state) draw(); // undo an optimistic move
    }
  };
  // Its node went away (or the network did): the page reconnects, through the front door to whichever node
  // answers, and gets the whole state of the game there.
  socket.onclose = () => {
    if (life) life.stop();
    // The clocks stop on screen: what they really show comes with the state after reconnecting.
    if (view.offlineAt === null) view.offlineAt = performance.now();
    if (view.state) draw(); // no moves are offered while offline
    $("connection").textContent = t("game.reconnecting");
    $("connection").className = "connection offline";
    reconnectGame(gameId, view.retries++, connect);
  };
}

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").hidden = false;
  clearTimeout(view.noticeTimer);
  view.noticeTimer = setTimeout(() => { $("notice").hidden = true; }, 8000);
}

// A new move: a sound, and its words for screen readers (the live region speaks what is written into it).
function noticeMove(before, after) {
  if (!before || after.ply !== before.ply + 1) return;
  const move = after.moves[after.moves.length - 1];
  $("announce").textContent = describeMove(before.fen, move);
  playMoveSound(Boolean(parseFen(before.fen).pieces[move.slice(2, 4)]));
}

// On the player's turn the queued move is sent if it is legal now, and dropped either way.
function playPremove() {
  const move = view.premove;
  if (!move || !myTurn()) return;
  view.premove = null;
  if (view.state.legal.includes(move)) send({ type: "move", move });
}

// Moves that may be queued while the opponent is to move: each own piece one square along a line, the Lion
// and Tiger further (a jump over water). The server's list decides when the turn comes.
function premoveChoices() {
  const s = view.state;
  if (!view.seat || s.outcome || s.turn === view.seat || !online() || view.browsing !== null) return [];
  const files = "abcdefg";
  const moves = [];
  for (const [from, piece] of Object.entries(parseFen(s.fen).pieces)) {
    if (piece.side !== view.seat) continue;
    const reach = piece.animal === "l" || piece.animal === "t" ? 4 : 1;
    for (const [df, dr] of [[0, 1], [0, -1], [1, 0], [-1, 0]]) {
      for (let step = 1; step <= reach; step++) {
        const file = files.indexOf(from[0]) + df * step;
        const rank = Number(from[1]) + dr * step;
        if (file >= 0 && file < 7 && rank >= 1 && rank <= 9) moves.push(from + files[file] + rank);
      }
    }
  }
  return moves;
}

// Shows an earlier position of the game (null: the live one); the board offers no moves meanwhile.
function browse(ply) {
  const s = view.state;
  if (!s) return;
  view.browsing = ply === null || ply >= s.moves.length ? null : Math.max(0, ply);
  draw();
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

function flipped() {
  if (view.flippedByUser !== null) return view.flippedByUser;
  return view.seat === "red";
}

function myTurn() {
  const s = view.state;
  return s && view.seat && !s.outcome && s.turn === view.seat && !s.thinking;
}

function draw() {
  const s = view.state;
  if (!s) return;
  const flip = flipped();
  board.flipped = flip;
  // A takeback can leave the ply being looked at past the end: then the live position is shown.
  if (view.browsing !== null && view.browsing >= s.moves.length) view.browsing = null;
  const live = view.browsing === null;
  const shown = live ? s.moves.length : view.browsing;
  board.set(live ? s.fen : positionAfter(s.start_fen, s.moves, shown), {
    legal: live && myTurn() && online() ? s.legal : [],
    premoves: premoveChoices(),
    queued: view.premove,
    lastMove: shown ? s.moves[shown - 1] : null,
    board: s.board,
  });
  document.body.dataset.shown = String(shown);
  // Only while an earlier position is shown: there is a game to go back to.
  $("back-to-game").hidden = live || shown >= s.moves.length;
  document.title = t(myTurn() ? "game.titleTurn" : "game.title");
  const bottom = flip ? "red" : "blue";
  const top = flip ? "blue" : "red";
  drawPlayer($("player-bottom"), bottom);
  drawPlayer($("player-top"), top);
  showRatings(s);
  drawClocks();
  drawMoves();
  drawStatus();
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.turn = s.turn;
  document.body.dataset.over = s.outcome ? "true" : "false";
  document.body.dataset.myturn = myTurn() ? "true" : "false";
}

function drawPlayer(el, side) {
  const s = view.state;
  el.className = `player ${side}` + (s.turn === side && !s.outcome ? " to-move" : "");
  let name = s.players[side];
  if (view.seat === side) name = t("player.you", { name });
  el.querySelector(".name").textContent = name;
  el.dataset.side = side;
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 100) / 10);
  const minutes = Math.floor(total / 60);
  const seconds = total - minutes * 60;
  if (total < 20) return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
  return `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
}

function drawClocks() {
  const s = view.state;
  for (const el of [$("player-top"), $("player-bottom")]) {
    const clock = el.querySelector(".clock");
    if (!s || !s.clock) {
      clock.textContent = "";
      continue;
    }
    const side = el.dataset.side;
    let ms = s.clock[`${side}_ms`];
    const now = view.offlineAt === null ? performance.now() : view.offlineAt;
    if (s.clock.running === side && !s.outcome) ms -= now - view.receivedAt;
    clock.textContent = formatClock(ms);
    clock.classList.toggle("low", ms < 10000);
  }
}

function drawMoves() {
  const s = view.state;
  const list = $("moves");
  const shown = view.browsing === null ? s.moves.length : view.browsing;
  list.classList.add("clickable");
  fillMoveList(list, s.animal_moves, s.start_fen, (span, half) => {
    span.dataset.ply = String(half.ply + 1);
    if (half.ply + 1 === shown) span.classList.add("current");
  });
  if (view.browsing === null) list.scrollTop = list.scrollHeight;
}

// "You win!", "Blue wins", "Draw", "Game aborted" (for this page's viewer).
function resultTitle(outcome) {
  if (outcome.reason === "aborted") return t("result.aborted");
  if (view.seat && outcome.winner) return t(outcome.winner === view.seat ? "result.youWin" : "result.youLose");
  return outcome.winner ? t("result.wins", { side: sideName(outcome.winner) }) : t("result.draw");
}

function reasonWords(outcome) {
  return tOr(`reason.${outcome.reason}`, outcome.reason);
}

function drawStatus() {
  const s = view.state;
  let text;
  // The server words the result in English; other languages compose it from the title and the reason.
  if (s.outcome) text = lang() === "en" ? s.outcome.text : `${resultTitle(s.outcome)} · ${reasonWords(s.outcome)}`;
  else if (!view.seat) text = t("status.watching", { side: sideName(s.turn) });
  else if (s.thinking) text = t("status.thinking");
  // Offline, no move can be made: the status says so rather than "Your turn.".
  else if (!online()) text = t("status.offline");
  else if (s.turn === view.seat) text = t("status.yourTurn");
  else if (s.mode === "friend" && !s.seats_taken[s.turn]) text = t("status.waitFriend");
  else text = t("status.waitOpponent");
  $("status").textContent = text;

  const waitingForFriend = s.mode === "friend" && view.seat && !(s.seats_taken.blue && s.seats_taken.red);
  $("share").hidden = !waitingForFriend;
  if (waitingForFriend) $("share-link").value = location.href;

  // A free seat is taken by pressing Join, never by opening the page (link previews open it too).
  const freeSeat = s.mode === "friend" && !s.outcome && ["blue", "red"].find((side) => !s.seats_taken[side]);
  $("join").hidden = Boolean(view.seat) || !freeSeat;
  if (freeSeat) $("join-button").textContent = t("game.joinAs", { side: sideName(freeSeat) });

  $("draw-offer").hidden = !(view.seat && s.draw_offer && s.draw_offer !== view.seat && !s.outcome);
  const playing = Boolean(view.seat) && !s.outcome;
  $("resign").disabled = !playing;
  const iOffered = Boolean(view.seat) && s.draw_offer === view.seat;
  $("offer-draw").disabled = !playing || iOffered;
  $("offer-draw").textContent = t(iOffered ? "game.drawSent" : "game.offerDraw");
  // Either player may call the game off until both sides have made two moves (the server has the same rule).
  $("abort").hidden = !playing || s.ply >= 4;
  // Against the engine a takeback is immediate; between people it is asked for (casual games only) and the
  // opponent accepts or declines (the server has the same rules).
  const iAsked = Boolean(view.seat) && s.takeback_request === view.seat;
  $("takeback").hidden = !view.seat || !(s.mode === "engine" || (s.mode === "friend" && showRatings.rated() === false));
  $("takeback").disabled = !playing || s.thinking || s.ply === 0 || iAsked;
  $("takeback").textContent = t(iAsked ? "game.takebackSent" : "game.takeback");
  $("takeback-request").hidden = !(playing && s.takeback_request && s.takeback_request !== view.seat);
  $("replay-link").href = `/replay/${gameId}`;
  $("banner-replay").href = `/replay/${gameId}`;

  const banner = $("banner");
  // Closed by the player: stays closed for this result (a takeback or new result would show it again).
  banner.hidden = !s.outcome || view.bannerClosedAt === s.ply;
  if (s.outcome) {
    const title = resultTitle(s.outcome);
    $("banner-title").textContent = title;
    $("banner-reason").textContent = `${reasonWords(s.outcome)} · ${s.outcome.result}`;
    banner.className = `banner ${s.outcome.winner || "draw"}`;
    // A rematch: the same game with colours swapped; the first player to ask makes it, the other is invited.
    $("rematch").hidden = !view.seat;
    $("rematch").textContent = t(s.rematch ? "game.playRematch" : "game.rematch");
  }
  const level = s.engine ? ` · ${t("meta.level", { level: s.engine.level })}` : "";
  const clock = s.clock ? "" : ` · ${correspondenceMeta(s) ?? t("meta.untimed")}`;
  const watching = s.spectators ? ` · ${t("meta.watching", { count: s.spectators })}` : "";
  $("meta").textContent = t("meta.rules", { rules: s.rules }) + level + clock + watching;
  drawAway();
  drawDeadline(s);
}

$("flip").addEventListener("click", () => {
  view.flippedByUser = !flipped();
  draw();
});
$("resign").addEventListener("click", () => {
  // Two clicks, so a stray tap does not end the game (no blocking dialogs).
  if (view.resignArmed) {
    clearTimeout(view.resignArmed);
    view.resignArmed = null;
    $("resign").textContent = t("game.resign");
    send({ type: "resign" });
  } else {
    $("resign").textContent = t("game.reallyResign");
    view.resignArmed = setTimeout(() => {
      view.resignArmed = null;
      $("resign").textContent = t("game.resign");
    }, 4000);
  }
});
$("rematch").addEventListener("click", async () => {
  $("rematch").disabled = true;
  try {
    location.href = (await postJson(`/api/games/${gameId}/rematch`)).url;
  } catch (e) {
    showError(String(e.message || e));
  } finally {
    $("rematch").disabled = false;
  }
});
$("banner-close").addEventListener("click", () => {
  view.bannerClosedAt = view.state ? view.state.ply : null;
  $("banner").hidden = true;
});
$("moves").addEventListener("click", (e) => {
  const span = e.target.closest("[data-ply]");
  if (span) browse(Number(span.dataset.ply));
});
$("back-to-game").addEventListener("click", () => browse(null));
wireMoveKeys(() => (view.state ? (view.browsing === null ? view.state.moves.length : view.browsing) : null), browse);
wireMute();
$("offer-draw").addEventListener("click", () => send({ type: "offer_draw" }));
$("accept-draw").addEventListener("click", () => send({ type: "offer_draw" }));
$("decline-draw").addEventListener("click", () => send({ type: "decline_draw" }));
$("takeback").addEventListener("click", () => send({ type: "takeback" }));
$("accept-takeback").addEventListener("click", () => send({ type: "takeback" }));
$("decline-takeback").addEventListener("click", () => send({ type: "decline_takeback" }));
$("abort").addEventListener("click", () => send({ type: "abort" }));
wireJoin(`/api/games/${gameId}/join`, () => {
  // The seat cookie is set: a new connection carries it and is greeted with the seat.
  view.retries = 0;
  if (view.socket) view.socket.close();
}, showError);
wireCopy();
// The opponent's connection is gone: a countdown, then the player may claim the win or call it a draw.
function drawAway() {
  const s = view.state;
  const opponent = view.seat === "blue" ? "red" : "blue";
  const away = s && view.seat && !s.outcome && s.away ? s.away[opponent] : null;
  $("away").hidden = away === null || away === undefined;
  if ($("away").hidden) return;
  const left = Math.max(0, Math.ceil((away - (performance.now() - view.receivedAt)) / 1000));
  $("away-text").textContent = left > 0
    ? t("away.countdown", { left })
    : t("away.now");
  $("claim-win").disabled = left > 0 || !online();
  $("claim-draw").disabled = left > 0 || !online();
}

$("claim-win").addEventListener("click", () => send({ type: "claim_win" }));
$("claim-draw").addEventListener("click", () => send({ type: "claim_draw" }));
setInterval(drawAway, 500);
localise();
mountAccountBar();
setInterval(drawClocks, 100);
connect();
