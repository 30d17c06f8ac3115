// The Jungle board as SVG: terrain, animals, highlights, and click-or-drag moves. Shared by the game and
// replay pages. The board never decides legality: it offers only the moves the server listed.

const JUNGLE_ANIMALS = {
  e: { name: "Elephant", zh: "象", rank: 8 },
  l: { name: "Lion", zh: "獅", rank: 7 },
  t: { name: "Tiger", zh: "虎", rank: 6 },
  p: { name: "Leopard", zh: "豹", rank: 5 },
  d: { name: "Dog", zh: "狗", rank: 4 },
  w: { name: "Wolf", zh: "狼", rank: 3 },
  c: { name: "Cat", zh: "貓", rank: 2 },
  r: { name: "Rat", zh: "鼠", rank: 1 },
};
const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefg";
const WATER = ["b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"];
const TRAPS = { c1: "blue", e1: "blue", d2: "blue", c9: "red", e9: "red", d8: "red" };
const DENS = { d1: "blue", d9: "red" };

// Reads the placement and side to move of a FEN: { pieces: {a1: {side, animal}}, turn }.
function parseFen(fen) {
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

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

export class JungleBoard {
  // container: an element to fill; onMove(moveText) is called for a move the user made.
  constructor(container, onMove) {
    this.container = container;
    this.onMove = onMove;
    this.flipped = false;
    this.fen = null;
    this.legal = [];
    this.lastMove = null;
    this.terrain = "jungle";
    this.selected = null;
    this.drag = null;
    this.svg = svgEl("svg", { viewBox: "0 0 700 900", class: "board", role: "img", "aria-label": "Jungle board" });
    container.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
  }

  // Draws a position. legal: moves the user may make now ([] when not their turn).
  set(fen, { legal = [], lastMove = null, rules = "" } = {}) {
    this.fen = fen;
    this.position = parseFen(fen);
    this.legal = legal;
    this.lastMove = lastMove;
    this.terrain = /board=animal-checkers|^animal-checkers/.test(rules) ? "animal-checkers" : "jungle";
    if (this.selected && !this.targets(this.selected).length) this.selected = null;
    this.render();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this.render();
  }

  targets(from) {
    return this.legal.filter((m) => m.slice(0, 2) === from).map((m) => m.slice(2, 4));
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
    let file = Math.floor(p.x / 100);
    let row = Math.floor(p.y / 100);
    if (file < 0 || file > 6 || row < 0 || row > 8) return null;
    if (this.flipped) return FILES[6 - file] + (row + 1);
    return FILES[file] + (9 - row);
  }

  render() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const jungle = this.terrain === "jungle";
    const squares = svgEl("g", { class: "squares" }, svg);
    for (let rank = 1; rank <= 9; rank++) {
      for (let f = 0; f < 7; f++) {
        const sq = FILES[f] + rank;
        const [x, y] = this.xy(sq);
        let kind = "land";
        if (DENS[sq]) kind = "den";
        else if (jungle && WATER.includes(sq)) kind = "water";
        else if (jungle && TRAPS[sq]) kind = "trap";
        const shade = (f + rank) % 2 ? " light" : "";
        svgEl("rect", { x, y, width: 100, height: 100, class: `sq ${kind}${shade}` }, squares);
        if (kind === "water") {
          for (let i = 0; i < 2; i++) {
            svgEl("path", { d: `M${x + 14} ${y + 38 + i * 26} q 12 -9 24 0 t 24 0 t 24 0`, class: "wave" }, squares);
          }
        } else if (kind === "trap") {
          svgEl("rect", { x: x + 8, y: y + 8, width: 84, height: 84, class: `trap-mark ${TRAPS[sq]}` }, squares);
          const t = svgEl("text", { x: x + 50, y: y + 24, class: "terrain-label" }, squares);
          t.textContent = "陷阱";
        } else if (kind === "den") {
          svgEl("path", { d: `M${x + 20} ${y + 80} L${x + 50} ${y + 22} L${x + 80} ${y + 80} Z`, class: `den-mark ${DENS[sq]}` }, squares);
          const t = svgEl("text", { x: x + 50, y: y + 94, class: "terrain-label" }, squares);
          t.textContent = "獸穴";
        }
        if ((this.flipped ? rank === 9 : rank === 1)) {
          const t = svgEl("text", { x: x + 92, y: y + 94, class: "coord" }, squares);
          t.textContent = sq[0];
        }
        if ((this.flipped ? f === 6 : f === 0)) {
          const t = svgEl("text", { x: x + 5, y: y + 18, class: "coord rank" }, squares);
          t.textContent = String(rank);
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
    if (this.selected) {
      const [x, y] = this.xy(this.selected);
      svgEl("rect", { x: x + 3, y: y + 3, width: 94, height: 94, class: "selected" }, marks);
    }
    const pieces = svgEl("g", { class: "pieces" }, svg);
    this.pieceEls = {};
    for (const [sq, piece] of Object.entries(this.position.pieces)) {
      this.pieceEls[sq] = this.drawPiece(pieces, sq, piece);
    }
    const hints = svgEl("g", { class: "hints" }, svg);
    if (this.selected) {
      for (const to of this.targets(this.selected)) {
        const [x, y] = this.xy(to);
        const capture = Boolean(this.position.pieces[to]);
        svgEl("circle", { cx: x + 50, cy: y + 50, r: capture ? 44 : 15, class: capture ? "target capture" : "target", "data-target": to }, hints);
      }
    }
    // Transparent squares on top take every pointer event, so a click anywhere in a square counts.
    const hits = svgEl("g", { class: "hits" }, svg);
    for (let rank = 1; rank <= 9; rank++) {
      for (let f = 0; f < 7; f++) {
        const sq = FILES[f] + rank;
        const [x, y] = this.xy(sq);
        const piece = this.position.pieces[sq];
        const attrs = { x, y, width: 100, height: 100, class: "hit", "data-square": sq };
        if (piece) attrs["data-piece"] = piece.side + "-" + JUNGLE_ANIMALS[piece.animal].name.toLowerCase();
        if (this.targets(sq).length) attrs["data-movable"] = "true";
        svgEl("rect", attrs, hits);
      }
    }
  }

  drawPiece(parent, sq, piece) {
    const [x, y] = this.xy(sq);
    const info = JUNGLE_ANIMALS[piece.animal];
    const g = svgEl("g", { class: `piece ${piece.side}`, transform: `translate(${x + 50} ${y + 50})` }, parent);
    svgEl("circle", { r: 42, class: "disc" }, g);
    svgEl("circle", { r: 36, class: "ring" }, g);
    const zh = svgEl("text", { y: 10, class: "zh" }, g);
    zh.textContent = info.zh;
    const name = svgEl("text", { y: 31, class: "name" }, g);
    name.textContent = info.name;
    const rank = svgEl("text", { x: 0, y: -22, class: "rank" }, g);
    rank.textContent = String(info.rank);
    return g;
  }

  pointerDown(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    if (this.selected && this.targets(this.selected).includes(sq)) {
      this.play(this.selected + sq);
      return;
    }
    if (this.targets(sq).length) {
      this.selected = sq;
      this.render();
      this.drag = { from: sq, id: e.pointerId, moved: false, x: e.clientX, y: e.clientY };
      try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.render();
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
    // onMove answers whether the move was sent; a move that was not is never shown as made.
    if (this.onMove(move) === false) {
      this.render();
      return;
    }
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
