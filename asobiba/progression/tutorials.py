"""Interactive tutorials as data: per game, small positions that each teach one rule.

A :class:`Step` has a start position (moves from the start, or a hand-made position given as a
view and rebuilt with ``game.state_from_view``), a goal in words, the intended moves, and a
check on the views before and after the player's move. The web client shows the start view,
sends the player's move to :meth:`Step.attempt`, and shows the message. Everything goes
through the protocol: an illegal move gets the game's own typed error and its rule sentence.

Games: Reversi, ReverStarGo (the app's tutorial topics: placing and flipping, capture, the
wall rule, protection, the CP call, the CP ring point, ko), FlipFlop, Algo, Memory Matrix
(on one seeded start each; the player sees only its own view) and Patapata.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import MoveError, State
from ..games import get as get_game

View = Mapping[str, Any]


@dataclass(frozen=True)
class Text:
    en: str
    ja: str

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ja": self.ja}


@dataclass(frozen=True)
class Attempt:
    done: bool
    message: Text
    state: State | None = None


@dataclass(frozen=True)
class Step:
    game: str
    key: str
    rule: str
    """The rule taught, as named in docs/rules/<game>.md."""
    title: Text
    explain: Text
    goal: Text
    solutions: tuple[str, ...]
    check: Callable[[View, View], bool]
    moves: tuple[str, ...] = ()
    view: Mapping[str, Any] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    hint: Text | None = None
    seed: int = 0
    """For games with chance: the deal the step is written for."""
    many_ways: bool = False
    """True when any move reaching the goal is right (the solutions are examples)."""

    def start(self) -> State:
        game = get_game(self.game)
        if self.view is not None:
            return game.state_from_view(self.view)
        return game.replay(list(self.moves), self.options, self.seed)[-1]

    def attempt(self, move: str, state: State | None = None) -> Attempt:
        """Play ``move`` from the step's start (or ``state``); done when the check holds."""
        state = state or self.start()
        seat = state.to_move
        try:
            after = state.play(move, seat)
        except MoveError as exc:
            return Attempt(False, Text(str(exc), str(exc)), state)
        if self.check(state.view(seat), after.view(seat)):
            return Attempt(True, Text("Well done!", "よくできました！"), after)
        hint = self.hint or Text("That move is legal, but it does not reach the goal. Try again.",
                                 "打てる手ですが、目標に届きません。もう一度どうぞ。")
        return Attempt(False, hint, state)

    def to_json(self) -> dict[str, Any]:
        start = self.start()
        return {"game": self.game, "key": self.key, "rule": self.rule,
                "title": self.title.to_json(), "explain": self.explain.to_json(),
                "goal": self.goal.to_json(), "view": start.view(start.to_move),
                "many_ways": self.many_ways,
                "hint": self.hint.to_json() if self.hint else None}


