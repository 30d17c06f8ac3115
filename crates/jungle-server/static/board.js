// The Jungle board as SVG: terrain, animals, highlights, and moves by click, drag or keyboard. Shared by the
// game and replay pages. The board never decides legality: it offers only the moves the server listed, and
// draws the ranks and terrain the server's rules sent (the `board` of the state).

import { hanzi, t } from "./i18n.js";

const CHARACTERS = { e: "象", l: "獅", t: "虎", p: "豹", d: "狗", w: "狼", c: "貓", r: "鼠" };

/** How a piece of `animal` (a letter, `e` … `r`) is labelled: its character, in the page's script, and its
 * name in the interface's language (the same as the character in Chinese). */
export function pieceFace(animal) {
  return { character: hanzi(CHARACTERS[animal]), name: t(`animal.${animal}`) };
}
// Language-independent names for data-piece (read by tests and styles). `x` is a Hidden Jungle piece whose
// animal the viewer does not know (X/x in a view FEN): it is drawn face down.
const IDS = { e: "elephant", l: "lion", t: "tiger", p: "leopard", d: "dog", w: "wolf", c: "cat", r: "rat", x: "unknown" };
const UNKNOWN = "x";
const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefg";
// The classic terrain, for a position drawn without the server's description of the board.
const CLASSIC_BOARD = {
  ranks: {},
  water: ["b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"],
  traps: { blue: ["c1", "e1", "d2"], red: ["c9", "e9", "d8"] },
  dens: { blue: "d1", red: "d9" },
};
const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

// Reads the placement and side to move of a FEN: { pieces: {a1: {side, animal}}, turn }.
export function parseFen(fen) {
  const [placement, turn] = fen.trim().split(/\s+/);
  const pieces = {};
  placement.split("/").forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) {
        file += Number(ch);
      } else {
        const side = ch === ch.toUpperCase() ? "blue" : "red";
        pieces[FILES[file] + rank] = { side, animal: ch.toLowerCase() };
        file += 1;
      }
    }
  });
  return { pieces, turn: turn === "b" ? "red" : "blue" };
}

/** The position (placement and side to move, as a FEN) after the first `count` of `moves` from `startFen`. */
export function positionAfter(startFen, moves, count) {
  const { pieces, turn } = parseFen(startFen);
  let side = turn;
  for (const move of moves.slice(0, count)) {
    pieces[move.slice(2, 4)] = pieces[move.slice(0, 2)];
    delete pieces[move.slice(0, 2)];
    side = side === "blue" ? "red" : "blue";
  }
  return `${placement(pieces)} ${side === "blue" ? "w" : "b"}`;
}

/** The placement field of a FEN from pieces by square ({a1: {side, animal}}), the inverse of parseFen's. */
export function placement(pieces) {
  const rows = [];
  for (let rank = 9; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (const file of FILES) {
      const piece = pieces[file + rank];
      if (!piece) { empty += 1; continue; }
      if (empty) row += empty;
      empty = 0;
      row += piece.side === "blue" ? piece.animal.toUpperCase() : piece.animal;
    }
    rows.push(empty ? row + empty : row);
  }
  return rows.join("/");
}

/** "Blue Lion", in the interface's language. */
export function pieceName(piece) {
  return `${t(`side.${piece.side}`)} ${t(`animal.${piece.animal}`)}`.trim();
}

/** A move in words, for screen readers: "Blue Lion d7 takes Red Rat on d6". fen: the position before it. */
export function describeMove(fen, move) {
  const { pieces } = parseFen(fen);
  const [from, to] = [move.slice(0, 2), move.slice(2, 4)];
  const mover = pieces[from];
  if (!mover) return move;
  const words = { side: t(`side.${mover.side}`), animal: t(`animal.${mover.animal}`), from, to };
  const victim = pieces[to];
  return victim ? t("move.takes", { ...words, victim: pieceName(victim) }) : t("move.said", words);
}

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

export class JungleBoard {
  // container: an element to fill; onMove(moveText) is called for a move the user made and answers whether
  // it was sent (false: the board shows the position unchanged).
  // onPremove(moveText), when set, receives a move picked from the premoves offered while waiting.
  constructor(container, onMove) {
    this.container = container;
    this.onMove = onMove;
    this.onPremove = null;
    this.premoves = [];
    this.queued = null;
    this.flipped = false;
    this.fen = null;
    this.legal = [];
    this.lastMove = null;
    this.classes = {};
    this.layout = CLASSIC_BOARD;
    this.selected = null;
    this.cursor = null; // the square keyboard focus is on
    this.drag = null;
    this.svg = svgEl("svg", { viewBox: "0 0 700 900", class: "board", role: "group" });
    container.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("keydown", (e) => this.keyDown(e));
  }

