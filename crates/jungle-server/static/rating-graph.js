// A player's rating history as an SVG line graph: one line per speed category, a point per rated game,
// the rating on the vertical axis and the date on the horizontal one, each with labelled ticks.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const WIDTH = 560;
const HEIGHT = 240;
const MARGIN = { left: 44, right: 12, top: 10, bottom: 26 };

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

// About `count` round steps between lo and hi (1, 2 or 5 times a power of ten).
function ticks(lo, hi, count) {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

function day(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Draws `history` (the profile's points: {category, at, rating_after, …}, oldest first) into the <svg>
 * `svg`; returns the categories drawn, in order.
 */
export function drawRatingGraph(svg, history) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  if (!history.length) {
    const empty = el("text", { x: WIDTH / 2, y: HEIGHT / 2, "text-anchor": "middle", class: "tick" }, svg);
    empty.textContent = t("profile.noHistory");
    return [];
  }
  const ratings = history.map((p) => p.rating_after);
  const times = history.map((p) => p.at);
  // Some room above and below, and at least 100 points of range so one game does not fill the height.
  let lo = Math.min(...ratings) - 20;
  let hi = Math.max(...ratings) + 20;
  if (hi - lo < 100) { const mid = (hi + lo) / 2; lo = mid - 50; hi = mid + 50; }
  let first = Math.min(...times);
  let last = Math.max(...times);
  if (last === first) { first -= 43200000; last += 43200000; }
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (ms) => MARGIN.left + ((ms - first) / (last - first)) * plotW;
  const y = (r) => MARGIN.top + (1 - (r - lo) / (hi - lo)) * plotH;

  // The axes, with the rating's and the date's ticks.
  for (const r of ticks(lo, hi, 5)) {
    el("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(r), y2: y(r), class: "grid" }, svg);
    const label = el("text", { x: MARGIN.left - 4, y: y(r) + 4, "text-anchor": "end", class: "tick y-tick" }, svg);
    label.textContent = String(Math.round(r));
  }
  // The first day, the middle and the last, each day once: games of a single day get one date, in the middle
  // (the time axis is widened around them, so its ends would otherwise repeat that day or name the next).
  const oneDay = day(Math.min(...times)) === day(Math.max(...times));
  const dateTicks = oneDay
    ? [[(first + last) / 2, "middle"]]
    : [[first, "start"], [(first + last) / 2, "middle"], [last, "end"]];
  const shownDays = new Set();
  for (const [ms, anchor] of dateTicks) {
    if (shownDays.has(day(ms))) continue;
    shownDays.add(day(ms));
    const label = el("text", { x: x(ms), y: HEIGHT - 8, "text-anchor": anchor, class: "tick x-tick" }, svg);
    label.textContent = day(ms);
  }
  el("line", { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom, class: "axis" }, svg);
  el("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom, class: "axis" }, svg);

  // One line per category, a point per game.
  const categories = [...new Set(history.map((p) => p.category))];
  for (const category of categories) {
    const points = history.filter((p) => p.category === category);
    const path = points.map((p) => `${x(p.at).toFixed(1)},${y(p.rating_after).toFixed(1)}`).join(" ");
    el("polyline", { points: path, class: `line c-${category}` }, svg);
    for (const p of points) {
      const dot = el("circle", {
        cx: x(p.at).toFixed(1), cy: y(p.rating_after).toFixed(1), r: 3.5,
        class: `point c-${category}`, "data-rating": Math.round(p.rating_after), "data-game": p.game_id,
      }, svg);
      const title = el("title", {}, dot);
      title.textContent = `${t(`category.${category}`)} ${Math.round(p.rating_after)} · ${day(p.at)}`;
    }
  }
  return categories;
}
