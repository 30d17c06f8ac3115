// The interface's words in English and 中文: one dictionary, the language chosen from the browser's and
// switched (and remembered) by the player. t(key, vars) fills {name} placeholders.

const DICTIONARY = {
  en: {
    "animal.e": "Elephant", "animal.l": "Lion", "animal.t": "Tiger", "animal.p": "Leopard",
    "animal.d": "Dog", "animal.w": "Wolf", "animal.c": "Cat", "animal.r": "Rat",
    "side.blue": "Blue", "side.red": "Red",
    "board.label": "Jungle board",
    "board.trap": "trap", "board.den": "den", "board.water": "water",
    "square.piece": "{side} {animal} on {square}",
    "square.empty": "{square}, empty",
    "square.selected": "selected",
    "square.target": "move here",
    "move.said": "{side} {animal} {from} to {to}",
    "move.takes": "{side} {animal} {from} takes {victim} on {to}",
  },
  zh: {
    "animal.e": "象", "animal.l": "獅", "animal.t": "虎", "animal.p": "豹",
    "animal.d": "狗", "animal.w": "狼", "animal.c": "貓", "animal.r": "鼠",
    "side.blue": "藍方", "side.red": "紅方",
    "board.label": "鬥獸棋棋盤",
    "board.trap": "陷阱", "board.den": "獸穴", "board.water": "河",
    "square.piece": "{side}{animal}，{square}",
    "square.empty": "{square}，空",
    "square.selected": "已選",
    "square.target": "可走到這裡",
    "move.said": "{side}{animal} {from} 到 {to}",
    "move.takes": "{side}{animal} {from} 吃 {victim}，{to}",
  },
};

export const LANGUAGES = Object.keys(DICTIONARY);

function chosenLanguage() {
  let saved = null;
  try { saved = localStorage.getItem("jungle-lang"); } catch { /* storage blocked */ }
  if (saved && DICTIONARY[saved]) return saved;
  const browser = (navigator.languages || [navigator.language || "en"]).find((l) => l);
  return browser && browser.toLowerCase().startsWith("zh") ? "zh" : "en";
}

let language = chosenLanguage();

export function lang() {
  return language;
}

export function setLang(code) {
  if (!DICTIONARY[code]) return;
  language = code;
  try { localStorage.setItem("jungle-lang", code); } catch { /* storage blocked */ }
}

export function t(key, vars = {}) {
  const text = DICTIONARY[language][key] ?? DICTIONARY.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}
