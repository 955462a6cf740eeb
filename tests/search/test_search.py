"""Game-independent search on tiny games whose answers are known."""

from __future__ import annotations

from asobiba.core import Rng
from asobiba.search.adapter import HasPlayer, Terminates
from asobiba.search.alphabeta import AlphaBeta
from asobiba.search.mcts import ismcts, uct


class Nim(HasPlayer, Terminates):
    """Take 1-3 stones; taking the last stone wins. Positions: (stones, player)."""

    def moves(self, pos):
        return [k for k in (1, 2, 3) if k <= pos[0]]

    def play(self, pos, k):
        return (pos[0] - k, 1 - pos[1])

    def player(self, pos):
        return pos[1]

    def is_terminal(self, pos):
        return pos[0] == 0

    def terminal_value(self, pos):
        return -1.0  # the player to move at 0 stones has lost

    def returns(self, pos):
        loser = pos[1]
        return [0.0 if s == loser else 1.0 for s in (0, 1)]

    def evaluate(self, pos):
        return 0.0

    def key(self, pos):
        return pos


def test_alphabeta_solves_nim_exactly():
    """Multiples of four are lost for the player to move; otherwise take n mod 4."""
    ab = AlphaBeta(Nim())
    for n in range(1, 22):
        res = ab.search((n, 0), 30)
        assert res.complete
        if n % 4 == 0:
            assert res.value == -1.0
        else:
            assert res.value == 1.0 and res.move == n % 4


def test_alphabeta_time_limit_returns_a_legal_move():
    res = AlphaBeta(Nim()).search((400, 0), 400, time_limit=0.05)
    assert res.move in (1, 2, 3)


def test_uct_finds_the_winning_nim_move():
    for n in (5, 6, 7, 9):
        res = uct(Nim(), (n, 0), 3000, Rng(n))
        assert res.move == n % 4, (n, res.visits)


class HiddenCoin:
    """Player 0 must guess a coin it cannot see; the sample function knows only that the coin
    is heads with probability 3/4 (as the seat's information would say)."""

    def moves(self, pos):
        return ["heads", "tails"] if pos[1] is None else []

    def play(self, pos, move):
        return (pos[0], move)

    def player(self, pos):
        return 0

    def is_terminal(self, pos):
        return pos[1] is not None

    def returns(self, pos):
        return [1.0 if pos[0] == pos[1] else 0.0]


def test_ismcts_plays_the_likelier_hidden_world():
    def sample(rng):
        return ("heads" if rng.below(4) else "tails", None)

    res = ismcts(HiddenCoin(), sample, 0, 2000, Rng(1))
    assert res.move == "heads"
    assert res.visits["heads"] > res.visits["tails"]
