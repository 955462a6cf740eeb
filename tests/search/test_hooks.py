"""Alpha-beta's optional hooks are declared by the protocols of asobiba.search.adapter and
checked when a searcher is built: a misspelt hook is an error, never a silent no-op (issue 26
item 5). On the old code (hooks found by ``getattr``) each refusal below built a searcher
that ignored the hook."""

from __future__ import annotations

import pytest

from asobiba.games.flipflop.search import FlipFlopAdapter
from asobiba.games.memory_matrix.bots import ParanoidAdapter
from asobiba.games.reversi.bots import ReversiAdapter
from asobiba.games.reverstargo.search import ReverStarGoAdapter
from asobiba.search.adapter import AdapterError, Orders, Passes, check_adapter
from asobiba.search.alphabeta import AlphaBeta


class Count:
    """Take 1 or 2; whoever takes the last wins. Positions: stones left."""

    def moves(self, pos: int) -> list[int]:
        return [k for k in (1, 2) if k <= pos]

    def play(self, pos: int, move: int) -> int:
        return pos - move

    def key(self, pos: int) -> int:
        return pos

    def evaluate(self, pos: int) -> float:
        return 0.0

    def terminal_value(self, pos: int) -> float:
        return -1.0


class Misspelt(Count):
    def ordr(self, pos: int, moves: list[int], first: int | None, depth: int) -> list[int]:
        return list(moves)


class MisspeltPass(Count):
    def pass_moves(self, pos: int) -> int | None:
        return None


class Undeclared(Count):
    def order(self, pos: int, moves: list[int], first: int | None, depth: int) -> list[int]:
        return list(moves)


class Declared(Count, Orders[int, int]):
    calls = 0

    def order(self, pos: int, moves: list[int], first: int | None, depth: int) -> list[int]:
        Declared.calls += 1
        return list(reversed(moves))


def test_a_misspelt_hook_is_refused_when_the_searcher_is_built() -> None:
    with pytest.raises(AdapterError, match="ordr.*did you mean 'order'"):
        AlphaBeta(Misspelt())
    with pytest.raises(AdapterError, match="pass_moves.*did you mean 'pass_move'"):
        AlphaBeta(MisspeltPass())


def test_a_hook_must_be_declared_by_its_protocol() -> None:
    with pytest.raises(AdapterError, match="declare it with Orders"):
        AlphaBeta(Undeclared())


def test_a_declared_protocol_without_its_method_is_refused() -> None:
    class Forgot(Count, Passes[int]):
        def pass_moves(self, pos: int) -> int | None:  # the typo mypy flags as abstract
            return None

    with pytest.raises(AdapterError, match="declares Passes but has no 'pass_move'"):
        check_adapter(Forgot)


def test_a_declared_hook_is_used() -> None:
    Declared.calls = 0
    result = AlphaBeta(Declared()).search(7, 10)
    assert Declared.calls > 0
    assert result.value == 1.0 and result.move == 1  # 7 -> 6, a multiple of three


@pytest.mark.parametrize("cls", [FlipFlopAdapter, ParanoidAdapter, ReversiAdapter,
                                 ReverStarGoAdapter])
def test_every_game_adapter_passes_the_check(cls: type) -> None:
    check_adapter(cls)
