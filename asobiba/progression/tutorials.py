"""Interactive tutorials as data: per game, small positions that each teach one rule.

A :class:`Step` has a start position (moves from the start, a hand-made position given as a
view and rebuilt with ``game.state_from_view``, or one built by the game's own constructor),
a goal in words, the intended moves, and a check on the views before and after the player's
move. The web client shows the start view,
sends the player's move to :meth:`Step.attempt`, and shows the message. Everything goes
through the protocol: an illegal move gets the game's own typed error and its rule sentence.

Games: Reversi, ReverStarGo (the app's tutorial topics: placing and flipping, capture, the
wall rule, protection, the CP call, the CP ring point, ko), FlipFlop (movement, flipping,
blocking, capture on the goals, winning, repetition), Algo (attack, stay, miss, the sorted
row and the last card), Memory Matrix (colour runs, white moves, a lost colour, memory, the
end; hidden colours live only in the state, the player sees its own view) and Patapata
(clearing, switches, rotation, writing step by step, reuse, passing, the score). Each step's
``rule`` names the docs/rules section it teaches.
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
    seat: int | None = None
    """The seat the player played (show the position after the move from its view)."""


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
    build: Callable[[], State] | None = None
    """A hand-made start built by the game's own constructor (Memory Matrix layouts with
    hidden colours, FlipFlop positions with a history), when neither a view nor moves fit."""
    many_ways: bool = False
    """True when any move reaching the goal is right (the solutions are examples)."""

    def start(self) -> State:
        game = get_game(self.game)
        if self.build is not None:
            return self.build()
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
            return Attempt(False, Text(str(exc), str(exc)), state, seat)
        if self.check(state.view(seat), after.view(seat)):
            return Attempt(True, Text("Well done!", "よくできました！"), after, seat)
        hint = self.hint or Text("That move is legal, but it does not reach the goal. Try again.",
                                 "打てる手ですが、目標に届きません。もう一度どうぞ。")
        return Attempt(False, hint, state, seat)

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


FF_SAMPLE = "Rb1xb3 Ra3xb3 Ra1-a2 Bb3-c2 Rc1-a1 Rc2-b2 Ba2-b3"
"""The seed's sample game up to White's last move (docs/rules/flipflop.md, section 10)."""

FF_CYCLE = ("Rc3-b3", "Bc2-b1", "Bb3-a2", "Rb1-b2", "Ra2-a1", "Bb2-c1", "Ba1-c3", "Rc1-c2")
"""Eight moves from ``FF_CYCLE_START`` (Black to move) that come back to it."""
FF_CYCLE_START = "2r/2B/3 b"


def _ff_repeated() -> State:
    """``FF_CYCLE_START`` reached twice, and once more after White's next move: the cycle
    played twice but for its last move, which the player makes."""
    state: State = get_game("flipflop").from_position(FF_CYCLE_START)
    for move in (FF_CYCLE * 2)[:-1]:
        state = state.play(move)
    return state


def _ff_square(view: View, square: str) -> str:
    n = int(view["board_size"])
    return str(view["board"][n - int(square[1:])]["abcde".index(square[0])])


def _flipflop() -> Tutorial:
    g = "flipflop"
    return Tutorial(g, (
        Step(g, "flip", "5. Flipping",
             Text("Move, then flip", "動いたら裏返る"),
             Text("Every piece is a rook (+) on one face and a bishop (×) on the other; after "
                  "each move the piece that moved turns over.",
                  "駒は表が飛車（＋）、裏が角（×）。動くたびに裏返ります。"),
             Text("Move a rook one step forward and watch it become a bishop.",
                  "飛車を1つ前に進めて、角に変わるのを見よう。"),
             ("Ra1-a2", "Rb1-b2", "Rc1-c2"),
             lambda b, a: "B" in a["board"][1]),
        Step(g, "rook", "4. Movement",
             Text("The rook goes any distance", "飛車はどこまでも"),
             Text("A piece showing + moves like a rook: straight along its row or column, as "
                  "many squares as it likes.",
                  "＋の面の駒は飛車の動き。縦か横に、何マスでも進めます。"),
             Text("Move the rook from a1 to a3 in one move.", "1手で a1 の飛車を a3 まで動かそう。"),
             ("Ra1-a3",),
             lambda b, a: _ff_square(a, "a3") == "B",
             view=_ff_view("2r/3/R2 w"),
             hint=Text("A rook is not limited to one step: go straight up to a3.",
                       "飛車は1マスだけではありません。まっすぐ a3 まで進もう。")),
        Step(g, "bishop", "4. Movement",
             Text("The bishop goes diagonally", "角はななめに"),
             Text("A piece showing × moves like a bishop: diagonally, any distance. After the "
                  "move it turns over and shows + again.",
                  "×の面の駒は角の動き。ななめに何マスでも進めます。動いたら裏返って＋に戻ります。"),
             Text("Move the bishop from a1 to the far corner c3.",
                  "a1 の角を反対の隅 c3 まで動かそう。"),
             ("Ba1-c3",),
             lambda b, a: _ff_square(a, "c3") == "R",
             view=_ff_view("r2/3/B2 w"),
             hint=Text("Go all the way along the diagonal, to c3.", "ななめに c3 まで進もう。")),
        Step(g, "blocked", "4. Movement; 6. Capture only on the goal squares",
             Text("No jumping, no capture off the goals", "飛び越えられない・ゴール以外では取れない"),
             Text("Pieces cannot jump over pieces, and a piece that is not on a goal square "
                  "cannot be taken: it blocks like a wall. Black's piece on a2 shuts in your "
                  "rook on a1 from above (try Ra1-a3 or Ra1xa2 to see why).",
                  "駒は他の駒を飛び越えられません。ゴール以外のマスにいる駒は取れず、壁のようにふさぎます。"
                  "a2 の黒駒が a1 の飛車の上をふさいでいます（Ra1-a3 や Ra1xa2 を入力して確かめよう）。"),
             Text("Use your other rook: move it from c1 to c3.", "もう一方の飛車を c1 から c3 へ動かそう。"),
             ("Rc1-c3",),
             lambda b, a: _ff_square(a, "c3") == "B",
             view=_ff_view("3/r2/R1R w"),
             hint=Text("The rook on c1 has a free column: go straight up to c3.",
                       "c1 の飛車の列は空いています。c3 までまっすぐ進もう。")),
        Step(g, "goal-capture", "6. Capture only on the goal squares",
             Text("Capture on the goal squares only", "取れるのはゴールだけ"),
             Text("Pieces can be captured only on the two goal squares, the centres of the "
                  "home rows.", "駒を取れるのは、両陣の中央のゴールの上だけです。"),
             Text("Capture the piece on Black's home centre.", "黒陣中央の駒を取ろう。"),
             ("Rb1xb3",),
             lambda b, a: a["board"][0][1] == "B"),
        Step(g, "win", "7. Winning",
             Text("Winning", "勝ち方"),
             Text("You win by holding the opponent's goal, or when the opponent has no legal "
                  "move after yours.", "相手のゴールを守り切るか、相手が動けなくなれば勝ちです。"),
             Text("Win in one move.", "1手で勝とう。"),
             ("Rb1xb3",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             view=_ff_view("1b1/3/1R1 w")),
        Step(g, "retake", "7. Winning; 10. The seed's sample game",
             Text("Take the goal back", "ゴールを取り返す"),
             Text("The designer's sample game: White's × has just reached b3, Black's goal. "
                  "If it is still there after Black's move, White wins. Black must take it "
                  "back — and then White's last piece, the × on a1, is blocked by b2 and "
                  "cannot move: a player with no legal move loses.",
                  "作者の例の対局です。白の×が黒のゴール b3 に入りました。黒の手の後もそこに残れば白の勝ち。"
                  "黒はすぐに取り返さなければなりません。すると白の最後の駒（a1 の×）は b2 にふさがれて"
                  "動けず、動かせる駒がない白の負けです。"),
             Text("Playing Black: retake the goal and win.", "黒として：ゴールを取り返して勝とう。"),
             ("Rc3xb3",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [1],
             moves=tuple(FF_SAMPLE.split()),
             hint=Text("White's piece on b3 was left there, so White holds the goal. Take it "
                       "with the rook on c3.",
                       "b3 の白駒を残すと白の勝ちです。c3 の飛車で取ろう。")),
        Step(g, "repetition", "8. Repetition",
             Text("Three times the same: a draw", "同じ局面が3回で引き分け"),
             Text("The pieces have gone round in a circle: the position with your × on c2 "
                  "(Black to move) has already appeared twice. When the same position, with "
                  "the same side to move, appears a third time, the game is a draw.",
                  "駒がぐるりと一周しました。c2 にあなたの×がある局面（黒の手番）はもう2回現れています。"
                  "同じ局面（手番も同じ）が3回現れたら引き分けです。"),
             Text("Play Rc1-c2 and bring that position back a third time.",
                  "Rc1-c2 と指して、その局面を3回目に戻そう。"),
             ("Rc1-c2",),
             lambda b, a: bool(a["over"]) and bool(a["outcome"]["draw"]),
             build=_ff_repeated,
             hint=Text("Only Rc1-c2 brings back the position seen twice.",
                       "2回現れた局面に戻すのは Rc1-c2 だけです。")),
    ))


# ---- Algo ------------------------------------------------------------------------------------

ALGO_LAST = ("attack B1=0", "attack B2=5", "attack B3=11", "stay", "attack A3=8")
"""Seed 27: the player turns up three of B's cards and stays; B misses (its drawn black 3
goes face up): B's last face-down card is white, right of black 11."""