@dataclass(frozen=True)
class Tutorial:
    game: str
    steps: tuple[Step, ...]

    def step(self, key: str) -> Step:
        for s in self.steps:
            if s.key == key:
                return s
        raise KeyError(f"{self.game} tutorial has no step {key!r}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "steps": [s.to_json() for s in self.steps]}


# ---- Reversi ---------------------------------------------------------------------------------

def _reversi_view(black: Sequence[str], white: Sequence[str], turn: str) -> dict[str, Any]:
    rows = []
    for rank in range(8, 0, -1):
        row = ""
        for f in "abcdefgh":
            sq = f"{f}{rank}"
            row += "B" if sq in black else "W" if sq in white else "."
        rows.append(row)
    return {"board": rows, "turn": turn}


def _disc(view: View, square: str) -> str:
    return str(view["board"][8 - int(square[1])]["abcdefgh".index(square[0])])


def _reversi() -> Tutorial:
    g = "reversi"
    return Tutorial(g, (
        Step(g, "flank", "placing and flipping",
             Text("Placing and flipping", "置いて、ひっくり返す"),
             Text("Black moves first. A disc must be placed so that it brackets a straight run "
                  "of White discs between it and another Black disc; the run flips to Black.",
                  "黒が先手。自分の石で相手の石をはさめる所にだけ置け、はさんだ石は自分の色になります。"),
             Text("Flip a White disc.", "白の石を1つひっくり返そう。"),
             ("d3", "c4", "f5", "e6"),
             lambda b, a: a["counts"]["white"] < b["counts"]["white"], many_ways=True),
        Step(g, "lines", "placing and flipping",
             Text("Several lines at once", "何方向も同時に"),
             Text("A disc flips every bracketed run, in all eight directions at once.",
                  "置いた石から8方向すべてで、はさんだ石がひっくり返ります。"),
             Text("Flip both White discs with one move.", "1手で白の石を2つともひっくり返そう。"),
             ("c5",),
             lambda b, a: a["counts"]["white"] == 0,
             view=_reversi_view(["c3", "e3"], ["c4", "d4"], "black"),
             hint=Text("Look for the square that brackets c4 and d4 along two different lines.",
                       "c4 と d4 を別々の線ではさめるマスを探そう。")),
        Step(g, "pass", "passing",
             Text("Passing", "パス"),
             Text("A player who cannot bracket anything must pass; then the other plays again.",
                  "どこにも置けないときはパスします。相手がもう一度打ちます。"),
             Text("White has no move here: pass.", "白は置ける所がありません。パスしよう。"),
             ("pass",),
             lambda b, a: a["turn"] == "black" and a["board"] == b["board"],
             view=_reversi_view(["a1"], ["b1"], "white")),
        Step(g, "end", "the end and the count",
             Text("The end and the count", "終局と数え方"),
             Text("The game ends when neither player can move; the one with more discs wins.",
                  "どちらも置けなくなったら終わり。石の多い方の勝ちです。"),
             Text("End the game with a win for Black.", "黒の勝ちで終わらせよう。"),
             ("c1",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             view=_reversi_view(["a1"], ["b1"], "black")),
    ))


# ---- ReverStarGo -----------------------------------------------------------------------------

def _rsg_labels() -> tuple[str, ...]:
    from ..games.reverstargo.board import LABELS  # the cell order of the view's board text

    return LABELS


def _rsg_board(black: Sequence[str], white: Sequence[str]) -> str:
    return "".join("B" if lab in black else "W" if lab in white else "."
                   for lab in _rsg_labels())


def _rsg_view(black: Sequence[str], white: Sequence[str],
              previous: str | None = None) -> dict[str, Any]:
    """A hand-made position, Black to move, as a view (no record entries, empty history)."""
    return {"board": _rsg_board(black, white), "captured": [0, 0], "history": [],
            "previous": previous, "entries": [], "last_exception": False}


def _cell(view: View, label: str) -> str:
    return str(view["board"][_rsg_labels().index(label)])


RSG_END = ("B4 B7 B1 BJ B9 B3 BX CJ CX C9 B2 B5[W] B6 DX B8 C6 C5 C8 D8 BQ D6 C1 C2 C4 D4 D2 "
           "DQ C7 CQ C3")
"""A seeded random game with one cell (A3) left, Black to move, Black ahead."""


def _reverstargo() -> Tutorial:
    g = "reverstargo"
    return Tutorial(g, (
        Step(g, "flank", "3. Placing and flipping",
             Text("Placing and flipping", "置く・はさむ"),
             Text("Place a stone where it flanks White stones along any of the six directions; "
                  "they flip to Black. The Core Point (CP) in the middle is never played.",
                  "6方向のどれかで相手の石をはさめる所に置き、はさんだ石を返します。中央のCPには置けません。"),
             Text("Flip a White stone.", "白の石を返そう。"),
             ("BQ", "B2", "B4", "B6", "B8", "BX"),
             lambda b, a: a["board"].count("W") < b["board"].count("W"), many_ways=True),
        Step(g, "capture", "4. Capture",
             Text("Capture", "囲んで取る"),
             Text("Stones completely surrounded by yours are taken and score for you. Calling "
                  "the CP Black makes it one of your surrounding stones.",
                  "自分の石で完全に囲んだ相手の石は取れ、得点になります。CPを黒とコールすると囲みの一部になります。"),
             Text("Take the White stone on A1.", "A1 の白石を取ろう。"),
             ("BJ[B]",),
             lambda b, a: _cell(a, "A1") == "." and a["captured"][0] > b["captured"][0],
             view=_rsg_view(["B1", "B2", "A3", "AJ", "C1"], ["A1", "BQ", "A5", "A7", "A9"]),
             hint=Text("BJ flips BQ, next to A1; the CP must be on your side.",
                       "BJ で BQ を返し、CPは黒とコールしよう。")),
        Step(g, "wall", "4. Capture (the wall)",
             Text("The wall does not help", "壁では囲めない"),
             Text("Unlike Go, the edge of the board is not a wall: a stone touching the edge is "
                  "never taken, however many of your stones stand around it.",
                  "囲碁と違い、盤の端（壁）を使って囲んでも取れません。"),
             Text("Play A1 and see that B1 stays White.", "A1 に打って、B1 が取られないことを確かめよう。"),
             ("A1",),
             lambda b, a: _cell(a, "B1") == "W" and a["captured"] == b["captured"],
             view=_rsg_view(["C2", "B2", "C1", "BQ", "A7"], ["B1"])),
        Step(g, "protection", "4. Capture (protection)",
             Text("Old enclosures are protected", "前からの囲みは取れない"),
             Text("Only an enclosure your move has just completed takes stones; a stone that "
                  "was already surrounded stays when you play elsewhere.",
                  "その手で新しく完成した囲みだけが取れます。前から囲まれていた石は、関係ない手では取れません。"),
             Text("Play B3 and see that A1 stays.", "B3 に打って、A1 が残ることを確かめよう。"),
             ("B3",),
             lambda b, a: (_cell(a, "B3") == "B" and _cell(a, "A1") == "W"
                           and a["captured"] == b["captured"]),
             view=_rsg_view(["B1", "B2", "A3", "AJ", "BQ", "D4"], ["A1", "C4"])),
        Step(g, "call", "5. The Core Point",
             Text("The CP call", "CPコール"),
             Text("When a move flanks through the CP, you call Black or White, and the CP "
                  "counts as that colour for this move: called White, it is part of the run "
                  "and the run goes on; called Black, it closes the run.",
                  "CPを通してはさむときは黒か白をコールします。白なら列の一部、黒なら列を閉じます。"),
             Text("Flip both A1 and A7 with one move.", "1手で A1 と A7 を両方返そう。"),
             ("B1[W]",),
             lambda b, a: _cell(a, "A1") == "B" and _cell(a, "A7") == "B",
             view=_rsg_view(["B7"], ["A1", "A7"]),
             hint=Text("Play B1 and call the CP White, so the run runs on through it.",
                       "B1 に打ち、CPを白とコールしよう。")),
        Step(g, "ring", "5. The Core Point (ring)",
             Text("The CP point", "CPのポイント"),
             Text("A CP surrounded by a ring of six of your stones that your move completes "
                  "scores one point, even alone.",
                  "CPのみを囲んだ場合もポイントになります。"),
             Text("Complete the ring around the CP.", "CPのまわりの輪を完成させよう。"),
             ("BQ", "B2"),
             lambda b, a: a["captured"][0] == b["captured"][0] + 1,
             view=_rsg_view(["A3", "A5", "A7", "A9", "AJ"], ["A1"])),
        Step(g, "end", "6. The end and the score",
             Text("The end and the score", "終局と得点"),
             Text("The game ends when all 36 cells outside the CP are filled, or when neither "
                  "side can place. Your points are your stones on the board plus the stones "
                  "you captured; the higher total wins, equal totals go to more captures.",
                  "CPを除く36マスが埋まるか、両者とも置けなくなれば終局。盤上の石と取った石の合計が多い方の"
                  "勝ちです。"),
             Text("One cell is left. End the game now, with Black ahead.",
                  "残りは1マス。黒がリードしたまま、今ここで終局させよう。"),
             ("A3[B]",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             moves=tuple(RSG_END.split()),
             hint=Text("With the CP called White a stone is captured, a cell empties, and the "
                       "game goes on. Call Black.",
                       "CPを白とコールすると石が取られてマスが空き、対局が続きます。黒とコールしよう。")),
        Step(g, "ko", "7. Ko",
             Text("Ko", "コウ"),
             Text("No move may bring back the position just before the last move, nor any "
                  "position seen before. Here B1 with the CP called White would recreate the "
                  "previous position, so only the other call is allowed.",
                  "1手前と同じ盤面、一度現れた盤面に戻る手は打てません。"),
             Text("Play B1 with the call that ko allows.", "コウで許される方のコールで B1 に打とう。"),
             ("B1[B]",),
             lambda b, a: _cell(a, "B1") == "B" and _cell(a, "A7") == "W",
             view=_rsg_view(["B7"], ["A1", "A7"],
                            previous=_rsg_board(["B1", "A1", "A7", "B7"], []))),
    ))


# ---- FlipFlop --------------------------------------------------------------------------------

def _ff_view(position: str) -> dict[str, Any]:
    return {"position": position, "history": [], "moves": []}


def _flipflop() -> Tutorial:
    g = "flipflop"
    return Tutorial(g, (
        Step(g, "flip", "moving and flipping",
             Text("Move, then flip", "動いたら裏返る"),
             Text("Every piece is a rook (+) on one face and a bishop (×) on the other; after "
                  "each move the piece that moved turns over.",
                  "駒は表が飛車（＋）、裏が角（×）。動くたびに裏返ります。"),
             Text("Move a rook one step forward and watch it become a bishop.",
                  "飛車を1つ前に進めて、角に変わるのを見よう。"),
             ("Ra1-a2", "Rb1-b2", "Rc1-c2"),
             lambda b, a: "B" in a["board"][1]),
        Step(g, "goal-capture", "capture only on the goal squares",
             Text("Capture on the goal squares only", "取れるのはゴールだけ"),
             Text("Pieces can be captured only on the two goal squares, the centres of the "
                  "home rows.", "駒を取れるのは、両陣の中央のゴールの上だけです。"),
             Text("Capture the piece on Black's home centre.", "黒陣中央の駒を取ろう。"),
             ("Rb1xb3",),
             lambda b, a: a["board"][0][1] == "B"),
        Step(g, "win", "winning",
             Text("Winning", "勝ち方"),
             Text("You win by holding the opponent's goal, or when the opponent has no legal "
                  "move after yours.", "相手のゴールを守り切るか、相手が動けなくなれば勝ちです。"),
             Text("Win in one move.", "1手で勝とう。"),
             ("Rb1xb3",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             view=_ff_view("1b1/3/1R1 w")),
    ))


# ---- Algo ------------------------------------------------------------------------------------

ALGO_SEED = 27
"""A deal where the opponent's row is b0 w5 b11 w11 and the player holds w1 b7 b9 b10 and
draws b1 (checked by the tests through the full state)."""


def _algo_up(view: View, row: int) -> int:
    return sum(1 for card in view["rows"][row] if card["up"])


def _algo() -> Tutorial:
    g = "algo"
    return Tutorial(g, (
        Step(g, "attack", "attacking",
             Text("Attack", "アタック"),
             Text("Everyone sees the colours of all cards but only their own numbers. Rows are "
                  "sorted, smallest on the left (black before white on equal numbers). Point "
                  "at a face-down card of the opponent and name its number.",
                  "カードの色は全員に見えますが、数字は自分のものだけ。列は左から小さい順（同じ数なら黒が左）。"
                  "相手の伏せたカードを指して数字を言います。"),
             Text("B1 is the opponent's smallest card, and black; you drew black 1. Name the "
                  "only smaller black number.",
                  "B1 は相手のいちばん小さい黒のカード。あなたが引いたのは黒の1。それより小さい黒の数字は？"),
             ("attack B1=0",),
             lambda b, a: bool(a["rows"][1][0]["up"]) and not b["rows"][1][0]["up"],
             seed=ALGO_SEED,
             hint=Text("Black 1 is in your hand, so a smaller black card can only be 0.",
                       "黒の1はあなたの手元。もっと小さい黒は0だけです。")),
        Step(g, "stay", "after a hit",
             Text("Go on, or stay", "続けるか、止めるか"),
             Text("After a hit you may attack again with the same drawn card, or stay: the "
                  "drawn card then joins your row face down and the turn passes.",
                  "当たったら同じカードでもう一度アタックするか、止めて引いたカードを伏せて並べます。"),
             Text("Stay, keeping your drawn card secret.", "止めて、引いたカードを伏せたまま並べよう。"),
             ("stay",),
             lambda b, a: a["to_move"] == 1 and _algo_up(a, 0) == 0
             and len(a["rows"][0]) == len(b["rows"][0]) + 1,
             moves=("attack B1=0",), seed=ALGO_SEED),
        Step(g, "miss", "missing",
             Text("A miss", "はずれ"),
             Text("A wrong number costs you: your drawn card joins your row face up, for "
                  "everyone to see, and the turn passes.",
                  "はずれると、引いたカードを表向きで自分の列に入れ、手番が移ります。"),
             Text("Name a wrong number — 11 for B2, say — and watch your drawn card turn "
                  "face up.", "はずれる数字を言ってみよう（たとえば B2 に 11）。引いたカードが表になります。"),
             ("attack B2=11",),
             lambda b, a: _algo_up(a, 0) == _algo_up(b, 0) + 1 and a["to_move"] == 1,
             seed=ALGO_SEED, many_ways=True),
    ))


# ---- Memory Matrix ---------------------------------------------------------------------------

MM_OPTIONS = {"variant": "2p"}
MM_SEED = 1
"""Two players, seed 1: blue on d4 and red on e4, blue to move (checked by the tests)."""


def _mm_cell(view: View, cell: str) -> str:
    """The face shown on ``cell`` (``d4``: column d, row 4 counted from the top)."""
    return str(view["board"][int(cell[1:]) - 1]["abcdefghij".index(cell[0])])


def _mm_count(view: View, face: str) -> int:
    return sum(row.count(face) for row in view["board"])


def _memory_matrix() -> Tutorial:
    g = "memory_matrix"
    return Tutorial(g, (
        Step(g, "colour", "5. Colour move",
             Text("Sandwich, and the piece turns white", "はさむと白になる"),
             Text("Place a piece colour side up so that it sandwiches pieces against your "
                  "nearest piece of your colour. Every sandwiched piece turns over — and an "
                  "opponent's piece turns WHITE, not to your colour.",
                  "自分の色のピースではさむと、はさんだピースはすべて裏返ります。相手のピースは"
                  "あなたの色ではなく白（中立）になります。"),
             Text("Sandwich the red piece.", "赤のピースをはさもう。"),
             ("f4",),
             lambda b, a: _mm_count(a, "R") < _mm_count(b, "R") and _mm_cell(a, "e4") == "W",
             options=MM_OPTIONS, seed=MM_SEED),
        Step(g, "white", "6. White move",
             Text("No colour left: play white", "色がないときは白で"),
             Text("Red has no piece showing red, so it cannot sandwich with its colour. It "
                  "takes part with the white face: a piece placed white side up sandwiches "
                  "coloured pieces against the nearest white piece, and they turn white.",
                  "自分の色がなくなってもパスせず、裏面（白）で参加します。白ではさんだピースは白になります。"),
             Text("Playing red: sandwich the blue piece next to the white one with a white "
                  "piece.", "赤として：白のピースで青のピースをはさもう。"),
             ("c4w", "g4w"),
             lambda b, a: _mm_count(a, "W") == _mm_count(b, "W") + 2,
             moves=("f4",), options=MM_OPTIONS, seed=MM_SEED, many_ways=True),
        Step(g, "memory", "9. Memory",
             Text("Remember what lies beneath", "下の色を覚えておく"),
             Text("A white piece hides the colour it had. Flip it again and that colour comes "
                  "back — whoever it belongs to. d4 was your blue piece before red's white "
                  "move turned it over.",
                  "白いピースの下には元の色が隠れています。もう一度裏返すとその色に戻ります。"
                  "d4 は赤の白い手で裏返される前、あなたの青でした。"),
             Text("Win your blue piece on d4 back.", "d4 の青を取り戻そう。"),
             ("b4",),
             lambda b, a: _mm_cell(a, "d4") == "B",
             moves=("f4", "c4w"), options=MM_OPTIONS, seed=MM_SEED),
    ))


# ---- Patapata Kamipen -------------------------------------------------------------------------

PP_OPTIONS = {"variant": "solo", "course": "1"}


def _pp_sheet(view: View) -> Mapping[str, Any]:
    return view["sheets"][0]  # type: ignore[no-any-return]


def _patapata() -> Tutorial:
    g = "patapata"
    return Tutorial(g, (
        Step(g, "clear", "clearing a task",
             Text("Clear a task", "お題をクリア"),
             Text("Each task is a small pattern of 〇 × ■. Write marks on the blank cells you "
                  "see in the 4×4 window so that the pattern appears there — in any place, "
                  "turned any way.",
                  "お題は〇×■の小さな模様。窓に見えている空きマスに記号を書き、模様が窓のどこかに現れれば"
                  "クリアです。"),
             Text("Clear the first task: ×× over 〇■.", "最初のお題（××／〇■）をクリアしよう。"),
             ("clear a1X b1X a2O b2B", "clear a1B b1O a2X b2X"),
             lambda b, a: a["course"]["number"] == b["course"]["number"] + 1,
             options=PP_OPTIONS, many_ways=True),
        Step(g, "switch", "switches",
             Text("Switches", "スイッチ"),
             Text("The sheet is folded into eight flaps. Flipping a switch turns one flap "
                  "over, and the window shows other printed cells there.",
                  "紙は8枚のフラップ（スイッチ）に折られています。スイッチを切り替えると、窓に別のマスが"
                  "現れます。"),
             Text("Flip a switch so that printed cell c1 shows in the window.",
                  "スイッチを切り替えて、窓に c1 のマスを出そう。"),
             ("switch 1L",),
             lambda b, a: (a["course"]["number"] == b["course"]["number"]
                           and any("c1" in row for row in _pp_sheet(a)["window"])),
             options=PP_OPTIONS),
        Step(g, "rotate", "rotating the sheet",
             Text("Turn the sheet", "紙を回す"),
             Text("You may turn the whole sheet; the window then shows the cells turned with "
                  "it, which lets a pattern fit another way.",
                  "紙全体を回すこともできます。窓の見え方が回り、模様を別の向きで作れます。"),
             Text("Turn the sheet a quarter turn clockwise.", "紙を時計回りに90度回そう。"),
             ("rotate 90",),
             lambda b, a: (a["course"]["number"] == b["course"]["number"]
                           and _pp_sheet(a)["rotation"] == 90),
             options=PP_OPTIONS),
    ))


TUTORIALS: dict[str, Callable[[], Tutorial]] = {
    "reversi": _reversi, "reverstargo": _reverstargo, "flipflop": _flipflop, "algo": _algo,
    "memory_matrix": _memory_matrix, "patapata": _patapata,
}


def tutorial(game_id: str) -> Tutorial:
    if game_id not in TUTORIALS:
        raise KeyError(f"no tutorial for {game_id!r}; tutorials: {', '.join(TUTORIALS)}")
    return TUTORIALS[game_id]()
