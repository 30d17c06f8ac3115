// The evaluation graph of a whole game: Blue's advantage after each move as an area over the middle line,
// mistakes and blunders as dots, the shown position as a vertical line; clicking picks a position.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 90;

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

/**
 * Draws `graph` (the server's /evaluations answer) into the <svg> `svg`, marking position `ply`;
 * `onPick(ply)` is called when the user clicks a position.
 */
export function drawGraph(svg, graph, ply, onPick) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const points = graph.points;
  const clamp = 1000;
  const last = Math.max(1, points.length - 1);
  const x = (i) => (i / last) * WIDTH;
  // A score that is not there (the game is over on the board) keeps the previous value.
  let previous = 0;
  const values = points.map((p) => (previous = p.value ?? previous));
  const y = (v) => HEIGHT / 2 - (v / clamp) * (HEIGHT / 2 - 4);
  el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "graph-bg" }, svg);
  const area = [`0,${HEIGHT / 2}`, ...values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`), `${x(last).toFixed(1)},${HEIGHT / 2}`];
  el("polygon", { points: area.join(" "), class: "graph-area" }, svg);
  el("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "graph-mid" }, svg);
  el("line", { x1: x(ply), y1: 0, x2: x(ply), y2: HEIGHT, class: "graph-now" }, svg);
  for (const m of graph.mistakes) {
    // A mistake is the move from position m.ply to m.ply + 1: its dot is on the position it led to.
    const at = m.ply + 1;
    if (at >= points.length) continue;
    const dot = el("circle", { cx: x(at), cy: y(values[at]), r: 4, class: `graph-${m.kind}`, "data-ply": at }, svg);
    const title = el("title", {}, dot);
    title.textContent = `${m.mv}: ${t(`replay.${m.kind}`)} (−${(m.drop / 100).toFixed(2)})`;
  }
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    const at = Math.round(((event.clientX - box.left) / box.width) * last);
    onPick(Math.max(0, Math.min(last, at)));
  };
}
