"""Classic Reversi / Othello: the reference game (the end of the Memory Matrix seed).

Rules: 8×8, d5/e4 Black and d4/e5 White at the start, Black moves first; a move places a
disc so that it brackets one or more straight runs of the opponent's discs, which flip; a
player with no such move must pass (``pass`` is then the only legal move); the game ends when
neither player can move; most discs wins, equal counts draw. See docs/rules/reversi.md.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

from ...core import BotLevel, Game, MalformedMoveError, Outcome, State, Why, why
from ...core.jsontypes import JSONMapping, JSONObject
from . import bitboard as bb
from .views import ReversiBoard, ReversiView, reversi_position, reversi_view

FILES = "abcdefgh"
PASS = -1
BLACK, WHITE = 0, 1
SEAT_NAMES = ("black", "white")
WHY: dict[str, str] = {
    "reversi.no_moves": "neither player can move",
    "reversi.full": "the board is full",
    "reversi.notation": "this is not a Reversi move: write a square a1–h8, or 'pass'",
    "reversi.no_pass": "a player may pass only when no placement is legal",
    "reversi.occupied": "{sq} is already occupied",
    "reversi.must_pass": "this player has no legal placement and must pass",
    "reversi.no_bracket": "a disc on {sq} would not bracket any run of {colour} discs",
}
"""The English of every code Reversi emits (end reasons and refused moves' rules)."""


def square_name(sq: int) -> str:
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> int:
    """``"d3"`` → 19. Raises MalformedMoveError for anything else."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345678":
        raise MalformedMoveError(
            f"{text!r} is not a Reversi move: write a square a1–h8, or 'pass'", move=text,
            why=why(WHY, "reversi.notation"))
    return (int(t[1]) - 1) * 8 + FILES.index(t[0])


class ReversiState(State[int]):
    """A position: the two bitboards, the side to move, and the last move (for views).

    The legal moves are computed on first use (``_moves``, ``None`` until then): search and
    perft create many states that are never asked — the leaves — and pay nothing for them."""

    __slots__ = ("black", "white", "turn", "_options", "last", "last_flips", "_moves")

    def __init__(self, black: int, white: int, turn: int, options: JSONMapping,
                 last: int | None = None, last_flips: int = 0) -> None:
        self.black = black
        self.white = white
        self.turn = turn
        self._options = options
        self.last = last
        self.last_flips = last_flips
        self._moves: tuple[int, ...] | None = None

    def _legal_tuple(self) -> tuple[int, ...]:
        """The legal moves: squares, ``(PASS,)`` for a forced pass, ``()`` once over."""
        moves = self._moves
        if moves is None:
            mine, theirs = (self.black, self.white) if self.turn == BLACK else \
                (self.white, self.black)
            mask = bb.legal_mask(mine, theirs)
            if mask:
                moves = tuple(bb.squares(mask))
            else:
                moves = (PASS,) if bb.legal_mask(theirs, mine) else ()
            self._moves = moves
        return moves

    @property
    def options(self) -> JSONMapping:
        return self._options

    # the protocol's to_move / is_over, without its two calls (MCTS asks at every ply)
    @property
    def to_move(self) -> int | None:
        moves = self._moves
        if moves is None:
            moves = self._legal_tuple()
        return self.turn if moves else None

    @property
    def is_over(self) -> bool:
        moves = self._moves
        if moves is None:
            moves = self._legal_tuple()
        return not moves

    # ---- hooks ---------------------------------------------------------------------------
    def _acting(self) -> tuple[int, ...]:
        moves = self._moves
        if moves is None:
            moves = self._legal_tuple()
        return (self.turn,) if moves else ()

    def _legal(self, seat: int) -> Sequence[int]:
        return self._legal_tuple()

    def _apply(self, move: int, seat: int) -> ReversiState:
        return self.child(move)

    def child(self, move: int, seat: int | None = None) -> ReversiState:
        """The protocol's unchecked step for search, without the seat lookup (the side to
        move is ``turn``): ``move`` must come from :meth:`legal_moves`."""
        if move == PASS:
            return ReversiState(self.black, self.white, 1 - self.turn, self._options, PASS, 0)
        bit = 1 << move
        if self.turn == BLACK:
            f = bb.flips(self.black, self.white, move)
            return ReversiState(self.black | f | bit, self.white ^ f, WHITE, self._options,
                                move, f)
        f = bb.flips(self.white, self.black, move)
        return ReversiState(self.black ^ f, self.white | f | bit, BLACK, self._options, move, f)

    def counts(self) -> tuple[int, int]:
        return self.black.bit_count(), self.white.bit_count()

    def _outcome(self) -> Outcome | None:
        if self._legal_tuple():
            return None
        b, w = self.counts()
        reason = why(WHY, "reversi.no_moves" if b + w < 64 else "reversi.full")
        return Outcome.from_scores((b, w), reason)

    def _move_text(self, move: int, seat: int | None) -> str:
        return "pass" if move == PASS else square_name(move)

    def _parse(self, text: str, seat: int) -> int:
        if text.strip().lower() == "pass":
            return PASS
        return parse_square(text)

    def _why_illegal(self, move: int, seat: int) -> Why:
        if move == PASS:
            return why(WHY, "reversi.no_pass")
        if (self.black | self.white) >> move & 1:
            return why(WHY, "reversi.occupied", sq=square_name(move))
        if self._legal_tuple() == (PASS,):
            return why(WHY, "reversi.must_pass")
        return why(WHY, "reversi.no_bracket", sq=square_name(move),
                   colour=SEAT_NAMES[1 - self.turn])

    def board_rows(self) -> list[str]:
        """Rank 8 first; ``B`` black, ``W`` white, ``.`` empty."""
        black, white = self.black, self.white
        return [_rank_text((black >> s & 0xFF) << 8 | (white >> s & 0xFF))
                for s in range(56, -8, -8)]

    def view(self, seat: int | None) -> ReversiView:
        return cast(ReversiView, super().view(seat))

    def _view(self, seat: int | None) -> ReversiBoard:
        b, w = self.counts()
        return {
            "board": self.board_rows(),
            "turn": SEAT_NAMES[self.turn],
            "counts": {"black": b, "white": w},
            "last_move": None if self.last is None else self._move_text(self.last, None),
            "flipped": [square_name(s) for s in bb.squares(self.last_flips)],
        }


@functools.cache
def _rank_text(pair: int) -> str:
    """One rank's text from its black byte (high) and white byte (low), file a first: every
    view sends the board as eight of these, and a cache of the (at most 6,561) rank patterns
    that occur turns 64 bit tests per view into 8 look-ups."""
    black, white = pair >> 8, pair & 0xFF
    return "".join("B" if black >> c & 1 else "W" if white >> c & 1 else "." for c in range(8))


class Reversi(Game):
    id = "reversi"
    title_en = "Reversi"
    title_ja = "リバーシ"
    summary = "Classic 8×8 Reversi/Othello: bracket runs of the other colour to flip them."
    summary_ja = "定番の8×8リバーシ（オセロ）。相手の石をはさんで裏返します。"
    rules_version = 1
    min_seats = max_seats = 2
    perfect_information = True
    default_level = "1"  # rated 1364 by the calibration, random 1003: beatable, not aimless
    bot_levels = tuple(
        BotLevel(str(n), f"Level {n}",
                 f"alpha-beta {n} plies in the midgame, exact endgame at {2 * n} empties",
                 f"レベル{n}")
        for n in range(1, 7)
    ) + (BotLevel("7", "Level 7",
                  "alpha-beta with an n-tuple evaluation learned by self-play (docs/learning.md),"
                  " win/loss/draw solved from 18 empties when it can be in half its time,"
                  " exact endgame at 12 empties; needs NumPy", "レベル7"),
         BotLevel("random", "Random", "a uniformly random legal move", "ランダム"))

    def _initial(self, options: JSONObject, seed: int) -> ReversiState:
        return ReversiState(bb.BLACK_START, bb.WHITE_START, BLACK, options)

    def perft(self, depth: int, options: JSONMapping | None = None) -> int:
        """Leaves at ``depth`` from the start (pass = one ply, finished game = one leaf)."""
        return bb.perft(bb.BLACK_START, bb.WHITE_START, depth)

    def state_from_view(self, view: JSONMapping) -> ReversiState:
        view = reversi_position(view)
        black = white = 0
        for i, row in enumerate(view["board"]):
            r = 7 - i
            for c, ch in enumerate(row):
                if ch == "B":
                    black |= 1 << (8 * r + c)
                elif ch == "W":
                    white |= 1 << (8 * r + c)
        turn = SEAT_NAMES.index(view["turn"])
        return ReversiState(black, white, turn, {})

    def render_view(self, view: JSONMapping) -> str:
        view = reversi_view(view)
        marks = {"B": "●", "W": "○", ".": "·"}
        legal = set(view.get("legal_moves", []))
        last = view.get("last_move")
        lines = ["   a b c d e f g h"]
        for i, row in enumerate(view["board"]):
            rank = 8 - i
            cells = []
            for c, ch in enumerate(row):
                name = FILES[c] + str(rank)
                mark = marks[ch]
                if ch == "." and name in legal:
                    mark = "*"
                cells.append(mark)
            lines.append(f"{rank}  " + " ".join(cells) + f"  {rank}")
        lines.append("   a b c d e f g h")
        counts = view["counts"]
        lines.append(f"● black {counts['black']}   ○ white {counts['white']}"
                     + (f"   last: {last}" if last else ""))
        return "\n".join(lines)


GAME = Reversi()
ReversiState.game = GAME
