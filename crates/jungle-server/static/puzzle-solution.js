// A puzzle's solution stepped through on the board, after the attempt: first / back / forward / last (buttons,
// or ← → Home End), the move shown drawn as an arrow and the last-move highlight, and the line listed in the
// animal notation of the game page (Ea3-a4, Rg6xg7), each move clickable.

import { ArrowLayer } from "./analysis.js";
import { positionAfter } from "./board.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { fillMoveList } from "./moves.js";

export class SolutionViewer {
  constructor(board, host) {
    this.board = board;
    this.arrow = new ArrowLayer(board, host);
    this.line = null; // { fen, moves, animal } while shown
    this.ply = 0;
    $("solution-first").addEventListener("click", () => this.go(0));
    $("solution-prev").addEventListener("click", () => this.go(this.ply - 1));
    $("solution-next").addEventListener("click", () => this.go(this.ply + 1));
    $("solution-last").addEventListener("click", () => this.go(Infinity));
    document.addEventListener("keydown", (e) => {
      // The board's squares use the arrows to move the keyboard's cursor.
      if (!this.line || (e.target.closest && e.target.closest(".board"))) return;
      const steps = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: Infinity };
      if (e.key in steps) {
        e.preventDefault();
        this.go(steps[e.key]);
      }
    });
  }

  /** Shows the solution `moves` (coordinates) written `animal`, from `fen`, at its first move. */
  show(fen, moves, animal) {
    this.line = { fen, moves, animal };
    $("solution-nav").hidden = false;
    $("solution").hidden = false;
    this.go(1);
  }

  hide() {
    this.line = null;
    this.arrow.show(null);
    $("solution-nav").hidden = true;
    $("solution").hidden = true;
  }

  go(ply) {
    const { fen, moves, animal } = this.line;
    this.ply = Math.max(0, Math.min(moves.length, ply));
    const last = this.ply ? moves[this.ply - 1] : null;
    this.board.set(positionAfter(fen, moves, this.ply), { legal: [], lastMove: last });
    this.arrow.show(last);
    $("solution-ply").textContent = this.ply
      ? t("puzzle.solutionAt", { n: this.ply, of: moves.length, move: animal[this.ply - 1] })
      : t("puzzle.solutionStart", { of: moves.length });
    fillMoveList($("solution"), animal, fen, (span, half) => {
      span.dataset.ply = String(half.ply + 1);
      span.tabIndex = 0;
      span.setAttribute("role", "button");
      if (half.ply + 1 === this.ply) {
        span.classList.add("current");
        span.setAttribute("aria-current", "step");
      }
      span.addEventListener("click", () => this.go(half.ply + 1));
      span.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.go(half.ply + 1);
        }
      });
    });
  }
}
