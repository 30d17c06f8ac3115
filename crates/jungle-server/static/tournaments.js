// The tournaments: the running, upcoming and finished ones (asked for every few seconds), and the form a
// signed-in player creates one with (Swiss rounds or arena minutes, clock, rules preset, rated, the start
// as minutes from now or a date and time). A new tournament's page opens once it is made.

import { mountAccountBar } from "./account-bar.js";
import { $, showError } from "./dom.js";
import { localise, t } from "./i18n.js";
import { postJson } from "./api.js";
import { describe } from "./tournament-shared.js";

const POLL_MS = 5000;

localise();
mountAccountBar();

function drawList(id, tournaments) {
  const list = $(id);
  list.textContent = "";
  if (!tournaments.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("tour.none");
    list.appendChild(li);
    return;
  }
  for (const tournament of tournaments) {
    const li = document.createElement("li");
    li.dataset.tournament = tournament.id;
    const link = document.createElement("a");
    link.href = `/tournaments/${encodeURIComponent(tournament.id)}`;
    link.textContent = tournament.name;
    const info = document.createElement("span");
    info.className = "info";
    info.textContent = `${describe(tournament)} · ${t("tour.playersCount", { n: tournament.players })}`;
    li.append(link, info);
    list.appendChild(li);
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/tournaments");
    if (!response.ok) return;
    const answer = await response.json();
    $("guest-note").hidden = Boolean(answer.me);
    $("tour-form").hidden = !answer.me;
    drawList("running", answer.running);
    drawList("upcoming", answer.upcoming);
    drawList("finished", answer.finished);
  } catch {
    // A network blip: the next poll tries again.
  }
}

function syncForm() {
  const arena = $("tour-kind").value === "arena";
  $("rounds-field").hidden = arena;
  $("minutes-field").hidden = !arena;
  const at = $("tour-start-kind").value === "at";
  $("start-in-field").hidden = at;
  $("start-at-field").hidden = !at;
}

$("tour-kind").addEventListener("change", syncForm);
$("tour-start-kind").addEventListener("change", syncForm);

$("tour-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const [minutes, increment] = $("tour-clock").value.split("+").map(Number);
  const request = {
    name: $("tour-name").value,
    preset: $("tour-preset").value,
    minutes,
    increment,
    kind: $("tour-kind").value,
    rated: $("tour-rated").value === "true",
  };
  if (request.kind === "swiss") request.rounds = Number($("tour-rounds").value);
  else request.arena_minutes = Number($("tour-length").value);
  if ($("tour-start-kind").value === "at") {
    const at = new Date($("tour-start-at").value).getTime();
    if (Number.isNaN(at)) {
      showError("tour-error", t("tour.badStart"));
      return;
    }
    request.starts_at = at;
  } else {
    request.starts_in_minutes = Number($("tour-start-in").value);
  }
  $("create-tour").disabled = true;
  try {
    const answer = await postJson("/api/tournaments", request);
    location.href = answer.url;
  } catch (e) {
    showError("tour-error", e);
  } finally {
    $("create-tour").disabled = false;
  }
});

syncForm();
refresh();
setInterval(refresh, POLL_MS);
