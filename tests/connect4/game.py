"""Connect Four: 7 columns × 6 rows, Red (seat 0) drops first, four in a row (across, down or
diagonal) wins, a full board without a line is a draw. A move is a column ``a``–``g``; the
disc falls to the lowest empty cell. The add-a-game test (docs/architecture.md, "Adding a
game"): everything lives in this folder."""

from __future__ import annotations

from collections.abc import Sequence

from asobiba.core import (
    BotLevel,
    Game,
    IllegalMoveError,
    MalformedMoveError,
    Outcome,
    RandomBot,
    State,
    Why,
    why,
)
from asobiba.core.bot import Bot
from asobiba.core.jsontypes import JSONMapping, JSONObject

#: The end reasons as codes (their words are in web/words.json as "reason:<code>").
WHY = {"connect4.full": "the board is full", "connect4.four": "four in a row"}


def _why(code: str) -> Why:
    return why(WHY, code)

COLS, ROWS = 7, 6
FILES = "abcdefg"
DISCS = ("R", "Y")


def _lines() -> tuple[tuple[int, ...], ...]:
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLS for rr, cc in cells):
                    out.append(tuple(rr * COLS + cc for rr, cc in cells))
    return tuple(out)


LINES = _lines()


def winner(cells: str) -> str | None:
    for a, b, c, d in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c] == cells[d]:
            return cells[a]
    return None


class Connect4State(State[int]):
    """``cells``: row 0 (the bottom) first, ``COLS`` cells a row."""

    __slots__ = ("cells", "_options", "last")

    def __init__(self, cells: str, options: JSONMapping, last: int | None = None) -> None:
        self.cells = cells
        self._options = options
        self.last = last  # the cell of the last disc dropped

    @property
    def options(self) -> JSONMapping:
        return self._options

    @property
    def turn(self) -> int:
        return (ROWS * COLS - self.cells.count(".")) % 2

    def _acting(self) -> tuple[int, ...]:
        if winner(self.cells) or "." not in self.cells:
            return ()
        return (self.turn,)

    def _legal(self, seat: int) -> Sequence[int]:
        return tuple(c for c in range(COLS) if self.cells[(ROWS - 1) * COLS + c] == ".")

    def _apply(self, move: int, seat: int) -> Connect4State:
        row = next(r for r in range(ROWS) if self.cells[r * COLS + move] == ".")
        i = row * COLS + move
        return Connect4State(self.cells[:i] + DISCS[seat] + self.cells[i + 1:], self._options, i)

    def _outcome(self) -> Outcome | None:
        if self._acting():
            return None
        won = winner(self.cells)
        if won is None:
            return Outcome.coded((0.0, 0.0), (1, 1), _why("connect4.full"))
        scores = (1.0, 0.0) if won == DISCS[0] else (0.0, 1.0)
        return Outcome.from_scores(scores, _why("connect4.four"))

    def _move_text(self, move: int, seat: int | None) -> str:
        return FILES[int(move)]

    def _parse(self, text: str, seat: int) -> int:
        t = text.strip().lower()
        if len(t) != 1 or t not in FILES:
            raise MalformedMoveError(f"{text!r} is not a column a–g", move=text)
        return FILES.index(t)

    def _why_illegal(self, move: int, seat: int) -> str:
        return f"column {FILES[int(move)]} is full"

    def _view(self, seat: int | None) -> JSONObject:
        rows = [self.cells[r * COLS:(r + 1) * COLS] for r in reversed(range(ROWS))]
        last = None if self.last is None else FILES[self.last % COLS] + str(self.last // COLS + 1)
        return {"board": rows, "turn": DISCS[self.turn], "last_move": last}


class Connect4(Game):
    id = "connect4"
    title_en = "Connect Four"
    title_ja = "四目並べ"
    summary = "Drop discs, four in a row wins (a test game, not shipped)."
    summary_ja = "石を落として四つ並べれば勝ち（テスト用のゲーム）。"
    min_seats = max_seats = 2
    # a CPU's title carries its level (the lobby's rule since issue 27)
    bot_levels = (BotLevel("random", "Random", title_ja="ランダム"),
                  BotLevel("greedy", "Lv.1 Greedy", "wins at once, else blocks, else the centre",
                           "Lv.1 貪欲"))

    def _initial(self, options: JSONObject, seed: int) -> Connect4State:
        return Connect4State("." * (ROWS * COLS), options)

    def state_from_view(self, view: JSONMapping) -> Connect4State:
        rows = list(view["board"])
        last = view.get("last_move")
        cell = None if not last else (int(last[1:]) - 1) * COLS + FILES.index(last[0])
        return Connect4State("".join(reversed(rows)), {}, cell)

    def render_view(self, view: JSONMapping) -> str:
        return "\n".join(" ".join(row) for row in view["board"]) + "\n" + " ".join(FILES)

    def make_bot(self, level: str, seed: int = 0) -> Bot:
        if level == "random":
            return RandomBot(seed)
        if level == "greedy":
            return GreedyBot(seed)
        raise ValueError(f"{self.id} has no bot level {level!r}; levels: random, greedy")


class GreedyBot(Bot):
    """A column that wins now; else one that stops the opponent's win; else the one nearest
    the centre (perfect information: it rebuilds the state from its view)."""

    name = "greedy"

    def choose(self, view: JSONMapping) -> str:
        state = GAME.state_from_view(view)
        me = state.turn
        moves = sorted(state._legal(me), key=lambda c: abs(c - COLS // 2))
        for seat in (me, 1 - me):
            for col in moves:
                if winner(state._apply(col, seat).cells) == DISCS[seat]:
                    return FILES[col]
        return FILES[moves[0]]


GAME = Connect4()
Connect4State.game = GAME

__all__ = ["GAME", "Connect4", "Connect4State", "IllegalMoveError"]
