"""Exact deduction agrees with brute-force enumeration (property test on random small
positions of every variant), and is consistent with the truth in real games."""

from __future__ import annotations

from fractions import Fraction

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.algo.infer import Inconsistent, Knowledge, SlotInfo, infer, infer_view
from tests.algo.brute import brute_marginals

GAME = get("algo")


def random_knowledge(seed: int) -> tuple[Knowledge, dict[int, int]]:
    """A random small position and the true key of every hidden slot."""
    rng = Rng(seed, "infer-test")
    colours = 2 + rng.below(2)
    sets = 1 + rng.below(2)
    jokers = rng.below(2) == 1
    numbers = 7 + rng.below(2) if jokers else 4 + rng.below(5)
    kn = Knowledge(colours, sets, jokers, numbers)
    cards = [k for k in range(numbers * colours) for _ in range(sets)]
    rng.shuffle(cards)
    nrows = 1 + rng.below(3)
    truth: dict[int, int] = {}
    sid = 0
    hidden_budget = 6
    for _ in range(nrows + 1):          # one extra row plays "my own row": fully known
        size = 1 + rng.below(4)
        hand, cards = cards[:size], cards[size:]
        normal = sorted(k for k in hand if not kn.is_joker(k))
        row = list(normal)
        for j in (k for k in hand if kn.is_joker(k)):
            row.insert(rng.below(len(row) + 1), j)
        slots = []
        for k in row:
            known = hidden_budget <= 0 or rng.below(3) == 0
            fails = 0
            for _ in range(rng.below(3)):
                v = rng.below(numbers)
                if v != k // colours:
                    fails |= 1 << v
            if not known:
                hidden_budget -= 1
                truth[sid] = k
            slots.append(SlotInfo(sid, k % colours, k if known else None, fails))
            sid += 1
        kn.rows.append(slots)
    if cards and rng.below(2):
        kn.extra_known.append(cards[0])   # e.g. my drawn card
    return kn, truth


@pytest.mark.parametrize("seed", range(150))
def test_exact_marginals_equal_brute_force(seed: int) -> None:
    kn, truth = random_knowledge(seed)
    total, brute = brute_marginals(kn)
    result = infer(kn)
    assert result.total == total
    for sid in truth:
        assert result.exact(sid) == brute[sid], f"slot {sid}"
        assert result.exact(sid).get(truth[sid], Fraction(0)) > 0   # the truth is possible


def test_inconsistent_knowledge_is_reported() -> None:
    kn = Knowledge(2, 1, False, 4, [[SlotInfo(0, 0, 6), SlotInfo(1, 0, None)]])
    with pytest.raises(Inconsistent):
        infer(kn)          # nothing black is above black 3 in a 0..3 deck


@pytest.mark.parametrize("options", [{}, {"players": 4}, {"variant": "pair"},
                                     {"jokers": True}, {"sets": 2}, {"colours": 3},
                                     {"players": 5}])
def test_truth_always_possible_in_real_games(options: dict) -> None:
    """From every seat's view, every hidden card's true number has positive probability
    and probabilities sum to one."""
    for seed in range(3):
        s = GAME.new_game(options, seed)
        rng = Rng(seed, "walk")
        step = 0
        while not s.is_over:
            if step % 3 == 0:
                for seat in range(s.num_seats):
                    inf = infer_view(s.view(seat))
                    for row in s.rows:
                        for sid, key, _up in row:
                            if sid in inf.counts:
                                nums = inf.numbers(sid)
                                assert nums.get(key // s.colours, 0) > 0
                                assert abs(sum(nums.values()) - 1) < 1e-9
            moves = s.legal_moves().texts()
            s = s.play(moves[rng.below(len(moves))])
            step += 1


def test_fast_path_equals_general_path() -> None:
    """The lean no-joker programme and the general one agree on real positions."""
    for options in ({}, {"players": 4}, {"variant": "pair"}, {"sets": 2}):
        for seed in range(4):
            s = GAME.new_game(options, seed)
            rng = Rng(seed, "fast")
            for _ in range(6 + rng.below(10)):
                if s.is_over:
                    break
                moves = s.legal_moves().texts()
                s = s.play(moves[rng.below(len(moves))])
            for seat in range(s.num_seats):
                kn = Knowledge.from_view(s.view(seat))
                a, b = infer(kn), infer(kn, fast=False)
                assert a.total == b.total
                assert {k: v for k, v in a.counts.items()} == b.counts
