// The lobby: quick pairing, open seeks (accept, cancel, decline), a new seek or direct challenge, and the live
// games. The page asks the server for the lobby every few seconds (which also keeps this player's seeks open);
// when one of the player's seeks is accepted, the page takes its seat and goes to the game.

import { mountAccountBar } from "./account-bar.js";
import { $, showError } from "./dom.js";
import { localise, t } from "./i18n.js";
import { postJson } from "./api.js";
import { enterGame, timeText } from "./lobby-shared.js";

const POLL_MS = 2000;
const pageOpened = Date.now();
const view = { me: null, seeks: [], waitingQuick: null, leaving: false };

localise();
mountAccountBar();
$("opponent").placeholder = t("lobby.anyone");

function rangeText(seek) {
  if (seek.rating_min == null && seek.rating_max == null) return "";
  return t("lobby.rangeText", { min: seek.rating_min ?? "…", max: seek.rating_max ?? "…" });
}

// Goes to a game the lobby made, with this player's seat.
async function goToGame(gameId) {
  if (view.leaving) return;
  view.leaving = true;
  try {
    await enterGame(gameId);
  } catch (e) {
    view.leaving = false;
    showError("lobby-error", e);
  }
}

function button(label, action, primary = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (primary) b.className = "primary";
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await action();
      showError("lobby-error", null);
    } catch (e) {
      showError("lobby-error", e);
    } finally {
      b.disabled = false;
      refresh();
    }
  });
  return b;
}

function drawSeeks() {
  const list = $("seeks");
  list.textContent = "";
  if (!view.seeks.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("lobby.noSeeks");
    list.appendChild(li);
    return;
  }
  for (const seek of view.seeks) {
    const li = document.createElement("li");
    li.dataset.seek = seek.id;
    if (seek.for_me) li.classList.add("for-me");
    if (seek.declined) li.classList.add("declined");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${seek.creator_name} (${seek.rating})`;
    const info = document.createElement("span");
    info.className = "info";
    const parts = [timeText(seek.time), t(seek.rated ? "lobby.ratedGame" : "lobby.casualGame")];
    if (seek.rules !== "standard") parts.push(seek.rules);
    // The colour is the creator's: said as theirs, so whoever accepts knows they get the other one.
    if (seek.colour !== "random") {
      const side = t(`side.${seek.colour}`);
      parts.push(seek.mine ? t("lobby.youPlay", { side }) : t("lobby.creatorPlays", { name: seek.creator_name, side }));
    }
    const range = rangeText(seek);
    if (range) parts.push(range);
    if (seek.target_name) parts.push(t("lobby.challengeTo", { name: seek.target_name }));
    if (seek.declined) parts.push(t("lobby.declined"));
    info.textContent = parts.join(" · ");
    const actions = document.createElement("span");
    actions.className = "actions";
    if (seek.mine) {
      actions.appendChild(button(t(seek.declined ? "lobby.dismiss" : "lobby.cancel"),
        () => postJson(`/api/seeks/${encodeURIComponent(seek.id)}/cancel`)));
    } else if (view.me) {
      actions.appendChild(button(t("lobby.accept"), async () => {
        const answer = await postJson(`/api/seeks/${encodeURIComponent(seek.id)}/accept`);
        view.leaving = true;
        location.href = answer.url;
      }, true));
      if (seek.for_me) {
        actions.appendChild(button(t("lobby.decline"),
          () => postJson(`/api/seeks/${encodeURIComponent(seek.id)}/decline`)));
      }
    }
    const text = document.createElement("span");
    text.append(who, document.createTextNode(" "), info);
    li.append(text, actions);
    list.appendChild(li);
  }
}

function drawGames(games) {
  const list = $("games");
  list.textContent = "";
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("lobby.noGames");
    list.appendChild(li);
    return;
  }
  for (const game of games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/game/${game.id}`;
    const player = (side) => `${game.names[side] ?? "?"}${game.ratings[side] != null ? ` (${game.ratings[side]})` : ""}`;
    a.textContent = t("list.versus", { blue: player("blue"), red: player("red") });
    const info = document.createElement("span");
    info.className = "info";
    const time = game.days_per_move
      ? { kind: "correspondence", days_per_move: game.days_per_move }
      : { kind: "clock", initial_ms: game.clock_initial_ms, increment_ms: game.clock_increment_ms };
    const parts = [timeText(time), game.plies === 1 ? t("list.ply") : t("list.plies", { n: game.plies })];
    if (game.rules !== "standard") parts.push(game.rules);
    info.textContent = parts.join(" · ");
    li.append(a, info);
    list.appendChild(li);
  }
}

