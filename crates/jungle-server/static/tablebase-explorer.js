// The tablebase explorer's list, shared by its own page and the analysis board: for the shown position, its
// value and every legal move with its result for the mover and its distance, best first (as the server sorts
// them), or a note saying why the server's tables do not cover it.

import { t, tOr } from "./i18n.js";

/** "win in 7", "draw", "loss in 12" in the page's language. */
export function valueText(result, distance) {
  return result === "draw" ? t("tb.draw") : t(`tb.${result}`, { plies: distance });
}

/** The address of the explorer's page on a position. */
export function explorerUrl(fen, rules) {
  const query = new URLSearchParams({ fen });
  if (rules) query.set("rules", rules);
  return `/tablebase?${query}`;
}

export class TablebaseList {
  // container: an element to fill. onPick(move), when given, is called for a clicked move instead of following
  // its link to the explorer's page; onAnswer(answer) gets every answer about the position last asked for;
  // hiddenWithoutTables hides the list on a server that has no tables (a panel beside other things, where a
  // note on every position would say nothing new).
  constructor(container, { onPick = null, onAnswer = null, hiddenWithoutTables = false } = {}) {
    this.container = container;
    this.onPick = onPick;
    this.onAnswer = onAnswer;
    this.hiddenWithoutTables = hiddenWithoutTables;
    this.asked = 0; // answers to older questions are dropped
    this.answer = null;
    container.classList.add("tablebase");
  }

  /** Looks the position up and shows what the tables say (replacing whatever was shown). */
  async show(fen, rules = null) {
    // A server without tables says so for every position: once heard, a hidden panel asks no more.
    if (this.container.hidden && this.hiddenWithoutTables) return null;
    const asked = ++this.asked;
    const query = new URLSearchParams({ fen });
    if (rules) query.set("rules", rules);
    this.note(t("tb.loading"), "tb-status");
    let answer;
    try {
      const response = await fetch(`/api/tablebase?${query}`);
      answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
    } catch (e) {
      if (asked === this.asked) this.note(String(e.message || e), "error");
      return null;
    }
    if (asked !== this.asked) return null;
    this.answer = answer;
    this.render(answer, rules);
    if (this.onAnswer) this.onAnswer(answer);
    return answer;
  }

  // Replaces the contents by one line of text.
  note(text, className) {
    const line = document.createElement("div");
    line.className = className;
    line.textContent = text;
    this.container.replaceChildren(line);
  }

  render(answer, rules) {
    this.container.hidden = this.hiddenWithoutTables && answer.reason_code === "no_tables";
    const side = t(`side.${answer.turn}`);
    if (!answer.covered) {
      const reason = tOr(`tb.reason.${answer.reason_code}`, answer.reason);
      this.note(t("tb.notCovered", { reason }), "tb-status tb-not-covered");
      this.container.firstChild.title = answer.reason;
      return;
    }
    const status = answer.over
      ? t("tb.over", { side, value: valueText(answer.result, answer.distance) })
      : t("tb.position", { side, value: valueText(answer.result, answer.distance) });
    this.note(status, `tb-status ${answer.result}`);
    const list = document.createElement("ol");
    list.className = "tb-moves";
    for (const move of answer.moves) {
      const item = document.createElement("li");
      item.className = `tb-move ${move.result}`;
      item.dataset.uci = move.uci;
      const link = document.createElement("a");
      link.href = explorerUrl(move.fen, rules);
      const name = document.createElement("span");
      name.className = "tb-uci";
      name.textContent = move.capture ? `${move.uci.slice(0, 2)}×${move.uci.slice(2)}` : move.uci;
      const value = document.createElement("span");
      value.className = "tb-value";
      value.textContent = valueText(move.result, move.distance);
      link.append(name, value);
      if (this.onPick) {
        link.addEventListener("click", (e) => {
          e.preventDefault();
          this.onPick(move);
        });
      }
      item.appendChild(link);
      list.appendChild(item);
    }
    this.container.appendChild(list);
    const footer = document.createElement("div");
    footer.className = "info tb-rules";
    footer.textContent = t("tb.rules", { rules: answer.rules });
    this.container.appendChild(footer);
  }
}
