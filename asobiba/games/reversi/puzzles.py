"""Reversi's puzzle judge (docs/puzzles.md): exact endgames by the endgame solver.

A position is judged when 4–12 squares are empty (:data:`MIN_EMPTIES`, :data:`MAX_EMPTIES`):
every legal move's child is solved exactly by a null-window search around 0 (win, draw or loss
for the mover, proven), so "the only winning move" is proven, never guessed. The replies of the
line are the opponent's best by that value (the first in text order among equals)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core import State
from ...core.hooks import Verdict
from .bitboard import legal_mask
from .endgame import Solver, _make_search, final_score, flips
from .game import PASS, ReversiState, parse_square

MIN_EMPTIES = 4
MAX_EMPTIES = 12
CORNERS = frozenset({"a1", "h1", "a8", "h8"})
X_SQUARES = frozenset({"b2", "g2", "b7", "g7"})
C_SQUARES = frozenset({"a2", "b1", "g1", "h2", "a7", "b8", "g8", "h7"})


def _sides(state: ReversiState) -> tuple[int, int]:
    return (state.black, state.white) if state.turn == 0 else (state.white, state.black)


class ReversiJudge:
    def __init__(self) -> None:
        self.solver = Solver()
        self.search = _make_search(self.solver)

    selfplay_levels: tuple[str, ...] = ("random", "1")

    def candidate(self, state: State) -> bool:
        if not isinstance(state, ReversiState) or state.is_over:
            return False
        empties = 64 - (state.black | state.white).bit_count()
        return MIN_EMPTIES <= empties <= MAX_EMPTIES

    def _child_score(self, p: int, o: int, sq: int) -> int:
        """The exact result, for the mover, after ``p`` plays ``sq``: 1 a win, 0 a draw, −1 a
        loss — a null-window search around 0 (it proves the sign, far cheaper than the
        margin)."""
        f = flips(p, o, sq)
        p2, o2 = p | f | (1 << sq), o & ~f
        empties = 64 - (p2 | o2).bit_count()
        if not legal_mask(o2, p2):
            if not legal_mask(p2, o2):
                score = final_score(p2, o2)
            else:  # the opponent passes: p2 moves again
                score = self.search(p2, o2, -1, 1, empties)
        else:
            score = -self.search(o2, p2, -1, 1, empties)
        return (score > 0) - (score < 0)

    def judge(self, state: State) -> Verdict | None:
        if not isinstance(state, ReversiState) or state.is_over:
            return None
        empties = 64 - (state.black | state.white).bit_count()
        if empties > MAX_EMPTIES:
            return None
        if len(self.solver.tt) > 200_000:
            self.solver.tt.clear()
        p, o = _sides(state)
        moves = [m for m in state.legal_moves() if m != PASS]
        if not moves:
            return Verdict({"pass": 0.0}, exact=True, win_value=1.0)
        return Verdict({state.move_text(m): float(self._child_score(p, o, m)) for m in moves},
                       exact=True, win_value=1.0)

    def key(self, state: State) -> str:
        assert isinstance(state, ReversiState)
        return f"{state.black:016x}{state.white:016x}{state.turn}"

    def themes(self, state: State, line: Sequence[str]) -> list[str]:
        assert isinstance(state, ReversiState)
        first = line[0]
        tags = ["endgame", "exact"]
        if first in CORNERS:
            tags.append("corner")
        elif first in X_SQUARES:
            tags.append("x_square")
        elif first in C_SQUARES:
            tags.append("c_square")
        elif first[0] in "ah" or first[1] in "18":
            tags.append("edge")
        # parity: the move fills a quadrant holding an odd number of empties
        sq = parse_square(first)
        empty = ~(state.black | state.white) & ((1 << 64) - 1)
        quad = [s for s in range(64) if empty >> s & 1
                and (s // 8 >= 4, s % 8 >= 4) == (sq // 8 >= 4, sq % 8 >= 4)]
        if len(quad) % 2 == 1:
            tags.append("parity")
        after: ReversiState = state
        for i, mv in enumerate(line):
            after = after.child(after.parse(mv))
            if i % 2 == 0 and not after.is_over and list(after.legal_moves()) == [PASS]:
                tags.append("tempo")  # a player's move leaves the opponent no move
        if after.is_over and 0 in after.counts():
            tags.append("wipeout")
        tags.append("one_move" if len(line) == 1 else "long" if len(line) >= 5 else "short")
        return sorted(set(tags))


def make_judge(options: object) -> ReversiJudge:
    return ReversiJudge()
