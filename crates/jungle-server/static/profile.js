// A player's page (/@/NAME): ratings per category, the rating-history graph, win/draw/loss totals, the
// game list with its search, and the PGN export. Everything the server sends is written with textContent.

import { mountAccountBar } from "./account-bar.js";
import { $ } from "./dom.js";
import { localise, t, tCount } from "./i18n.js";
import { mountPuzzleHistory } from "./profile-puzzles.js";
import { drawRatingGraph } from "./rating-graph.js";

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, ""));
const api = `/api/users/${encodeURIComponent(name)}`;
let page = 0;

localise();
mountAccountBar();
document.title = t("profile.titleOf", { name });
$("export").href = `${api}/games.pgn`;

async function getJson(url) {
  const response = await fetch(url);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
}

function record(r) {
  return t("profile.wdl", { wins: r.wins, draws: r.draws, losses: r.losses });
}

async function loadProfile() {
  try {
    const profile = await getJson(api);
    $("player-name").textContent = profile.name;
    document.title = t("profile.titleOf", { name: profile.name });
    const games = profile.totals.games;
    $("totals").textContent = tCount("profile.totals", games, { games, record: record(profile.totals) });
    const body = $("ratings").querySelector("tbody");
    body.textContent = "";
    for (const r of profile.ratings) {
      const row = document.createElement("tr");
      row.dataset.category = r.category;
      cell(row, t(`category.${r.category}`));
      cell(row, r.shown);
      cell(row, String(r.games));
      cell(row, record(r));
      body.appendChild(row);
    }
    $("no-ratings").hidden = profile.ratings.length > 0;
    const drawn = drawRatingGraph($("rating-graph"), profile.history);
    $("graph-legend").textContent = drawn.map((c) => t(`category.${c}`)).join(" · ");
  } catch (e) {
    $("load-error").textContent = String(e.message || e);
    $("load-error").hidden = false;
  }
}

function timeControl(game) {
  if (game.rating_category === "correspondence") return t("category.correspondence");
  if (!game.clock_initial_ms) return t("list.untimed");
  return `${game.clock_initial_ms / 60000}+${(game.clock_increment_ms || 0) / 1000}`;
}

function opponentOf(game) {
  if (game.opponent) return game.opponent;
  if (game.engine_level) return t("list.engine", { level: game.engine_level });
  return t("profile.guest");
}

function gameItem(game) {
  const li = document.createElement("li");
  li.dataset.game = game.id;
  const left = document.createElement("span");
  const result = document.createElement("span");
  result.className = game.result;
  result.textContent = t(`profile.${game.result}`);
  left.appendChild(result);
  left.append(` ${t("profile.versus")} `);
  if (game.opponent) {
    const link = document.createElement("a");
    link.href = `/@/${encodeURIComponent(game.opponent)}`;
    link.textContent = game.opponent;
    left.appendChild(link);
  } else {
    left.append(opponentOf(game));
  }
  const details = [timeControl(game), game.rules, game.rating_category ? t("profile.rated") : t("profile.casual")];
  if (game.rating_before != null && game.rating_after != null) {
    const change = Math.round(game.rating_after) - Math.round(game.rating_before);
    details.push(`${Math.round(game.rating_after)} (${change >= 0 ? "+" : ""}${change})`);
  }
  details.push(new Date(game.finished_at).toISOString().slice(0, 10));
  left.append(` · ${details.join(" · ")}`);
  const replay = document.createElement("a");
  replay.href = `/replay/${encodeURIComponent(game.id)}`;
  replay.textContent = t("profile.replay");
  li.append(left, replay);
  return li;
}

async function loadGames() {
  const query = new URLSearchParams({ page: String(page) });
  for (const field of ["opponent", "rules", "result"]) {
    const value = $(field).value.trim();
    if (value) query.set(field, value);
  }
  const list = $("games");
  try {
    const answer = await getJson(`${api}/games?${query}`);
    $("search-error").hidden = true;
    list.textContent = "";
    if (!answer.games.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = t("profile.noGames");
      list.appendChild(li);
    }
    for (const game of answer.games) list.appendChild(gameItem(game));
    $("page").textContent = t("profile.page", { n: answer.page + 1 });
    $("newer").disabled = answer.page === 0;
    $("older").disabled = !answer.more;
  } catch (e) {
    $("search-error").textContent = String(e.message || e);
    $("search-error").hidden = false;
  }
}

$("search").addEventListener("submit", (event) => {
  event.preventDefault();
  page = 0;
  loadGames();
});
$("newer").addEventListener("click", () => { page = Math.max(0, page - 1); loadGames(); });
$("older").addEventListener("click", () => { page += 1; loadGames(); });

loadProfile();
loadGames();
mountPuzzleHistory(api);
