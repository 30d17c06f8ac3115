// The home page's "Your games": a signed-in player's games from the lobby, those awaiting their move first
// (with the time left for correspondence games), and that count in the tab's title.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { enterGame, timeLeft } from "./lobby-shared.js";

const REFRESH_MS = 10000;
const baseTitle = document.title;

function draw(games) {
  const list = $("my-games");
  list.textContent = "";
  $("my-games-card").hidden = !games.length;
  for (const game of games) {
    const li = document.createElement("li");
    li.dataset.game = game.id;
    if (game.my_turn) li.classList.add("my-turn");
    const a = document.createElement("a");
    a.href = `/game/${game.id}`;
    const opponent = game.names[game.side === "blue" ? "red" : "blue"] ?? "?";
    a.textContent = t("lobby.versusOpponent", { name: opponent });
    // The seat comes with the account, so the game opens with it on any device.
    a.addEventListener("click", (event) => {
      event.preventDefault();
      enterGame(game.id).catch(() => { location.href = a.href; });
    });
    const info = document.createElement("span");
    info.className = "info";
    const parts = [t(game.my_turn ? "lobby.yourTurn" : "lobby.theirTurn")];
    if (game.deadline_at) parts.push(timeLeft(game.deadline_at));
    info.textContent = parts.join(" · ");
    li.append(a, info);
    list.appendChild(li);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/lobby/mine");
    if (!response.ok) return;
    const mine = await response.json();
    draw(mine.games);
    document.title = mine.your_turn ? `(${mine.your_turn}) ${baseTitle}` : baseTitle;
  } catch (_) { /* try again later */ }
}

refresh();
setInterval(refresh, REFRESH_MS);