function drawQuick(pairs) {
  const box = $("quick");
  if (box.childElementCount !== pairs.length) {
    box.textContent = "";
    for (const [minutes, increment] of pairs) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tc = `${minutes}+${increment}`;
      b.textContent = `${minutes}+${increment}`;
      b.addEventListener("click", () => quickPair(minutes, increment));
      box.appendChild(b);
    }
  }
  const waitingTc = view.waitingQuick ? timeText(view.waitingQuick.time) : null;
  for (const b of box.children) {
    b.disabled = !view.me;
    b.classList.toggle("waiting", b.dataset.tc === waitingTc);
  }
  const waiting = $("waiting");
  waiting.hidden = !view.waitingQuick;
  waiting.textContent = "";
  if (view.waitingQuick) {
    const text = document.createElement("span");
    text.textContent = t("lobby.waitingFor", { tc: waitingTc });
    const seekId = view.waitingQuick.id;
    waiting.append(text, button(t("lobby.cancel"), async () => {
      await postJson(`/api/seeks/${encodeURIComponent(seekId)}/cancel`);
      view.waitingQuick = null;
    }));
  }
}

async function quickPair(minutes, increment) {
  try {
    const answer = await postJson("/api/lobby/quick", { minutes, increment });
    if (answer.url) {
      view.leaving = true;
      location.href = answer.url;
      return;
    }
    view.waitingQuick = answer.waiting;
    showError("lobby-error", null);
  } catch (e) {
    showError("lobby-error", e);
  }
  refresh();
}

async function refresh() {
  if (view.leaving) return;
  let lobby;
  try {
    const response = await fetch(`/api/lobby?since=${pageOpened}`);
    lobby = await response.json();
    if (!response.ok) throw new Error(lobby.error || response.statusText);
  } catch (_) {
    return; // try again at the next poll
  }
  view.me = lobby.me;
  view.seeks = lobby.seeks;
  // The quick seek still waiting, if it is (it leaves the list once taken or cancelled).
  if (view.waitingQuick && !lobby.seeks.some((s) => s.id === view.waitingQuick.id)) view.waitingQuick = null;
  $("guest-note").hidden = Boolean(view.me);
  $("create-card").hidden = !view.me;
  drawQuick(lobby.quick);
  drawSeeks();
  drawGames(lobby.games);
  fillDays(lobby.days);
  // One of this player's seeks was accepted: to the game.
  if (lobby.paired.length) goToGame(lobby.paired[lobby.paired.length - 1].game);
}

function fillDays(days) {
  const select = $("days");
  if (select.options.length) return;
  for (const n of days) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = n === 1 ? t("lobby.oneDay") : t("lobby.days", { n });
    select.appendChild(option);
  }
}

$("time-kind").addEventListener("change", () => {
  const days = $("time-kind").value === "days";
  $("days-field").hidden = !days;
  $("clock-field").hidden = days;
});

$("seek-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {
    rules: $("preset").value === "standard" ? "" : $("preset").value,
    rated: $("rated").value === "true",
    colour: $("colour").value,
  };
  if ($("time-kind").value === "days") {
    body.days = Number($("days").value);
  } else {
    const [minutes, increment] = $("clock").value.split("+").map(Number);
    body.minutes = minutes;
    body.increment = increment;
  }
  for (const [field, id] of [["rating_min", "rating-min"], ["rating_max", "rating-max"]]) {
    if ($(id).value !== "") body[field] = Number($(id).value);
  }
  const opponent = $("opponent").value.trim();
  if (opponent) body.opponent = opponent;
  try {
    await postJson("/api/seeks", body);
    showError("seek-error", null);
  } catch (e) {
    showError("seek-error", e);
  }
  refresh();
});

refresh();
setInterval(refresh, POLL_MS);
