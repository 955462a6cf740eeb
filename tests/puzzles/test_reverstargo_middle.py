"""ReverStarGo's middle-game puzzles (issue 29 item 2): switched on, proven by null windows.
The cheap proof must say exactly what the full-window values say (the same criterion), and
the shipped set must hold middle-game puzzles beside the endings."""

from __future__ import annotations

import random

from asobiba.core.hooks import Verdict
from asobiba.games import get
from asobiba.games.reverstargo.progression import PROGRESSION
from asobiba.games.reverstargo.puzzles import (
    BEST_MIN,
    EXACT_EMPTIES,
    SCALE,
    WIN,
    ReverStarGoJudge,
    _empties,
    blunder_bound,
    chance,
)
from asobiba.puzzles import load_set, unique_best, verify


def full_window(judge: ReverStarGoJudge, state: object) -> str | None:
    """The criterion from every move's full-window value (the old, costly way)."""
    values = judge.exact.move_values(state)  # type: ignore[arg-type]
    best = max(values, key=lambda m: (values[m], m))
    shallow = judge.shallow.move_values(state)  # type: ignore[arg-type]
    if max(shallow, key=lambda m: (shallow[m], m)) != best or values[best] < BEST_MIN:
        return None
    bound = WIN - 1 if values[best] >= WIN else blunder_bound(values[best])
    return best if all(v <= bound for m, v in values.items() if m != best) else None


def test_the_scale_is_the_games_review_scale() -> None:
    assert PROGRESSION.thresholds is not None
    t = PROGRESSION.thresholds({})
    assert SCALE == t.scale
    # the bound: every other move loses the review's blunder band of winning chance
    for v in (0.0, 80.0, 200.0):
        assert chance(v) - chance(blunder_bound(v)) == __import__("pytest").approx(t.blunder)


def test_the_null_window_proof_agrees_with_full_windows() -> None:
    game = get("reverstargo")
    judge = ReverStarGoJudge()
    rng = random.Random(11)
    checked = found = 0
    for seed in range(14):
        s = game.new_game({}, seed)
        states = []
        while not s.is_over:
            states.append(s)
            s = s.play(s.move_text(rng.choice(list(s.legal_moves()))))
        for st in rng.sample(states, 5):
            if not judge.candidate(st) or _empties(st) <= EXACT_EMPTIES:
                continue
            verdict = judge.judge(st)
            assert unique_best(verdict) == full_window(judge, st)
            checked += 1
            found += verdict is not None
    assert checked >= 20 and found >= 1, (checked, found)


def test_a_move_that_is_not_clearly_best_gets_no_verdict() -> None:
    # hand-made: the margin comes from the best move's value
    v = Verdict({"a": 0.0, "b": -100.0}, exact=False, win_value=WIN,
                margin=0.0 - blunder_bound(0.0), best_min=BEST_MIN)
    assert unique_best(v) == "a"
    close = Verdict({"a": 0.0, "b": -50.0}, exact=False, win_value=WIN,
                    margin=0.0 - blunder_bound(0.0), best_min=BEST_MIN)
    assert unique_best(close) is None


def test_the_shipped_set_holds_middle_game_puzzles() -> None:
    puzzles = load_set("reverstargo")
    assert len(puzzles) >= 500
    middle = [p for p in puzzles if "middlegame" in p.themes]
    ending = [p for p in puzzles if "ending" in p.themes]
    assert len(middle) >= 100 and len(ending) >= 100, (len(middle), len(ending))
    for pz in random.Random().sample(middle, 8):
        assert not pz.exact and verify(pz) == [], pz
