// The engine running on the shown position: a socket to /ws/analysis that follows the page's position, and
// the views of its reports — the evaluation bar, the best-move arrow over the board, the score and the line.

import { t } from "./i18n.js";
import { ANALYSIS_SILENT_MS, abandon, keepAlive, reconnectDelay } from "./liveness.js";

// Steps faster than this are not analysed one by one: only the position the user stops at.
const SETTLE_MS = 150;

/**
 * A continuous analysis. `onReport(message)` gets every report about the position last shown (`info` after
 * each depth, `done` when the server's time for it is up); `onError(text)` a refusal.
 */
export class LiveAnalysis {
  constructor(onReport, onError) {
    this.onReport = onReport;
    this.onError = onError;
    this.socket = null;
    this.wanted = null; // { fen, rules } while on
    this.timer = null;
    this.retries = 0;
  }

  /** Analyses this position (replacing the previous one) once the user settles on it. */
  show(fen, rules) {
    const same = this.wanted && this.wanted.fen === fen && this.wanted.rules === rules;
    if (same && this.socket) return; // already being analysed
    this.wanted = { fen, rules };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(), SETTLE_MS);
  }

  /** Stops the engine and closes the socket. */
  stop() {
    this.wanted = null;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  send() {
    if (!this.wanted) return;
    if (!this.socket || this.socket.readyState > WebSocket.OPEN) this.connect();
    if (this.socket.readyState !== WebSocket.OPEN) return; // sent on open
    this.socket.send(JSON.stringify({ type: "analyse", fen: this.wanted.fen, rules: this.wanted.rules }));
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/analysis`);
    this.socket = socket;
    let life = null;
    socket.onopen = () => {
      this.retries = 0;
      life = keepAlive(socket, () => abandon(socket), ANALYSIS_SILENT_MS);
      this.send();
    };
    socket.onmessage = (event) => {
      life.heard();
      const message = JSON.parse(event.data);
      if (message.type === "error") this.onError(message.message);
      else if ((message.type === "info" || message.type === "done") && this.wanted && sameBoard(message.fen, this.wanted.fen)) {
        this.onReport(message);
      }
    };
    socket.onclose = () => {
      if (life) life.stop();
      if (this.socket !== socket || !this.wanted) return;
      this.socket = null;
      setTimeout(() => this.send(), reconnectDelay(this.retries++));
    };
  }
}

// The server sends back its canonical FEN; placement and side decide whether a report is about our position.
function sameBoard(a, b) {
  const key = (fen) => fen.trim().split(/\s+/).slice(0, 2).join(" ");
  return key(a) === key(b);
}

/** "+1.25", "−0.40", "Blue wins in 3", or "" when there is no score (the game is over). */
export function scoreText(info) {
  if (info.mate_plies !== null && info.mate_plies !== undefined) {
    const side = t(info.mate_plies > 0 ? "side.blue" : "side.red");
    return t("replay.winsIn", { side, plies: Math.abs(info.mate_plies) });
  }
  if (info.score_cp === null || info.score_cp === undefined) return "";
  const value = (Math.abs(info.score_cp) / 100).toFixed(2);
  return `${info.score_cp >= 0 ? "+" : "−"}${value}`;
}

/** Blue's share of the evaluation bar, 0…1: a forced win fills it, 2 Cats (≈ 4.00) fill most of it. */
export function blueShare(info) {
  if (info.mate_plies !== null && info.mate_plies !== undefined) return info.mate_plies > 0 ? 1 : 0;
  if (info.score_cp === null || info.score_cp === undefined) return 0.5;
  return 1 / (1 + Math.exp(-info.score_cp / 250));
}

/** Fills the evaluation bar `bar` (its `.eval-fill` child is Blue's part, from the bottom unless flipped). */
export function drawEvalBar(bar, info, flipped) {
  const fill = bar.querySelector(".eval-fill");
  const share = info ? blueShare(info) : 0.5;
  fill.style.height = `${(share * 100).toFixed(1)}%`;
  bar.classList.toggle("flipped", flipped);
  bar.title = info ? scoreText(info) : "";
  bar.querySelector(".eval-text").textContent = info ? scoreText(info) : "";
  bar.dataset.share = share.toFixed(3);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The best-move arrow: an SVG laid over the board's (same 700×900 view box), not taking pointer events, drawn
 * with the board's own square positions so it follows a flip.
 */
export class ArrowLayer {
  constructor(board, host) {
    this.board = board;
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("viewBox", "0 0 700 900");
    this.svg.setAttribute("class", "arrow-layer");
    this.svg.setAttribute("aria-hidden", "true");
    host.appendChild(this.svg);
  }

  /** Draws `move` (coordinates, e.g. "a3a4"), or nothing for null. */
  show(move) {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.dataset.move = move || "";
    if (!move) return;
    const centre = (sq) => this.board.xy(sq).map((v) => v + 50);
    const [x1, y1] = centre(move.slice(0, 2));
    const [x2, y2] = centre(move.slice(2, 4));
    const length = Math.hypot(x2 - x1, y2 - y1);
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    // The shaft stops where the head begins; the head's tip sits a little inside the target square.
    const tip = [x2 - ux * 12, y2 - uy * 12];
    const base = [tip[0] - ux * 38, tip[1] - uy * 38];
    const shaft = document.createElementNS(SVG_NS, "line");
    for (const [k, v] of Object.entries({ x1: x1 + ux * 20, y1: y1 + uy * 20, x2: base[0], y2: base[1] })) {
      shaft.setAttribute(k, v.toFixed(1));
    }
    shaft.setAttribute("class", "arrow-shaft");
    svg.appendChild(shaft);
    const head = document.createElementNS(SVG_NS, "polygon");
    const side = (sign) => [base[0] + sign * uy * 26, base[1] - sign * ux * 26];
    head.setAttribute("points", [tip, side(1), side(-1)].map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "));
    head.setAttribute("class", "arrow-head");
    svg.appendChild(head);
  }
}
