// The opening explorer's panel (docs/server.md, "Opening explorer"): the moves played from the position a
// page shows, in the games between people the server stores (or, chosen in the panel, in the engine self-play
// collection shipped with it), each with its count, how the games went on (Blue's wins, draws, Red's wins)
// and their average rating. A click on a move shows the position after it
// and the moves played from there, deeper and deeper; "back" returns to the page's own position.

import { t } from "./i18n.js";

// The panel's source is remembered across pages.
const SOURCE_KEY = "jungle-explorer-source";
const SOURCES = ["games", "selfplay"];

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

export class OpeningExplorer {
  // `container`: an empty element the panel fills. `onPosition(fen, move)`: show a position the explorer went
  // to (`move`: the move that led there), or, with `fen` null, the page's own position again.
  constructor(container, onPosition) {
    this.container = container;
    this.onPosition = onPosition;
    this.base = null; // the page's position: { fen, rules }
    this.line = []; // the moves clicked since: [{ move, fen }]
    this.asked = null; // the newest request: older answers are dropped
    container.classList.add("opening-explorer");
    container.appendChild(el("h2", "", t("explorer.title")));
    this.source = el("select", "explorer-source");
    this.source.setAttribute("aria-label", t("explorer.source"));
    for (const source of SOURCES) {
      const option = el("option", "", t(`explorer.source.${source}`));
      option.value = source;
      this.source.appendChild(option);
    }
    const remembered = localStorage.getItem(SOURCE_KEY);
    this.source.value = SOURCES.includes(remembered) ? remembered : "games";
    this.source.addEventListener("change", () => {
      localStorage.setItem(SOURCE_KEY, this.source.value);
      if (this.base) this.load();
    });
    container.appendChild(this.source);
    this.lineRow = el("div", "explorer-line");
    this.lineText = el("span");
    const back = el("button", "", t("explorer.back"));
    back.type = "button";
    back.addEventListener("click", () => this.onPosition(null, null));
    this.lineRow.append(this.lineText, back);
    this.lineRow.hidden = true;
    this.table = el("table");
    const head = el("tr");
    for (const key of ["explorer.move", "explorer.games", "explorer.score", "explorer.rating"]) head.appendChild(el("th", "", t(key)));
    this.table.appendChild(el("thead")).appendChild(head);
    this.body = this.table.appendChild(el("tbody"));
    this.note = el("p", "explorer-empty");
    container.append(this.lineRow, this.table, this.note);
  }

  // Follows the page's position: the explorer shows its moves (leaving any line it had gone down).
  follow(fen, rules) {
    const same = this.base && this.base.fen === fen && this.base.rules === rules;
    this.base = { fen, rules };
    if (same && this.line.length === 0) return;
    this.line = [];
    this.load();
  }

  shownFen() {
    return this.line.length ? this.line[this.line.length - 1].fen : this.base.fen;
  }

  async load() {
    const query = new URLSearchParams({ rules: this.base.rules, fen: this.shownFen(), source: this.source.value });
    const asked = (this.asked = fetch(`/api/explorer?${query}`).then(async (response) => [response.ok, await response.json()]));
    this.container.dataset.state = "loading";
    let ok;
    let answer;
    try {
      [ok, answer] = await asked;
    } catch (e) {
      [ok, answer] = [false, { error: String(e.message || e) }];
    }
    if (asked !== this.asked) return;
    this.show(ok ? answer : null, ok ? "" : answer.error || t("explorer.failed"));
  }

  show(answer, error) {
    this.lineRow.hidden = this.line.length === 0;
    this.lineText.textContent = this.line.map((step) => step.move).join(" ");
    this.body.replaceChildren();
    const moves = answer ? answer.moves : [];
    for (const move of moves) this.body.appendChild(this.row(move));
    this.table.hidden = moves.length === 0;
    this.note.textContent = error || (moves.length ? "" : this.emptyNote(answer));
    this.container.dataset.fen = answer ? answer.fen : "";
    this.container.dataset.source = answer ? answer.source : "";
    this.container.dataset.state = error ? "error" : "ready";
  }

  emptyNote(answer) {
    if (answer.source !== "selfplay") return t("explorer.none", { plies: answer.plies_counted });
    if (!answer.collection_games) return t("explorer.noCollection");
    return t("explorer.noneSelfplay", { plies: answer.plies_counted, games: answer.collection_games.toLocaleString("en") });
  }

  row(move) {
    const tr = el("tr");
    tr.dataset.move = move.move;
    tr.tabIndex = 0;
    tr.appendChild(el("td", "explorer-move", move.move));
    tr.appendChild(el("td", "explorer-games", move.games.toLocaleString("en")));
    const bar = el("div", "explorer-score");
    bar.title = t("explorer.scoreTitle", { blue: move.blue_percent, draws: move.draw_percent, red: move.red_percent });
    for (const [side, share] of [["blue", move.blue_percent], ["draw", move.draw_percent], ["red", move.red_percent]]) {
      const part = el("span", side);
      part.style.width = `${share}%`;
      bar.appendChild(part);
    }
    tr.appendChild(el("td")).appendChild(bar);
    tr.appendChild(el("td", "explorer-rating", move.rating === null ? "—" : String(move.rating)));
    const go = () => this.deeper(move);
    tr.addEventListener("click", go);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    return tr;
  }

  deeper(move) {
    this.line.push({ move: move.move, fen: move.fen_after });
    this.onPosition(move.fen_after, move.move);
    this.load();
  }
}
