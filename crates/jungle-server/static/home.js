// The home page: create a game (vs the engine or a friend), list live and finished games, import a PGN.

import { $ } from "./dom.js";
import { wireImportForm } from "./import-form.js";

let opponent = "engine";
for (const button of document.querySelectorAll("#new-game button[data-opponent]")) {
  button.addEventListener("click", () => { opponent = button.dataset.opponent; });
}

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const [minutes, increment] = $("clock").value.split("+").map(Number);
  const extra = $("options").value.trim();
  const preset = $("preset").value;
  const rules = [preset === "standard" ? "" : preset, extra].filter(Boolean).join(",");
  const body = { opponent, side: $("side").value, rules, minutes, increment };
  if (opponent === "engine") body.level = Number($("level").value);
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    location.href = answer.url;
  } catch (e) {
    $("create-error").textContent = String(e.message || e);
    $("create-error").hidden = false;
  }
});

wireImportForm("import-error");

function describe(game) {
  const blue = game.blue_name || (game.engine_side === "blue" ? `Engine ${game.engine_level}` : "Blue");
  const red = game.red_name || (game.engine_side === "red" ? `Engine ${game.engine_level}` : "Red");
  return game.mode === "friend" ? `${blue} vs ${red} (friends)` : `${blue} vs ${red}`;
}

function fill(list, games, finished) {
  list.textContent = "";
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = finished ? "No finished games yet." : "No games in progress.";
    list.appendChild(li);
    return;
  }
  for (const game of games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = finished ? `/replay/${game.id}` : `/game/${game.id}`;
    a.textContent = describe(game);
    li.appendChild(a);
    const info = document.createElement("span");
    info.className = "info";
    const rules = game.rules === "standard" ? "" : ` · ${game.rules}`;
    const end = finished ? ` · ${game.result} ${game.termination}` : "";
    const open = game.open_seat && !finished ? "open seat: join · " : "";
    info.textContent = `${open}${game.plies} plies${end}${rules}`;
    li.appendChild(info);
    list.appendChild(li);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/games");
    const lists = await response.json();
    fill($("live"), lists.live, false);
    fill($("recent"), lists.recent, true);
  } catch (_) { /* try again later */ }
}
refresh();
setInterval(refresh, 5000);
