// Every string of the platform, one dictionary per language. Japanese is first-class.
// Game-specific words live in each game's renderer (asobiba/web/games/<id>.js).

export const STRINGS = {
  en: {
    "app.name": "asobiba",
    "app.tagline": "Japanese games, played for real",
    "lang.switch": "日本語",
    "lang.label": "Language",
    "nav.home": "Lobby",
    "nav.replay": "Replay viewer",
    "lobby.games": "Games",
    "lobby.mine": "Your games on this device",
    "lobby.mine_item": "{title} — move {ply}",
    "lobby.mine_over": "{title} — finished",
    "lobby.choose": "Choose a game",
    "lobby.new": "New game",
    "lobby.seats": "Seats",
    "lobby.seat": "Seat {n}",
    "lobby.you": "You (this device)",
    "lobby.friend": "Friend (invite link)",
    "lobby.cpu": "CPU: {level}",
    "lobby.options": "Options",
    "lobby.variant": "Variant",
    "lobby.variant.none": "(standard)",
    "lobby.casual": "Casual game (undo allowed)",
    "lobby.clock": "Time control",
    "lobby.clock.none": "No clock",
    "lobby.clock.value": "{min} min + {inc} s per move",
    "lobby.create": "Create game",
    "lobby.creating": "Creating…",
    "lobby.players": "Players",
    "lobby.hotseat_hint": "Several seats set to “You” = one device passed between players.",
    "lobby.open_replay": "Open a record in the replay viewer",
    "lobby.seats_count": "{min}–{max} players",
    "lobby.seats_fixed": "{n} players",
    "lobby.hidden": "hidden information",
    "lobby.chance": "chance",
    "lobby.no_renderer": "(text board)",
    "lobby.error": "Could not create the game: {msg}",
    "room.loading": "Connecting…",
    "room.reconnecting": "Connection lost — reconnecting…",
    "room.connected": "Connected",
    "room.spectating": "You are watching this game.",
    "room.turn_you": "Your turn",
    "room.turn_of": "{name} to move",
    "room.turn_many": "To act: {names}",
    "room.thinking": "{name} is thinking…",
    "room.over": "Game over",
    "room.draw": "Draw",
    "room.winner": "Winner: {names}",
    "room.you_won": "You won!",
    "room.you_lost": "You lost.",
    "room.reason": "({reason})",
    "room.resigned": "{name} resigned",
    "room.timeout": "{name} ran out of time",
    "room.clock": "Time left",
    "room.moves": "Moves",
    "room.legal": "Legal moves",
    "room.type_move": "Type a move",
    "room.play": "Play",
    "room.resign": "Resign",
    "room.resign_confirm": "Resign this game?",
    "room.undo": "Undo",
    "room.undo_asked": "{name} asks to take back a move.",
    "room.undo_wait": "Waiting for the other players to accept the undo…",
    "room.accept": "Accept",
    "room.decline": "Decline",
    "room.rematch": "Rematch",
    "room.rematch_offered": "Rematch offered — waiting for the others.",
    "room.rematch_from": "{names} would like a rematch.",
    "room.rematch_go": "Go to the rematch",
    "room.record": "Download record",
    "room.replay": "Replay",
    "room.invite": "Invite links",
    "room.invite_hint": "Send each friend their link; it holds the secret key of their seat.",
    "room.copy": "Copy",
    "room.copied": "Copied",
    "room.spectate_link": "Spectator link",
    "room.seats": "Players",
    "room.online": "online",
    "room.offline": "offline",
    "room.bot": "CPU {level}",
    "room.human": "Player",
    "room.you": "you",
    "room.score": "Score",
    "room.ply": "Move {n}",
    "room.last": "Last move: {move}",
    "room.error": "Refused: {msg}",
    "room.no_room": "There is no such room.",
    "room.handover": "Hand the device to {name}",
    "room.handover_hint": "The screen is hidden so nobody sees another player's secrets.",
    "room.handover_go": "I am {name} — show my view",
    "room.spectators": "{n} watching",
    "room.notes": "Notes",
    "room.result": "Result",
    "room.seat_name": "Seat {n}",
    "replay.title": "Replay viewer",
    "replay.upload": "Open a record file",
    "replay.first": "First",
    "replay.back": "Back",
    "replay.forward": "Forward",
    "replay.last": "Last",
    "replay.step": "Position {i} of {n}",
    "replay.view_as": "View as",
    "replay.spectator": "Spectator",
    "replay.start": "Start",
    "replay.loading": "Loading the record…",
    "replay.error": "This record cannot be replayed: {msg}",
    "replay.none": "Open a record file, or come here from a finished game.",
    "replay.download": "Download record",
    "generic.board": "Position",
    // progression (web)
    "nav.account": "Account",
    "nav.tutorial": "Tutorial",
    "nav.daily": "Daily challenge",
    "nav.ladder": "Ladder",
    "nav.leaderboard": "Leaderboard",
    "tut.title": "{game} — tutorial",
    "tut.steps": "Steps",
    "tut.step_title": "Step {n} of {total}: {title}",
    "tut.goal": "Goal: {goal}",
    "tut.your_move": "Your move: click a highlighted place on the board, or a move in the list.",
    "tut.many_ways": "Several moves reach this goal; any of them will do.",
    "tut.retry": "Start the step again",
    "tut.next": "Next step",
    "tut.finish": "Back to the lobby",
    "tut.all_done": "You have completed every step of this tutorial.",
    // end progression
  },
  ja: {
    "app.name": "あそびば",
    "app.tagline": "日本のゲームを、本気で遊ぶ",
    "lang.switch": "English",
    "lang.label": "言語",
    "nav.home": "ロビー",
    "nav.replay": "棋譜再生",
    "lobby.games": "ゲーム",
    "lobby.mine": "この端末の対局",
    "lobby.mine_item": "{title} — {ply}手目",
    "lobby.mine_over": "{title} — 終局",
    "lobby.choose": "ゲームを選んでください",
    "lobby.new": "新しい対局",
    "lobby.seats": "席",
    "lobby.seat": "{n}番目の席",
    "lobby.you": "自分（この端末）",
    "lobby.friend": "友だち（招待リンク）",
    "lobby.cpu": "CPU：{level}",
    "lobby.options": "設定",
    "lobby.variant": "バリエーション",
    "lobby.variant.none": "（標準）",
    "lobby.casual": "カジュアル対局（待ったあり）",
    "lobby.clock": "持ち時間",
    "lobby.clock.none": "時計なし",
    "lobby.clock.value": "{min}分＋1手ごとに{inc}秒",
    "lobby.create": "対局を作る",
    "lobby.creating": "作成中…",
    "lobby.players": "人数",
    "lobby.hotseat_hint": "「自分」の席が複数あると、1台の端末を順番に回して遊びます。",
    "lobby.open_replay": "棋譜ファイルを再生する",
    "lobby.seats_count": "{min}〜{max}人",
    "lobby.seats_fixed": "{n}人",
    "lobby.hidden": "非公開情報あり",
    "lobby.chance": "運の要素あり",
    "lobby.no_renderer": "（文字盤）",
    "lobby.error": "対局を作れませんでした：{msg}",
    "room.loading": "接続中…",
    "room.reconnecting": "接続が切れました。再接続中…",
    "room.connected": "接続済み",
    "room.spectating": "観戦中です。",
    "room.turn_you": "あなたの番です",
    "room.turn_of": "{name}の番です",
    "room.turn_many": "行動中：{names}",
    "room.thinking": "{name}が考え中…",
    "room.over": "対局終了",
    "room.draw": "引き分け",
    "room.winner": "勝者：{names}",
    "room.you_won": "あなたの勝ちです！",
    "room.you_lost": "あなたの負けです。",
    "room.reason": "（{reason}）",
    "room.resigned": "{name}が投了しました",
    "room.timeout": "{name}の持ち時間が切れました",
    "room.clock": "残り時間",
    "room.moves": "棋譜",
    "room.legal": "指せる手",
    "room.type_move": "手を入力",
    "room.play": "指す",
    "room.resign": "投了",
    "room.resign_confirm": "投了しますか？",
    "room.undo": "待った",
    "room.undo_asked": "{name}が待ったを求めています。",
    "room.undo_wait": "相手が待ったを認めるのを待っています…",
    "room.accept": "認める",
    "room.decline": "断る",
    "room.rematch": "再戦",
    "room.rematch_offered": "再戦を申し込みました。相手を待っています。",
    "room.rematch_from": "{names}が再戦を希望しています。",
    "room.rematch_go": "再戦の対局へ",
    "room.record": "棋譜をダウンロード",
    "room.replay": "棋譜再生",
    "room.invite": "招待リンク",
    "room.invite_hint": "友だちにそれぞれのリンクを送ってください。席の秘密の鍵が入っています。",
    "room.copy": "コピー",
    "room.copied": "コピーしました",
    "room.spectate_link": "観戦リンク",
    "room.seats": "対局者",
    "room.online": "接続中",
    "room.offline": "未接続",
    "room.bot": "CPU {level}",
    "room.human": "プレイヤー",
    "room.you": "あなた",
    "room.score": "得点",
    "room.ply": "{n}手目",
    "room.last": "直前の手：{move}",
    "room.error": "受け付けられません：{msg}",
    "room.no_room": "その対局は見つかりません。",
    "room.handover": "端末を{name}に渡してください",
    "room.handover_hint": "他の人の秘密が見えないよう、画面を隠しています。",
    "room.handover_go": "{name}です — 自分の画面を表示",
    "room.spectators": "{n}人が観戦中",
    "room.notes": "お知らせ",
    "room.result": "結果",
    "room.seat_name": "{n}番目の席",
    "replay.title": "棋譜再生",
    "replay.upload": "棋譜ファイルを開く",
    "replay.first": "最初",
    "replay.back": "戻る",
    "replay.forward": "進む",
    "replay.last": "最後",
    "replay.step": "{n}局面中 {i}",
    "replay.view_as": "視点",
    "replay.spectator": "観戦者",
    "replay.start": "開始局面",
    "replay.loading": "棋譜を読み込み中…",
    "replay.error": "この棋譜は再生できません：{msg}",
    "replay.none": "棋譜ファイルを開くか、終わった対局から来てください。",
    "replay.download": "棋譜をダウンロード",
    "generic.board": "局面",
    // progression (web)
    "nav.account": "アカウント",
    "nav.tutorial": "チュートリアル",
    "nav.daily": "デイリーチャレンジ",
    "nav.ladder": "ランク",
    "nav.leaderboard": "ランキング",
    "tut.title": "{game} — チュートリアル",
    "tut.steps": "ステップ",
    "tut.step_title": "ステップ {n}/{total}：{title}",
    "tut.goal": "目標：{goal}",
    "tut.your_move": "盤上の光っている場所か、一覧の手をクリックしてください。",
    "tut.many_ways": "この目標に届く手はいくつかあります。どれでも構いません。",
    "tut.retry": "このステップをやり直す",
    "tut.next": "次のステップへ",
    "tut.finish": "ロビーへ戻る",
    "tut.all_done": "このチュートリアルのステップをすべて終えました。",
    // end progression
  },
};

