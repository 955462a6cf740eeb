"""Tic-tac-toe rules: 3×3, X (seat 0) moves first, three in a row (row, column or diagonal)
wins, a full board without a line is a draw. Moves are squares ``a1``–``c3`` (file a–c, rank
1–3, rank 3 at the top)."""

from __future__ import annotations

from collections.abc import Sequence

from asobiba.core import BotLevel, Game, MalformedMoveError, Outcome, RandomBot, State, Why, why
from asobiba.core.bot import Bot
from asobiba.core.jsontypes import JSONMapping, JSONObject

FILES = "abc"
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)
MARKS = ("X", "O")


def square_name(sq: int) -> str:
    """Square index (0 = a1, 8 = c3) → its name."""
    return FILES[sq % 3] + str(sq // 3 + 1)


def winner(cells: Sequence[str]) -> str | None:
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


class TicTacToeState(State[int]):
    __slots__ = ("cells", "_options")

    def __init__(self, cells: str, options: JSONMapping) -> None:
        self.cells = cells
        self._options = options

    @property
    def options(self) -> JSONMapping:
        return self._options

    @property
    def turn(self) -> int:
        return (9 - self.cells.count(".")) % 2

    def _acting(self) -> tuple[int, ...]:
        if winner(self.cells) or "." not in self.cells:
            return ()
        return (self.turn,)

    def _legal(self, seat: int) -> Sequence[int]:
        return tuple(i for i, c in enumerate(self.cells) if c == ".")

    def _apply(self, move: int, seat: int) -> TicTacToeState:
        cells = self.cells[:move] + MARKS[seat] + self.cells[move + 1:]
        return TicTacToeState(cells, self._options)

    def _outcome(self) -> Outcome | None:
        if self._acting():
            return None
        won = winner(self.cells)
        if won is None:
            return Outcome((0.0, 0.0), (1, 1), "the board is full")
        seat = MARKS.index(won)
        scores = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
        return Outcome.from_scores(scores, "three in a row")

    def _move_text(self, move: int, seat: int | None) -> str:
        return square_name(int(move))

    def _parse(self, text: str, seat: int) -> int:
        t = text.strip().lower()
        if len(t) != 2 or t[0] not in FILES or t[1] not in "123":
            raise MalformedMoveError(f"{text!r} is not a square a1–c3", move=text)
        return FILES.index(t[0]) + 3 * (int(t[1]) - 1)

    def _why_illegal(self, move: int, seat: int) -> Why:
        # a refused move's rule is a code with arguments, its English from the game's table
        return why({"tictactoe.taken": "{sq} is already taken"}, "tictactoe.taken",
                   sq=square_name(int(move)))

    def _view(self, seat: int | None) -> JSONObject:
        rows = [self.cells[3 * r:3 * r + 3] for r in (2, 1, 0)]
        return {"board": rows, "turn": MARKS[self.turn]}


class PerfectBot(Bot):
    """Plays a move of the best value by full minimax (the tree is tiny)."""

    name = "perfect"

    def choose(self, view: JSONMapping) -> str:
        state = GAME.state_from_view(view)
        values = move_values(state)
        best = max(values.values())
        return min(m for m, v in values.items() if v == best)


def _value(state: TicTacToeState) -> int:
    """The value for the side to move: +1 win, 0 draw, −1 loss."""
    if state.is_over:
        won = winner(state.cells)
        return 0 if won is None else -1  # the side that just moved made the line
    return max(-_value(state._apply(m, state.turn)) for m in state._legal(state.turn))


def move_values(state: TicTacToeState) -> dict[str, float]:
    return {square_name(m): float(-_value(state._apply(m, state.turn)))
            for m in state._legal(state.turn)}


class TicTacToe(Game):
    id = "tictactoe"
    title_en = "Tic-tac-toe"
    title_ja = "三目並べ"
    summary = "Three in a row on 3×3 (a test game, not shipped)."
    min_seats = max_seats = 2
    bot_levels = (BotLevel("random", "Random"), BotLevel("perfect", "Perfect"))

    def _initial(self, options: JSONObject, seed: int) -> TicTacToeState:
        return TicTacToeState("." * 9, options)

    def state_from_view(self, view: JSONMapping) -> TicTacToeState:
        rows = view["board"]
        return TicTacToeState("".join(rows[2 - r] for r in range(3)), {})

    def from_position(self, position: str, options: JSONMapping | None = None
                      ) -> TicTacToeState:
        """Rows top first joined by ``/``: ``"X../.O./..."``."""
        rows = position.strip().split("/")
        if len(rows) != 3 or any(len(r) != 3 or set(r) - set(".XO") for r in rows):
            raise ValueError(f"position {position!r}: three rows of three of . X O")
        return TicTacToeState("".join(rows[2 - r] for r in range(3)),
                              self.validate_options(options))

    def render_view(self, view: JSONMapping) -> str:
        return "\n".join(f"{3 - i} {' '.join(row)}" for i, row in enumerate(view["board"])) \
            + "\n  a b c"

    def make_bot(self, level: str, seed: int = 0) -> Bot:
        if level == "random":
            return RandomBot(seed)
        if level == "perfect":
            return PerfectBot(seed)
        raise ValueError(f"tictactoe has no bot level {level!r}; levels: random, perfect")


GAME = TicTacToe()
TicTacToeState.game = GAME
