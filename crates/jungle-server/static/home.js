// The home page: create a game (vs the engine or a friend), list live and finished games, import a PGN.

import { $ } from "./dom.js";
import { localise } from "./i18n.js";
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

localise();
wireImportForm("import-error");

function describe(game) {
  const blue = game.blue_name || (game.engine_side === "blue" ? `Engine level ${game.engine_level}` : "Blue");
  const red = game.red_name || (game.engine_side === "red" ? `Engine level ${game.engine_level}` : "Red");
  return game.mode === "friend" ? `${blue} vs ${red} (friends)` : `${blue} vs ${red}`;
}

function plies(n) {
  return n === 1 ? "1 ply" : `${n} plies`;
}

// "5 s ago", "3 min ago", "2 h ago", "4 days ago".
function age(ms, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

// The time control as "5+3" (minutes + seconds per move), or "untimed".
function timeControl(game) {
  if (!game.clock_initial_ms) return "untimed";
  const minutes = game.clock_initial_ms / 60000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${(game.clock_increment_ms || 0) / 1000}`;
}

// Both clocks as they stood after the last move ("4:58 – 5:00", Blue first).
function clocks(game) {
  const show = (ms) => {
    const seconds = Math.floor(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  };
  const blue = game.blue_ms ?? game.clock_initial_ms;
  const red = game.red_ms ?? game.clock_initial_ms;
  return `${show(blue)} – ${show(red)}`;
}

const EMPTY = {
  live: "No games in progress.",
  recent: "No finished games yet.",
  imports: "No imported games.",
};

function fill(list, games, kind) {
  list.textContent = "";
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = EMPTY[kind];
    list.appendChild(li);
    return;
  }
  for (const game of games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = kind === "live" ? `/game/${game.id}` : `/replay/${game.id}`;
    a.textContent = describe(game);
    li.appendChild(a);
    const info = document.createElement("span");
    info.className = "info";
    const parts = [];
    if (kind === "live" && game.open_seat) parts.push("open seat: join");
    parts.push(plies(game.plies));
    if (kind === "recent") parts.push(`${game.result} ${game.termination}`);
    if (kind !== "imports") parts.push(timeControl(game));
    if (kind === "live" && game.clock_initial_ms) parts.push(clocks(game));
    if (game.rules !== "standard") parts.push(game.rules);
    parts.push(age(kind === "recent" && game.finished_at ? game.finished_at : game.created_at));
    info.textContent = parts.join(" · ");
    li.appendChild(info);
    list.appendChild(li);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/games");
    const lists = await response.json();
    for (const kind of ["live", "recent", "imports"]) fill($(kind), lists[kind], kind);
  } catch (_) { /* try again later */ }
}
refresh();
setInterval(refresh, 5000);