const listeners = [];
let current = pickLanguage();

function pickLanguage() {
  const saved = localStorage.getItem("asobiba.lang");
  if (saved === "ja" || saved === "en") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const code = String(l).toLowerCase();
    if (code.startsWith("ja")) return "ja";
    if (code.startsWith("en")) return "en";
  }
  return "en";
}

export function lang() {
  return current;
}

/** Translate a key, filling {name} slots; extra dictionaries (a game's) are searched first. */
export function t(key, params = {}, extra = null) {
  const table = (extra && extra[current]) || {};
  let text = table[key] ?? STRINGS[current][key] ?? STRINGS.en[key] ?? (extra && extra.en && extra.en[key]) ?? key;
  for (const [k, v] of Object.entries(params)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

/** Pick the current language from a {en, ja} object (game titles, bot levels). */
export function pick(obj, fallback = "") {
  if (!obj) return fallback;
  if (typeof obj === "string") return obj;
  return obj[current] || obj.en || fallback;
}

export function setLang(code) {
  current = code;
  localStorage.setItem("asobiba.lang", code);
  document.documentElement.lang = code;
  applyStatic();
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** Fill every element marked data-i18n (text) or data-i18n-attr ("attr:key"). */
export function applyStatic(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr, t(key));
    }
  }
}

/** The language switch button in every page header. */
export function mountSwitch(button) {
  button.addEventListener("click", () => setLang(current === "ja" ? "en" : "ja"));
}
