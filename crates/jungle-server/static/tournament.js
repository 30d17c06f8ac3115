// One tournament: its terms, a countdown to its start (or an arena's end), join and leave, the live
// standings, the top games to watch and every game, the podium once it is over. The page asks the server
// for the tournament every two seconds; when the server pairs this player, the page takes the seat and goes
// to the game (the game's page links back here).

import { mountAccountBar } from "./account-bar.js";
import { $, showError } from "./dom.js";
import { localise, t } from "./i18n.js";
import { postJson } from "./api.js";
import { enterGame } from "./lobby-shared.js";
import { countdown, describe } from "./tournament-shared.js";

const POLL_MS = 2000;
const id = decodeURIComponent(location.pathname.split("/").pop());
const view = { data: null, fetchedAt: 0, leaving: false, seen: new Set() };

localise();
mountAccountBar();

function resultText(game) {
  if (game.playing) return t("tour.playing");
  if (game.result === "*") return t("tour.aborted");
  return game.result === "1/2-1/2" ? "½-½" : game.result;
}

function gameItem(game) {
  const li = document.createElement("li");
  li.dataset.game = game.id;
  const link = document.createElement("a");
  link.href = `/game/${encodeURIComponent(game.id)}`;
  link.textContent = `${game.blue ?? "?"} – ${game.red ?? "?"}`;
  const info = document.createElement("span");
  info.className = "info";
  info.textContent = `${t("tour.roundN", { n: game.round })} · ${resultText(game)}`;
  li.append(link, info);
  return li;
}

function drawStandings(data) {
  const swiss = data.tournament.kind === "swiss";
  for (const el of document.querySelectorAll(".swiss-only")) el.hidden = !swiss;
  for (const el of document.querySelectorAll(".arena-only")) el.hidden = swiss;
  const body = $("standings");
  body.textContent = "";
  for (const line of data.standings) {
    const row = document.createElement("tr");
    row.dataset.player = line.name;
    if (!line.active) row.className = "inactive";
    if (data.me && line.name === data.me.name) row.classList.add("me");
    const cells = [String(line.rank), `${line.name} (${line.rating})`, line.score];
    if (swiss) cells.push(line.buchholz, line.sonneborn_berger);
    else cells.push((line.per_game || []).join(" ") + (line.on_fire ? " 🔥" : ""));
    cells.push(String(line.games));
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

function drawGames(data) {
  const top = $("top-games");
  top.textContent = "";
  const byId = new Map(data.games.map((g) => [g.id, g]));
  for (const gameId of data.top_games) {
    const game = byId.get(gameId);
    if (game) top.appendChild(gameItem(game));
  }
  if (!top.children.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("tour.noGames");
    top.appendChild(li);
  }
  const all = $("games");
  all.textContent = "";
  for (const game of data.games) all.appendChild(gameItem(game));
}

function drawPodium(data) {
  $("podium-card").hidden = !data.podium;
  const list = $("podium");
  list.textContent = "";
  for (const line of data.podium || []) {
    const li = document.createElement("li");
    li.dataset.player = line.name;
    li.textContent = `${line.name} · ${line.score}`;
    list.appendChild(li);
  }
}

function tick() {
  const data = view.data;
  if (!data) return;
  const now = data.now + (Date.now() - view.fetchedAt);
  const status = data.tournament.status;
  const el = $("tour-countdown");
  if (status === "upcoming") {
    el.textContent = t("tour.startsIn", { time: countdown(data.tournament.starts_at, now) });
  } else if (status === "running" && data.ends_at) {
    el.textContent = t("tour.endsIn", { time: countdown(data.ends_at, now) });
  } else {
    el.textContent = "";
  }
  el.hidden = !el.textContent;
}

function draw(data) {
  const tournament = data.tournament;
  document.title = `${tournament.name} · ${t("tour.title")}`;
  $("tour-name").textContent = tournament.name;
  $("tour-terms").textContent =
    `${describe(tournament)} · ${t("tour.by", { name: tournament.creator_name })} · ` +
    t("tour.playersOf", { n: data.players, max: data.max_players });
  const round = tournament.kind === "swiss" && tournament.status !== "upcoming"
    ? ` · ${t("tour.roundOf", { n: tournament.current_round, of: tournament.rounds })}` : "";
  $("tour-state").textContent = t(`tour.status.${tournament.status}`) + round;
  const me = data.me;
  const open = tournament.status !== "finished" &&
    !(tournament.kind === "swiss" && tournament.status === "running");
  $("guest-note").hidden = Boolean(me) || tournament.status === "finished";
  $("join").hidden = !me || (me.joined && me.active) || !open;
  $("leave").hidden = !me || !me.joined || !me.active || tournament.status === "finished";
  $("leave").textContent = tournament.kind === "swiss" && tournament.status === "running"
    ? t("tour.withdraw") : t("tour.leave");
  $("play").hidden = !(me && me.game);
  drawStandings(data);
  drawGames(data);
  drawPodium(data);
  tick();
  // Paired: to the game, once for each new game (coming back here from a game does not bounce).
  if (me && me.game && !view.seen.has(me.game) && !view.leaving) {
    view.seen.add(me.game);
    if (sessionStorage.getItem(`tour-left-${me.game}`) !== "1") goToGame(me.game);
  }
}

async function goToGame(gameId) {
  view.leaving = true;
  try {
    sessionStorage.setItem(`tour-left-${gameId}`, "1");
    await enterGame(gameId);
  } catch (e) {
    view.leaving = false;
    showError("tour-error", e);
  }
}

async function refresh() {
  try {
    const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      showError("tour-error", answer.error || response.statusText);
      return;
    }
    view.data = answer;
    view.fetchedAt = Date.now();
    draw(answer);
  } catch {
    // A network blip: the next poll tries again.
  }
}

function action(button, path) {
  $(button).addEventListener("click", async () => {
    $(button).disabled = true;
    try {
      await postJson(`/api/tournaments/${encodeURIComponent(id)}/${path}`);
      showError("tour-error", null);
    } catch (e) {
      showError("tour-error", e);
    } finally {
      $(button).disabled = false;
      refresh();
    }
  });
}

action("join", "join");
action("leave", "leave");
$("play").addEventListener("click", () => {
  if (view.data?.me?.game) goToGame(view.data.me.game);
});

refresh();
setInterval(refresh, POLL_MS);
setInterval(tick, 1000);