ALGO_SEED = 27
"""A deal where the opponent's row is b0 w5 b11 w11 and the player holds w1 b7 b9 b10 and
draws b1 (checked by the tests through the full state)."""


def _algo_up(view: View, row: int) -> int:
    return sum(1 for card in view["rows"][row] if card["up"])


def _algo() -> Tutorial:
    g = "algo"
    steps = (
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
        Step(g, "order", "1. Cards and rows; 3. A turn",
             Text("Sorted rows give cards away", "並び順から推理する"),
             Text("A drawn card goes into its sorted place (your black 1 went left of your "
                  "white 1: on equal numbers black is smaller). So the order tells: B's last "
                  "face-down card is white and lies right of black 11. A player whose cards "
                  "are all face up is out; the last one with a face-down card wins.",
                  "引いたカードは並び順の場所に入ります（あなたの黒1は白1の左へ。同じ数なら黒が小さい）。"
                  "B の最後の伏せ札は白で、黒11の右にあります。全部表になった人は脱落、最後まで伏せ札が"
                  "残った人の勝ちです。"),
             Text("Name B's last card and win.", "B の最後のカードを当てて勝とう。"),
             ("attack B5=11",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             moves=ALGO_LAST, seed=ALGO_SEED,
             hint=Text("A white card right of black 11 can only be white 11.",
                       "黒11より右の白は、白11しかありません。")),
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
    )
    order = ("attack", "stay", "miss", "order")
    return Tutorial(g, tuple(sorted(steps, key=lambda s: order.index(s.key))))


# ---- Memory Matrix ---------------------------------------------------------------------------

MM_OPTIONS = {"variant": "2p", "start_pieces": 1}
MM_SEED = 1
"""Two players with one start piece each (the two-player default starts with two: the
simplest position teaches best), seed 1: blue on d4 and red on e4, blue to move (checked by
the tests)."""


def _mm_cell(view: View, cell: str) -> str:
    """The face shown on ``cell`` (``d4``: column d, row 4 counted from the top)."""
    return str(view["board"][int(cell[1:]) - 1]["abcdefghij".index(cell[0])])


def _mm_count(view: View, face: str) -> int:
    return sum(row.count(face) for row in view["board"])


MM_SMALL = {"players": 2, "shape": "6x6"}
"""Hand-made positions on the 6×6 board, two players (white any time on, the default)."""


def _mm_layout(rows: Sequence[str], options: Mapping[str, Any],
               to_move: str = "B") -> Callable[[], State]:
    """A hand-made position in the ``under`` notation (lower case: white side up over that
    colour), blue to move. Only the state knows the hidden colours; views show ``W``."""
    def build() -> State:
        game: Any = get_game("memory_matrix")
        return game.from_layout(rows, to_move, options)  # type: ignore[no-any-return]

    return build


def _memory_matrix() -> Tutorial:
    g = "memory_matrix"
    steps = (
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
        Step(g, "run", "5. Colour move",
             Text("Through white, up to your nearest piece", "白も越えて、いちばん近い自分の色まで"),
             Text("A run may hold any pieces — other colours and white ones — and it ends at "
                  "the NEAREST piece showing your colour. Here c3 is white, but it is your "
                  "blue piece turned over earlier; e3 is red, beyond your blue d3.",
                  "はさむ列には他の色も白も入れます。列が終わるのは、いちばん近い自分の色のピースです。"
                  "c3 は白ですが、前に裏返されたあなたの青です。e3 の赤は d3 の青の向こう側です。"),
             Text("Win c3 back with one blue piece.", "青のピース1つで c3 を取り戻そう。"),
             ("a3",),
             lambda b, a: _mm_cell(a, "c3") == "B" and _mm_cell(a, "e3") == "R"
             and _mm_cell(a, "b3") == "W",
             build=_mm_layout(["......", "......", ".RbBRB", "......", "......", "......"],
                              MM_SMALL),
             hint=Text("Placed white, the piece turns c3 white for good. Place it blue side up.",
                       "白で置くと c3 は白のままです。青の面を上にして置こう。")),
        Step(g, "white-sandwich", "6. White move and white anywhere",
             Text("No colour move: sandwich with white", "色で置けないときは白ではさむ"),
             Text("Your only blue piece, a1, cannot end any run, so blue has no colour move. "
                  "Only then you place a piece white side up: it sandwiches coloured pieces "
                  "against the nearest white piece, and they turn white. (In this game white "
                  "moves are allowed only when no colour move exists.)",
                  "青のピースは a1 だけで、どこに置いてもはさめません。そのときだけ白の面を上にして置き、"
                  "いちばん近い白のピースとの間の色のピースをはさんで白にします（この対局では、色で置けない"
                  "ときだけ白で置けます）。"),
             Text("Turn both red pieces white.", "赤のピースを2つとも白にしよう。"),
             ("d4w",),
             lambda b, a: _mm_count(a, "R") == _mm_count(b, "R") - 2,
             build=_mm_layout(["B.....", "......", "......", "*RR...", "......", ".....R"],
                              {**MM_SMALL, "white_any_time": False})),
        Step(g, "white-any-time", "6. White move and white anywhere (white_any_time)",
             Text("Two players: white at any time", "2人なら白はいつでも"),
             Text("In a two-player game (one colour each) white sandwiches are allowed at "
                  "any time, even when you have a colour move. Blue e3 would whiten only e2; "
                  "a white piece can do more here, sandwiching against the white piece a4.",
                  "2人対戦（1人1色）では、色で置ける手があっても、いつでも白ではさめます。青の e3 では "
                  "e2 しか白になりませんが、ここでは a4 の白を使って白ではさむ方が多く返せます。"),
             Text("Turn the red pieces b4 and c4 white with one move.",
                  "1手で b4 と c4 の赤を白にしよう。"),
             ("d4w",),
             lambda b, a: _mm_cell(a, "b4") == "W" and _mm_cell(a, "c4") == "W",
             build=_mm_layout(["....B.", "....R.", "......", "*RR...", "......", "......"],
                              MM_SMALL),
             hint=Text("A colour move cannot reach row 4 here; place a white piece on d4.",
                       "色の手では4行目に届きません。d4 に白で置こう。")),
        Step(g, "lost", "7. A colour with no piece face up; 6. White anywhere",
             Text("No blue left: you still play", "青がなくなってもパスしない"),
             Text("Every blue piece lies white side up, so blue has no colour move, and no "
                  "coloured run can be sandwiched against a white piece either. You do not "
                  "pass: place a piece white side up anywhere. (Under the adults' rule, "
                  "option lost_colour=pass, a colour with no piece face up passes instead.)",
                  "青のピースはすべて白になっていて、色ではさめず、白ではさめる列もありません。"
                  "それでもパスせず、白の面を上にして好きな所に置きます（大人向けルールではパスします）。"),
             Text("Place a white piece anywhere.", "白のピースを好きな所に置こう。"),
             ("c4w", "a6w"),
             lambda b, a: _mm_count(a, "W") == _mm_count(b, "W") + 1
             and _mm_count(a, "R") == _mm_count(b, "R"),
             build=_mm_layout(["b.....", "......", "..b...", "......", "......", ".....R"],
                              MM_SMALL),
             many_ways=True),
        Step(g, "end", "8. End and result",
             Text("The end and the score", "終局と得点"),
             Text("The game ends when every cell is filled. Your score is the number of "
                  "pieces showing your colour; white pieces count for nobody, whatever lies "
                  "beneath. Blue has 2 pieces showing, red 3, and one cell is left.",
                  "全部のマスが埋まったら終わり。得点は自分の色を見せているピースの数で、白いピースは"
                  "下が何色でも誰の得点にもなりません。今は青2・赤3、残りは1マスです。"),
             Text("Fill the last cell and win.", "最後のマスを埋めて勝とう。"),
             ("c1",),
             lambda b, a: bool(a["over"]) and a["outcome"]["winners"] == [0],
             build=_mm_layout(["BR.", "RBR", "r*b"],
                              {"players": 2, "shape": "custom", "mask": "###/###/###"}),
             hint=Text("A white piece on c1 whitens c2 but leaves b1 red: 1 to 2. Place it blue "
                       "side up to flip b1.",
                       "c1 に白で置くと c2 は白になりますが b1 は赤のまま（1対2）。青で置いて b1 を返そう。")),
    )
    order = ("colour", "run", "white-sandwich", "white-any-time", "white", "lost", "memory",
             "end")
    return Tutorial(g, tuple(sorted(steps, key=lambda s: order.index(s.key))))


# ---- Patapata Kamipen -------------------------------------------------------------------------

PP_OPTIONS = {"variant": "solo", "course": "1"}
PP_TASK1 = "clear a1X b1X a2O b2B"
PP_COURSE = ("clear a1X b1X a2O b2B | clear d2X a3O b3B a4O | clear e2B f2B d3X e3X | "
             "clear g3B b4O e4O | clear e1X f1B g2O | clear c1O d1O | clear h2X f3X | "
             "clear h3X f4O | clear | clear | clear")
"""Course 1 played by the greedy bot up to the last task (seed 0)."""


def _pp_marks(view: View) -> int:
    return sum(len(row) - row.count(".") for row in _pp_sheet(view)["marks"])


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
        Step(g, "write", "4. Clearing a task (step by step)",
             Text("One mark at a time", "1つずつ書く"),
             Text("You may also write the marks one by one (write a1X). Every mark written for "
                  "a task must be part of it (Q2): a mark the pattern cannot use is refused. "
                  "The task is cleared as soon as the pattern shows.",
                  "記号を1つずつ書くこともできます（write a1X）。お題に使わない記号は書けません（Q2）。"
                  "模様が窓に現れたらすぐにクリアです。"),
             Text("Three marks are written: write the fourth to finish the pattern ×× over 〇■.",
                  "3つ書きました。4つ目を書いて模様（××／〇■）を完成させよう。"),
             ("write b2B",),
             lambda b, a: a["course"]["number"] == b["course"]["number"] + 1,
             moves=("write a1X", "write b1X", "write a2O"), options=PP_OPTIONS,
             hint=Text("The missing cell is b2, and the pattern needs ■ there.",
                       "足りないのは b2 の■です。")),
        Step(g, "reuse", "4. Clearing a task (reusing marks)",
             Text("Reuse what is written", "書いた記号を使い回す"),
             Text("Marks already on the sheet may be part of the next pattern: write 1 to 3 "
                  "marks, or none, if the rest are there. Marks are never erased, and no "
                  "mirror images (a turned pattern is fine).",
                  "すでに書いた記号をお題に再利用できます。1～3個だけ書いても、1つも書かなくてもOK。"
                  "記号は消せません。鏡に映した形はだめですが、回した形はOKです。"),
             Text("Clear task 2 (〇〇 over ■× shifted) writing fewer than four marks.",
                  "お題2を、4つより少ない記号でクリアしよう。"),
             ("clear c1O d1O e2X", "clear c2O d2B c3O"),
             lambda b, a: (a["course"]["number"] == b["course"]["number"] + 1
                           and _pp_marks(a) < _pp_marks(b) + 4),
             moves=(PP_TASK1,), options=PP_OPTIONS, many_ways=True,
             hint=Text("That writes four new marks. Find a way that uses a mark already on "
                       "the sheet.", "新しく4つ書いています。もう書いてある記号を使う置き方を探そう。")),
        Step(g, "pass", "5. Passing",
             Text("Passing", "パス"),
             Text("You may give up a task and pass. It costs the no-pass bonus: 5 points with "
                  "no pass, 2 with one, none with two or more.",
                  "お題をあきらめてパスできます。ただしパスなしボーナス（0回5点、1回2点、2回以上0点）が減ります。"),
             Text("Give up task 2.", "お題2をパスしよう。"),
             ("pass",),
             lambda b, a: (a["course"]["number"] == b["course"]["number"] + 1
                           and _pp_sheet(a)["passes"] == 1),
             moves=(PP_TASK1,), options=PP_OPTIONS,
             hint=Text("Type pass to give up the task.", "pass と入力しよう。")),
        Step(g, "score", "6. Scoring",
             Text("The end and the score", "終了と得点"),
             Text("After the 12th task the score is counted: for each mark its largest group "
                  "(orthogonally connected, under the best switches: 3 → 1 point, 6 → 8), "
                  "plus the most blank cells visible at once (4 → 3, 8 or more → 10), plus "
                  "the no-pass bonus.",
                  "12問目のあとに得点を数えます。記号ごとの最大の塊（縦横につながったもの：3個で1点、6個で8点）"
                  "＋同時に見える空白の数（4個で3点、8個以上で10点）＋パスなしボーナスです。"),
             Text("Clear the last task without passing and see your score.",
                  "パスせずに最後のお題をクリアして、得点を見よう。"),
             ("clear c3O d4B", "clear c2B"),
             lambda b, a: bool(a["over"]) and _pp_sheet(a)["passes"] == 0,
             moves=tuple(m.strip() for m in PP_COURSE.split("|")), options=PP_OPTIONS,
             many_ways=True,
             hint=Text("A pass now would cost the 5-point bonus: clear the task.",
                       "今パスするとボーナス5点を失います。クリアしよう。")),
    ))


TUTORIALS: dict[str, Callable[[], Tutorial]] = {
    "reversi": _reversi, "reverstargo": _reverstargo, "flipflop": _flipflop, "algo": _algo,
    "memory_matrix": _memory_matrix, "patapata": _patapata,
}


def tutorial(game_id: str) -> Tutorial:
    if game_id not in TUTORIALS:
        raise KeyError(f"no tutorial for {game_id!r}; tutorials: {', '.join(TUTORIALS)}")
    return TUTORIALS[game_id]()
