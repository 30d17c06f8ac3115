// Simplified Chinese (简体中文, for zh-CN and zh-SG), written from the Traditional dictionary (繁體中文, for
// zh-TW and zh-HK) rather than kept beside it: every string is translated once, and a string added in
// Traditional is at once readable in Simplified. Words the mainland says differently are replaced first
// (登入 → 登录), then each Traditional character by its simplified form. The tables cover the characters the
// interface uses (a test checks that none of its Traditional ones is left after conversion); a character
// missing here shows in its Traditional form, which readers of Simplified still recognise.

// Whole words whose usual Simplified wording differs, not only their characters. Longest first.
const WORDS = [
  ["伺服器", "服务器"],
  ["帳號", "账号"],
  ["登入", "登录"],
  ["登出", "退出"],
  ["匯入", "导入"],
  ["匯出", "导出"],
  ["裝置", "设备"],
  ["著法", "走法"],
];

// Traditional → Simplified, one character each (only those that differ).
const CHARACTERS = new Map(Object.entries({
  並: "并", 亂: "乱", 佈: "布", 來: "来", 個: "个", 傳: "传", 內: "内", 兩: "两", 冊: "册", 別: "别",
  則: "则", 動: "动", 勝: "胜", 勢: "势", 匯: "汇", 協: "协", 嘗: "尝", 國: "国", 寫: "写", 尋: "寻",
  對: "对", 帳: "帐", 庫: "库", 廳: "厅", 彈: "弹", 後: "后", 從: "从", 戰: "战", 戶: "户", 換: "换",
  損: "损", 搶: "抢", 擇: "择", 擊: "击", 擋: "挡", 擺: "摆", 數: "数", 斷: "断", 時: "时", 曉: "晓",
  會: "会", 東: "东", 棄: "弃", 標: "标", 機: "机", 檢: "检", 殘: "残", 決: "决", 沒: "没", 準: "准",
  為: "为", 無: "无", 獅: "狮", 獲: "获", 獸: "兽", 現: "现", 發: "发", 盤: "盘", 確: "确", 碼: "码",
  種: "种", 積: "积", 節: "节", 紅: "红", 級: "级", 結: "结", 絕: "绝", 給: "给", 網: "网", 緒: "绪",
  線: "线", 繼: "继", 續: "续", 聲: "声", 腦: "脑", 與: "与", 舊: "旧", 萊: "莱", 著: "着", 蓋: "盖",
  藍: "蓝", 虛: "虚", 號: "号", 裝: "装", 裡: "里", 製: "制", 複: "复", 見: "见", 規: "规", 觀: "观",
  計: "计", 訪: "访", 註: "注", 評: "评", 試: "试", 該: "该", 認: "认", 語: "语", 誤: "误", 誼: "谊",
  請: "请", 謎: "谜", 議: "议", 讀: "读", 讓: "让", 貓: "猫", 負: "负", 貼: "贴", 賽: "赛", 贏: "赢",
  較: "较", 載: "载", 輪: "轮", 輸: "输", 轉: "转", 這: "这", 連: "连", 進: "进", 過: "过", 違: "违",
  遠: "远", 選: "选", 還: "还", 邊: "边", 錯: "错", 鐘: "钟", 門: "门", 閃: "闪", 閉: "闭", 開: "开",
  間: "间", 關: "关", 陣: "阵", 隨: "随", 隻: "只", 雙: "双", 電: "电", 頁: "页", 項: "项", 須: "须",
  頓: "顿", 頭: "头", 題: "题", 類: "类", 鬥: "斗", 點: "点", 執: "执",
  // Not in the dictionary yet, but likely in strings to come (lessons, puzzles).
  體: "体", 變: "变", 學: "学", 習: "习", 課: "课", 顯: "显", 們: "们", 說: "说", 歷: "历", 紀: "纪",
  錄: "录", 獎: "奖", 難: "难", 簡: "简", 應: "应", 處: "处", 區: "区", 師: "师", 礎: "础", 練: "练",
  將: "将", 達: "达", 隊: "队", 階: "阶", 側: "侧", 鍵: "键", 響: "响", 圖: "图", 據: "据", 義: "义",
}));

/** `text` (Traditional Chinese) in Simplified Chinese. */
export function toSimplified(text) {
  let out = text;
  for (const [traditional, simplified] of WORDS) out = out.split(traditional).join(simplified);
  return Array.from(out, (c) => CHARACTERS.get(c) ?? c).join("");
}
