// The home page: create a game (vs the engine or a friend), list live and finished games, import a PGN.

import { mountAccountBar } from "./account-bar.js";
import { postJson } from "./api.js";
import { $ } from "./dom.js";
import { localise, t, tOr } from "./i18n.js";
import { wireImportForm } from "./import-form.js";
import { labelLevels } from "./engine-levels.js";

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
  const hidden = $("hidden").checked;
  // A Hidden Jungle game (docs/hidden.md) has its own route and no clock.
  const body = hidden
    ? { mode: opponent, side: $("side").value, rules: rules || "standard" }
    : { opponent, side: $("side").value, rules, minutes, increment };
  if (opponent === "engine") body.level = Number($("level").value);
  try {
    location.href = (await postJson(hidden ? "/api/hidden" : "/api/games", body)).url;
  } catch (e) {
    $("create-error").textContent = String(e.message || e);
    $("create-error").hidden = false;
  }
});

// Hidden games are untimed: the clock choice goes away while Hidden is ticked.
$("hidden").addEventListener("change", () => { $("clock-field").hidden = $("hidden").checked; });
$("clock-field").hidden = $("hidden").checked;

localise();
mountAccountBar();
wireImportForm("import-error");
labelLevels($("level"));

function describe(game) {
  const name = (side) => game[`${side}_name`] ||
    (game.engine_side === side ? t("list.engine", { level: game.engine_level }) : t(`side.${side}`));
  const pairing = t("list.versus", { blue: name("blue"), red: name("red") });
  if (game.rating_category) return t("list.rated", { pairing, category: t(`category.${game.rating_category}`) });
  return game.mode === "friend" ? t("list.friends", { pairing }) : pairing;
}

function plies(n) {
  return n === 1 ? t("list.ply") : t("list.plies", { n });
}

// "5 s ago", "3 min ago", "2 h ago", "4 days ago".
function age(ms, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return t("age.seconds", { n: seconds });
  if (seconds < 3600) return t("age.minutes", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("age.hours", { n: Math.floor(seconds / 3600) });
  const days = Math.floor(seconds / 86400);
  return days === 1 ? t("age.day") : t("age.days", { n: days });
}

// The time control as "5+3" (minutes + seconds per move), or "untimed".
function timeControl(game) {
  if (!game.clock_initial_ms) return t("list.untimed");
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

function fill(list, games, kind) {
  list.textContent = "";
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t(`list.empty.${kind}`);
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
    if (kind === "live" && game.open_seat) parts.push(t("list.openSeat"));
    parts.push(plies(game.plies));
    if (kind === "recent") parts.push(`${game.result} ${tOr(`reason.${game.termination}`, game.termination ?? "")}`);
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