  // Draws a position. legal: moves the user may make now ([] when not their turn). board: the rules' ranks
  // and terrain from the server (the classic terrain without ranks when absent).
  // premoves: moves that may be queued now (while the opponent thinks); queued: the one that is.
  // classes: extra class names for the pieces on some squares ({c4: "revealing"}), for pages that mark pieces.
  set(fen, { legal = [], lastMove = null, board = null, premoves = [], queued = null, classes = {} } = {}) {
    this.fen = fen;
    this.classes = classes;
    this.position = parseFen(fen);
    this.legal = legal;
    this.premoves = premoves;
    this.queued = queued;
    this.lastMove = lastMove;
    this.layout = board || CLASSIC_BOARD;
    if (this.selected && !this.targets(this.selected).length) this.selected = null;
    this.render();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    // Before the first position there is nothing to draw (set draws it the right way up).
    if (this.position) this.render();
  }

  // The moves a click may make now: the legal ones on the player's turn, else the premoves.
  offered() {
    return this.legal.length ? this.legal : this.premoves;
  }

  targets(from) {
    return this.offered().filter((m) => m.slice(0, 2) === from).map((m) => m.slice(2, 4));
  }

  xy(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square.slice(1));
    return this.flipped ? [(6 - file) * 100, (rank - 1) * 100] : [file * 100, (9 - rank) * 100];
  }

  squareAt(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = pt.matrixTransform(ctm.inverse());
    const file = Math.floor(p.x / 100);
    const row = Math.floor(p.y / 100);
    return this.squareAtCell(file, row);
  }

  // The square drawn in column `file`, row `row` (0-based from the top left of the picture).
  squareAtCell(file, row) {
    if (file < 0 || file > 6 || row < 0 || row > 8) return null;
    if (this.flipped) return FILES[6 - file] + (row + 1);
    return FILES[file] + (9 - row);
  }

  terrainOf(sq) {
    const { water, traps, dens } = this.layout;
    for (const side of ["blue", "red"]) {
      if (dens[side] === sq) return { kind: "den", side };
      if (traps[side].includes(sq)) return { kind: "trap", side };
    }
    return { kind: water.includes(sq) ? "water" : "land" };
  }

  render() {
    const svg = this.svg;
    const hadFocus = svg.contains(document.activeElement);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("aria-label", t("board.label"));
    const squares = svgEl("g", { class: "squares" }, svg);
    for (let rank = 1; rank <= 9; rank++) {
      for (let f = 0; f < 7; f++) {
        const sq = FILES[f] + rank;
        const [x, y] = this.xy(sq);
        const terrain = this.terrainOf(sq);
        const shade = (f + rank) % 2 ? " light" : "";
        svgEl("rect", { x, y, width: 100, height: 100, class: `sq ${terrain.kind}${shade}` }, squares);
        if (terrain.kind === "water") {
          for (let i = 0; i < 2; i++) {
            svgEl("path", { d: `M${x + 14} ${y + 38 + i * 26} q 12 -9 24 0 t 24 0 t 24 0`, class: "wave" }, squares);
          }
        } else if (terrain.kind === "trap") {
          svgEl("rect", { x: x + 8, y: y + 8, width: 84, height: 84, class: `trap-mark ${terrain.side}` }, squares);
          const label = svgEl("text", { x: x + 50, y: y + 27, class: "terrain-label" }, squares);
          label.textContent = "陷阱";
        } else if (terrain.kind === "den") {
          svgEl("path", { d: `M${x + 22} ${y + 86} L${x + 50} ${y + 34} L${x + 78} ${y + 86} Z`, class: `den-mark ${terrain.side}` }, squares);
          // At the top of the square: the file letter has the bottom right corner.
          const label = svgEl("text", { x: x + 50, y: y + 27, class: "terrain-label" }, squares);
          label.textContent = hanzi("獸穴");
        }
      }
    }
    const marks = svgEl("g", { class: "marks" }, svg);
    if (this.lastMove) {
      for (const sq of [this.lastMove.slice(0, 2), this.lastMove.slice(2, 4)]) {
        const [x, y] = this.xy(sq);
        svgEl("rect", { x, y, width: 100, height: 100, class: "last-move" }, marks);
      }
    }
    if (this.queued) {
      for (const sq of [this.queued.slice(0, 2), this.queued.slice(2, 4)]) {
        const [x, y] = this.xy(sq);
        svgEl("rect", { x, y, width: 100, height: 100, class: "premove" }, marks);
      }
    }
    if (this.selected) {
      const [x, y] = this.xy(this.selected);
      svgEl("rect", { x: x + 3, y: y + 3, width: 94, height: 94, class: "selected" }, marks);
    }
    const pieces = svgEl("g", { class: "pieces" }, svg);
    this.pieceEls = {};
    for (const [sq, piece] of Object.entries(this.position.pieces)) {
      this.pieceEls[sq] = this.drawPiece(pieces, sq, piece);
    }
    // Coordinates above the pieces (with a halo), so a piece in a corner never hides them.
    const coords = svgEl("g", { class: "coords" }, svg);
    for (let f = 0; f < 7; f++) {
      const [x, y] = this.xy(FILES[f] + (this.flipped ? 9 : 1));
      svgEl("text", { x: x + 96, y: y + 95, class: "coord" }, coords).textContent = FILES[f];
    }
    for (let rank = 1; rank <= 9; rank++) {
      const [x, y] = this.xy((this.flipped ? "g" : "a") + rank);
      svgEl("text", { x: x + 4, y: y + 21, class: "coord rank" }, coords).textContent = String(rank);
    }
    const hints = svgEl("g", { class: "hints" }, svg);
    if (this.selected) {
      for (const to of this.targets(this.selected)) {
        const [x, y] = this.xy(to);
        const capture = Boolean(this.position.pieces[to]);
        svgEl("circle", { cx: x + 50, cy: y + 50, r: capture ? 44 : 15, class: capture ? "target capture" : "target", "data-target": to }, hints);
      }
    }
    // Transparent squares on top take every pointer event (a click anywhere in a square counts) and the
    // keyboard focus: one square is in the tab order, the arrows move between them.
    const hits = svgEl("g", { class: "hits" }, svg);
    if (!this.cursor) this.cursor = this.flipped ? "d9" : "d1";
    const selectedTargets = this.selected ? this.targets(this.selected) : [];
    for (let rank = 1; rank <= 9; rank++) {
      for (let f = 0; f < 7; f++) {
        const sq = FILES[f] + rank;
        const [x, y] = this.xy(sq);
        const piece = this.position.pieces[sq];
        let label = piece ? t("square.piece", { side: t(`side.${piece.side}`), animal: t(`animal.${piece.animal}`), square: sq })
          : t("square.empty", { square: sq });
        if (sq === this.selected) label += `, ${t("square.selected")}`;
        if (selectedTargets.includes(sq)) label += `, ${t("square.target")}`;
        const attrs = {
          x, y, width: 100, height: 100, class: "hit", "data-square": sq,
          role: "button", "aria-label": label, tabindex: sq === this.cursor ? "0" : "-1",
        };
        if (piece) attrs["data-piece"] = `${piece.side}-${IDS[piece.animal]}`;
        if (this.targets(sq).length) attrs["data-movable"] = "true";
        svgEl("rect", attrs, hits);
      }
    }
    if (hadFocus) this.focusCursor();
  }

  drawPiece(parent, sq, piece) {
    const [x, y] = this.xy(sq);
    const extra = this.classes[sq] ? ` ${this.classes[sq]}` : "";
    const hidden = piece.animal === UNKNOWN;
    const g = svgEl("g", { class: `piece ${piece.side}${hidden ? " face-down" : ""}${extra}`, "data-animal": piece.animal, transform: `translate(${x + 50} ${y + 50})` }, parent);
    // The face is a group of its own, so a page may turn it over (a reveal) without moving the piece.
    const face = svgEl("g", { class: "face" }, g);
    // The sides differ in shape as well as colour: Blue's pieces are round, Red's are square.
    if (piece.side === "blue") svgEl("circle", { r: 43, class: "disc" }, face);
    else svgEl("rect", { x: -41, y: -41, width: 82, height: 82, rx: 14, class: "disc" }, face);
    svgEl(piece.side === "blue" ? "circle" : "rect",
      piece.side === "blue" ? { r: 36, class: "ring" } : { x: -35, y: -35, width: 70, height: 70, rx: 10, class: "ring" }, face);
    if (hidden) {
      // Face down: the side's colour and shape, a plain back, nothing of the animal.
      svgEl("text", { y: 14, class: "back" }, face).textContent = "?";
      return g;
    }
    const { character, name } = pieceFace(piece.animal);
    const named = name !== character;
    // With a name under it the character moves up and shrinks a little, so the name sits where the disc is
    // wide: at the disc's lower edge "Elephant" and "Leopard" ran past it (tests/it/piece_labels.rs measures).
    svgEl("text", { y: named ? -4 : 6, class: named ? "zh over-name" : "zh" }, face).textContent = character;
    if (named) {
      const attrs = { y: 22, class: "name" };
      // Long names are fitted to the disc rather than shrunk below a readable size.
      if (name.length > 5) Object.assign(attrs, { textLength: 70, lengthAdjust: "spacingAndGlyphs" });
      svgEl("text", attrs, face).textContent = name;
    }
    const rank = this.layout.ranks[piece.animal];
    if (rank !== undefined) {
      // The rank in a badge at the top right corner, clear of the character.
      svgEl("circle", { cx: 31, cy: -31, r: 15, class: "badge" }, face);
      svgEl("text", { x: 31, y: -23.5, class: "rank" }, face).textContent = String(rank);
    }
    return g;
  }

  focusCursor() {
    const el = this.svg.querySelector(`[data-square='${this.cursor}']`);
    if (el) el.focus();
  }

  keyDown(e) {
    const sq = e.target.dataset && e.target.dataset.square;
    if (!sq) return;
    if (ARROWS[e.key]) {
      e.preventDefault();
      const [dx, dy] = ARROWS[e.key];
      const [x, y] = this.xy(sq);
      const next = this.squareAtCell(x / 100 + dx, y / 100 + dy);
      if (next) this.moveCursor(next);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.cursor = sq;
      this.activate(sq);
    } else if (e.key === "Escape" && this.selected) {
      this.selected = null;
      this.render();
    } else if (e.key === "Escape" && this.queued && this.onPremove) {
      this.onPremove(null);
    }
  }

  moveCursor(sq) {
    const old = this.svg.querySelector(`[data-square='${this.cursor}']`);
    if (old) old.setAttribute("tabindex", "-1");
    this.cursor = sq;
    const el = this.svg.querySelector(`[data-square='${sq}']`);
    el.setAttribute("tabindex", "0");
    el.focus();
  }

  // A click or Enter on a square: pick a piece, play to a target, or drop the selection. Answers whether a
  // piece was picked (a drag may follow).
  activate(sq) {
    if (this.selected && this.targets(this.selected).includes(sq)) {
      this.play(this.selected + sq);
      return false;
    }
    if (this.targets(sq).length) {
      this.selected = sq;
      this.render();
      return true;
    }
    if (this.selected) {
      this.selected = null;
      this.render();
    } else if (this.queued && this.onPremove) {
      this.onPremove(null); // a click elsewhere cancels the queued move
    }
    return false;
  }

  pointerDown(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    if (this.activate(sq)) {
      this.drag = { from: sq, id: e.pointerId, moved: false, x: e.clientX, y: e.clientY };
      try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
    }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    d.moved = true;
    const el = this.pieceEls[d.from];
    if (!el) return;
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    el.setAttribute("transform", `translate(${p.x} ${p.y}) scale(1.1)`);
    el.classList.add("dragging");
    el.parentNode.appendChild(el);
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (!d.moved) return; // a click: the piece stays selected, the next click picks the target
    const to = this.squareAt(e.clientX, e.clientY);
    if (to && this.targets(d.from).includes(to)) {
      this.play(d.from + to);
    } else {
      this.render();
    }
  }

  cancelDrag() {
    this.drag = null;
    this.render();
  }

  play(move) {
    this.selected = null;
    if (!this.legal.includes(move)) {
      // Not the player's turn: the move is queued, not shown as made.
      if (this.onPremove) this.onPremove(move);
      this.render();
      return;
    }
    // onMove answers whether the move was sent; a move that was not is never shown as made.
    const shown = this.fen;
    if (this.onMove(move) === false) {
      this.render();
      return;
    }
    // The page drew a position itself meanwhile: the piece is no longer on the origin square to move.
    if (this.fen !== shown) return;
    // Show the move at once; the server's state (moments later) confirms or restores the position.
    const p = this.position.pieces;
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    p[to] = p[from];
    delete p[from];
    this.legal = [];
    this.lastMove = move;
    this.render();
  }
}
