// The puzzle streak (/puzzles/streak): puzzles one after another until the first mistake, each at least as
// hard as the one before (the server picks it from the ids seen so far). The best streak is kept in the
// browser, so it survives reloads and works for guests.

const BEST_KEY = "jungle-puzzle-streak-best";

function storedBest() {
  try {
    const best = Number(localStorage.getItem(BEST_KEY));
    return Number.isInteger(best) && best > 0 ? best : 0;
  } catch {
    return 0; // storage blocked: the best streak lasts as long as the page
  }
}

export class Streak {
  constructor() {
    this.seen = []; // the ids of this streak's puzzles, oldest first
    this.count = 0; // puzzles solved in a row
    this.best = storedBest();
    this.over = false;
  }

  /** The API address of the next puzzle of the streak. */
  nextUrl() {
    return `/api/puzzles/streak?${new URLSearchParams({ seen: this.seen.join(",") })}`;
  }

  shown(id) {
    this.seen.push(id);
  }

  solved() {
    this.count += 1;
    if (this.count > this.best) {
      this.best = this.count;
      try { localStorage.setItem(BEST_KEY, String(this.best)); } catch { /* storage blocked */ }
    }
  }

  failed() {
    this.over = true;
  }

  restart() {
    this.seen = [];
    this.count = 0;
    this.over = false;
  }
}
