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
    "lang.label": "Language",
    "home.title": "Jungle — play Dou Shou Qi",
    "home.heading": "Play Jungle",
    "home.lead": "The animal chess of China: walk an animal into the enemy den. Bigger animals take smaller ones, the Rat takes the Elephant, only the Rat swims, and the Lion and Tiger leap the rivers.",
    "home.level": "Engine level",
    "home.level1": "1 — beginner",
    "home.level8": "8 — full strength",
    "home.side": "Your side",
    "home.random": "Random",
    "home.blueFirst": "Blue (moves first)",
    "home.rules": "Rules",
    "home.standard": "Standard",
    "home.modern": "Modern (Lion = Tiger)",
    "home.leiden": "Leiden (tablebase rules)",
    "home.mistboard": "Mistboard",
    "home.checkers": "Animal Checkers",
    "home.options": "More rule options",
    "home.clock": "Clock",
    "home.untimed": "Untimed",
    "home.playEngine": "Play the engine",
    "home.playFriend": "Play a friend",
    "home.rule1": "Blue moves first. Each turn one animal steps one square up, down, left or right.",
    "home.rule2": "Rank decides captures: Elephant 8 … Rat 1; the Rat alone may take the Elephant.",
    "home.rule3": "Only the Rat swims; the Lion and Tiger leap across the rivers unless a Rat is in the way.",
    "home.rule4": "An animal in an enemy trap can be taken by anything. Enter the enemy den to win.",
    "home.rule5": "Play a friend: you get a link to send; the friend presses Join to play, other visitors watch.",
    "home.live": "Live games",
    "home.recent": "Recently finished",
    "home.imports": "Imported for study",
    "home.analyse": "Analyse a game",
    "home.paste": "Paste a Jungle PGN to step through it with the engine.",
    "home.import": "Import and analyse",
    "game.title": "Jungle game",
    "game.titleTurn": "Your turn · Jungle",
    "game.connecting": "Connecting…",
    "game.shareLabel": "Send this link to a friend:",
    "game.copy": "Copy",
    "game.joinAs": "Join as {side}",
    "game.drawOffered": "Your opponent offers a draw.",
    "game.accept": "Accept",
    "game.decline": "Decline",
    "game.flip": "⇅ Flip",
    "game.flipTitle": "Flip the board",
    "game.takeback": "↶ Take back",
    "game.abort": "✕ Abort",
    "game.offerDraw": "½ Offer draw",
    "game.drawSent": "½ Draw offered",
    "game.resign": "⚑ Resign",
    "game.reallyResign": "⚑ Really resign?",
    "game.replay": "Replay",
    "game.soundOn": "♪ Sound on",
    "game.soundOff": "♪ Sound off",
    "game.backToGame": "⏭ Back to the game",
    "game.newGame": "New game",
    "game.replayAnalyse": "Replay & analyse",
    "game.close": "Close",
    "game.downtime": "If the server is down, nobody's clock runs: the time is not charged.",
    "game.reconnecting": "reconnecting…",
    "game.offline": "Not connected, nothing was sent; reconnecting…",
    "game.tryAgain": "Not connected; try again.",
    "status.watching": "You are watching. {side} to move.",
    "status.thinking": "The engine is thinking…",
    "status.yourTurn": "Your turn.",
    "status.waitFriend": "Waiting for your friend to join.",
    "status.waitOpponent": "Waiting for your opponent…",
    "result.wins": "{side} wins",
    "result.draw": "Draw",
    "result.aborted": "Game aborted",
    "result.youWin": "You win!",
    "result.youLose": "You lose",
    "meta.rules": "Rules: {rules}",
    "meta.level": "engine level {level}",
    "meta.untimed": "untimed",
    "player.you": "{name} (you)",
    "replay.title": "Jungle replay",
    "replay.loading": "Loading…",
    "replay.analyse": "Analyse this position",
    "replay.download": "Download PGN",
    "replay.gamePage": "Game page",
    "replay.evaluation": "Evaluation",
    "replay.bestLine": "Best line",
    "replay.stopEngine": "Stop the engine",
    "replay.downloadAnimals": "PGN with animals",
    "replay.downloadAnimalsTitle": "The moves written with their animals: Ea3-a4",
    "replay.graph": "Evaluation graph",
    "replay.graphBusy": "Evaluating every position…",
    "replay.graphLabel": "The evaluation after each move; click to go there",
    "replay.graphSummary": "{mistakes} mistakes, {blunders} blunders (a move losing at least {mistake} or {blunder}; {nodes} nodes a position)",
    "replay.mistake": "mistake",
    "replay.blunder": "blunder",
    "replay.depth": "depth {depth}",
    "replay.done": "done",
    "replay.gameOver": "the game is over",
    "replay.winsIn": "{side} wins in {plies}",
    "replay.importAnother": "Import another game (PGN)",
    "game.rematch": "Rematch",
    "game.playRematch": "Play the rematch",
    "game.claimWin": "Claim the win",
    "game.claimDraw": "Call it a draw",
    "away.countdown": "Your opponent disconnected. If they are not back in {left} s, you may claim the win.",
    "away.now": "Your opponent disconnected. You may claim the win or call it a draw.",
    "meta.watching": "{count} watching",
    "editor.title": "Jungle board editor",
    "editor.heading": "Board editor",
    "editor.help": "Pick a piece (or the eraser), then click squares to place it; click a piece on the board with the same pick to take it away.",
    "editor.palette": "Piece to place",
    "editor.piece": "{side} {animal}",
    "editor.eraser": "Eraser",
    "editor.turn": "Side to move",
    "editor.start": "Start position",
    "editor.clear": "Empty board",
    "editor.checking": "Checking…",
    "editor.valid": "Valid: {side} to move, {legal} legal moves",
    "editor.over": "Valid, but the game is over: {reason}",
    "editor.badFen": "That FEN cannot be read.",
    "editor.play": "Play the engine from here",
    "replay.summary": "Blue: {blue} · Red: {red} · {state}",
    "replay.inProgress": "in progress",
    "replay.cannotLoad": "Cannot load the game.",
    "replay.first": "Start (Home)",
    "replay.prev": "Back (←)",
    "replay.next": "Forward (→)",
    "replay.last": "End (End)",
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
    "lang.label": "語言",
    "home.title": "鬥獸棋 — 線上對弈",
    "home.heading": "下鬥獸棋",
    "home.lead": "中國的動物棋：讓一隻動物走進對方的獸穴。大吃小，鼠能吃象，只有鼠會游水，獅和虎能跳過河。",
    "home.level": "電腦等級",
    "home.level1": "1 — 入門",
    "home.level8": "8 — 全力",
    "home.side": "你的一方",
    "home.random": "隨機",
    "home.blueFirst": "藍方（先走）",
    "home.rules": "規則",
    "home.standard": "標準",
    "home.modern": "現代（獅 = 虎）",
    "home.leiden": "萊頓（殘局庫規則）",
    "home.mistboard": "Mistboard",
    "home.checkers": "動物跳棋",
    "home.options": "更多規則選項",
    "home.clock": "計時",
    "home.untimed": "不計時",
    "home.playEngine": "與電腦對弈",
    "home.playFriend": "與朋友對弈",
    "home.rule1": "藍方先走。每回合一隻動物向上、下、左或右走一格。",
    "home.rule2": "等級決定吃子：象 8 … 鼠 1；只有鼠能吃象。",
    "home.rule3": "只有鼠會游水；獅和虎能跳過河，除非有鼠擋在河中。",
    "home.rule4": "在對方陷阱裡的動物任何棋子都能吃。走進對方獸穴就贏。",
    "home.rule5": "與朋友對弈：你會得到一個連結；朋友按「加入」就能下棋，其他訪客觀戰。",
    "home.live": "進行中的棋局",
    "home.recent": "最近結束",
    "home.imports": "匯入研究",
    "home.analyse": "分析棋局",
    "home.paste": "貼上鬥獸棋 PGN，用引擎逐步分析。",
    "home.import": "匯入並分析",
    "game.title": "鬥獸棋對局",
    "game.titleTurn": "輪到你 · 鬥獸棋",
    "game.connecting": "連線中…",
    "game.shareLabel": "把這個連結傳給朋友：",
    "game.copy": "複製",
    "game.joinAs": "加入為{side}",
    "game.drawOffered": "對手提議和棋。",
    "game.accept": "接受",
    "game.decline": "拒絕",
    "game.flip": "⇅ 翻轉",
    "game.flipTitle": "翻轉棋盤",
    "game.takeback": "↶ 悔棋",
    "game.abort": "✕ 取消對局",
    "game.offerDraw": "½ 提議和棋",
    "game.drawSent": "½ 已提議和棋",
    "game.resign": "⚑ 認輸",
    "game.reallyResign": "⚑ 確定認輸？",
    "game.replay": "覆盤",
    "game.soundOn": "♪ 聲音開",
    "game.soundOff": "♪ 聲音關",
    "game.backToGame": "⏭ 回到對局",
    "game.newGame": "新對局",
    "game.replayAnalyse": "覆盤與分析",
    "game.close": "關閉",
    "game.downtime": "伺服器停機時，雙方的鐘都不走：不扣時間。",
    "game.reconnecting": "重新連線中…",
    "game.offline": "未連線，沒有送出任何東西；正在重新連線…",
    "game.tryAgain": "未連線；請再試一次。",
    "status.watching": "你在觀戰。輪到{side}。",
    "status.thinking": "電腦思考中…",
    "status.yourTurn": "輪到你了。",
    "status.waitFriend": "等待朋友加入。",
    "status.waitOpponent": "等待對手…",
    "result.wins": "{side}勝",
    "result.draw": "和棋",
    "result.aborted": "對局已取消",
    "result.youWin": "你贏了！",
    "result.youLose": "你輸了",
    "meta.rules": "規則：{rules}",
    "meta.level": "電腦等級 {level}",
    "meta.untimed": "不計時",
    "player.you": "{name}（你）",
    "replay.title": "鬥獸棋覆盤",
    "replay.loading": "載入中…",
    "replay.analyse": "分析這個局面",
    "replay.download": "下載 PGN",
    "replay.gamePage": "對局頁面",
    "replay.evaluation": "評估",
    "replay.bestLine": "最佳著法",
    "replay.stopEngine": "停止引擎",
    "replay.downloadAnimals": "PGN（寫出棋子）",
    "replay.downloadAnimalsTitle": "著法寫出棋子：Ea3-a4",
    "replay.graph": "評估曲線",
    "replay.graphBusy": "正在評估每個局面…",
    "replay.graphLabel": "每步之後的評估；點擊即跳到該局面",
    "replay.graphSummary": "{mistakes} 個失誤，{blunders} 個大錯（一步至少損失 {mistake} 或 {blunder}；每個局面 {nodes} 個節點）",
    "replay.mistake": "失誤",
    "replay.blunder": "大錯",
    "replay.depth": "深度 {depth}",
    "replay.done": "完成",
    "replay.gameOver": "對局已結束",
    "replay.winsIn": "{side} {plies} 步內獲勝",
    "replay.importAnother": "匯入另一局（PGN）",
    "game.rematch": "再來一局",
    "game.playRematch": "接受再來一局",
    "game.claimWin": "判我勝",
    "game.claimDraw": "判和棋",
    "away.countdown": "對手斷線了。若 {left} 秒內未回來，你可以要求判勝。",
    "away.now": "對手斷線了。你可以要求判勝或判和。",
    "meta.watching": "{count} 人觀戰",
    "editor.title": "鬥獸棋擺棋",
    "editor.heading": "擺棋",
    "editor.help": "選一個棋子（或橡皮擦），再點格子放下；用同一個選擇點棋盤上的該棋子即可拿走。",
    "editor.palette": "要放的棋子",
    "editor.piece": "{side}{animal}",
    "editor.eraser": "橡皮擦",
    "editor.turn": "輪到",
    "editor.start": "開局局面",
    "editor.clear": "清空棋盤",
    "editor.checking": "檢查中…",
    "editor.valid": "合法：輪到{side}，{legal} 種合法著法",
    "editor.over": "合法，但對局已結束：{reason}",
    "editor.badFen": "無法讀取這個 FEN。",
    "editor.play": "從這裡與電腦對弈",
    "replay.summary": "藍方：{blue} · 紅方：{red} · {state}",
    "replay.inProgress": "進行中",
    "replay.cannotLoad": "無法載入這局棋。",
    "replay.first": "開始（Home）",
    "replay.prev": "上一步（←）",
    "replay.next": "下一步（→）",
    "replay.last": "最後（End）",
    "reason.resignation": "認輸",
    "reason.time forfeit": "超時",
    "reason.den entered": "進入獸穴",
    "reason.all pieces captured": "吃光所有棋子",
    "reason.no legal move": "無子可走",
    "reason.repetition": "重複局面",
    "reason.quiet-ply limit": "久無吃子",
    "reason.draw agreed": "協議和棋",
    "reason.aborted": "已取消",
    "reason.abandoned": "棄局",
    "reason.adjudication": "裁定",
    "reason.illegal move": "違規著法",
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

/** The dictionary's text for `key` in the current language, or `fallback` when it has none (server words). */
export function tOr(key, fallback) {
  return DICTIONARY[language][key] ?? fallback;
}

// Fills the page's marked elements: data-i18n (text), data-i18n-title, data-i18n-placeholder,
// data-i18n-aria-label, and the document's language.
export function translatePage(root = document) {
  document.documentElement.lang = language === "zh" ? "zh-Hant" : "en";
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
}

// The language switch in the top bar; a change is remembered and the page is drawn again in it.
export function mountLanguageSwitch() {
  const bar = document.querySelector(".top-bar");
  if (!bar || document.getElementById("lang")) return;
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang";
  select.setAttribute("aria-label", t("lang.label"));
  for (const [code, label] of [["en", "English"], ["zh", "中文"]]) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = label;
    option.selected = code === language;
    select.appendChild(option);
  }
  select.addEventListener("change", () => {
    setLang(select.value);
    location.reload();
  });
  bar.appendChild(select);
}

/** Translates the page and adds the language switch: every page's script calls it first. */
export function localise() {
  translatePage();
  mountLanguageSwitch();
}
