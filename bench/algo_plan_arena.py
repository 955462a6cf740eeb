"""Algo levels 6–8 (``games/algo/plan.py``, ``rollout.py``) against equals and below:
two-player games (the hero's seat alternating, game ``i``: seat ``i % 2``); four-player
games, one hero against three copies of another level, the hero's seat rotating (game
``i``: seat ``i % 4``); pair play, a pair of the hero's level against a pair of another, the pairs kept
together and alternating (game ``i``: the hero pair sits at seats ``i % 2`` and
``i % 2 + 2``). Game seeds are ``first .. first+n-1``, bot seeds ``10·i + seat``; every bot
has a fixed budget (no clock), so the result does not depend on the machine's load.

``--paired BASE`` replays every game with level ``BASE`` in the hero's seats (same seeds):
the per-seed difference measures the hero's decisions without the deal's noise.

Prints wins with a 95 % Wilson interval (parity: 25 % four-player, 50 % pairs), CPU seconds
beside wall seconds and the load average.

Usage: python bench/algo_plan_arena.py MODE HERO OPP [games=400] [first=0] [--paired BASE]
    MODE: four | pair | two;  HERO / OPP: a level ("2", "4", "6") or "6:beta=0.5,evidence=0",
    or one of bench/algo_value.py's bots: "learned", "6:bonus=1", "lookahead", or level 8
    without its clock: "rollout" or "rollout:deals=48,top=3,gate=0" (games/algo/rollout.py)
"""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

from asobiba.core import Bot
from asobiba.games import get
from asobiba.games.algo.plan import AlgoPlanBot
from asobiba.games.algo.rollout import DEALS, GATE, TOP, AlgoRolloutBot
from asobiba.play.runner import play_game

GAME = get("algo")


def make(spec: str, seed: int) -> Bot:
    """A bot of level ``spec``; ``6:beta=X,evidence=0|1`` sets level 6's parameters."""
    level, _, args = spec.partition(":")
    if level == "rollout":   # level 8 without its clock: rollout or rollout:deals=D,top=T,gate=Z
        kw = dict(a.split("=") for a in args.split(",")) if args else {}
        return AlgoRolloutBot(seed, int(kw.get("deals", DEALS)), int(kw.get("top", TOP)),
                              float(kw.get("gate", GATE)))
    if level == "lookahead":   # lookahead or lookahead:deals=D,top=T
        from algo_value import LookaheadBot

        kw = dict(a.split("=") for a in args.split(",")) if args else {}
        return LookaheadBot(seed, int(kw.get("deals", 6)), int(kw.get("top", 3)))
    if level == "learned" or "bonus=" in args:   # the experiment of bench/algo_value.py
        from algo_value import LearnedPlanBot, PairBonusBot

        if level == "learned":   # learned or learned:weights=FILE
            return LearnedPlanBot(seed, *([Path(args.partition("weights=")[2])] if args else []))
        return PairBonusBot(seed, float(args.partition("bonus=")[2].split(",")[0]))
    if level == "6" and args:
        kw = dict(a.split("=") for a in args.split(","))
        return AlgoPlanBot(seed, beta=float(kw.get("beta", 1.0)),
                           evidence=kw.get("evidence", "1") == "1",
                           follow=int(kw.get("follow", 0)),
                           candidates=int(kw.get("candidates", 8)),
                           choices=float(kw.get("choices", 0)))
    return GAME.make_bot(level, seed)


def wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def one(mode: str, i: int, hero: str, opp: str) -> int:
    """1 if the hero (pair) came first in game ``i``."""
    if mode == "two":
        me = i % 2
        bots = [make(hero if s == me else opp, i * 10 + s) for s in range(2)]
        outcome = play_game(GAME, bots, {}, seed=i).states[-1].outcome
        assert outcome is not None
        return int(outcome.ranks[me] == 1)
    if mode == "four":
        me = i % 4
        bots = [make(hero if s == me else opp, i * 10 + s) for s in range(4)]
        outcome = play_game(GAME, bots, {"players": 4}, seed=i).states[-1].outcome
        assert outcome is not None
        return int(outcome.ranks[me] == 1 and sum(r == 1 for r in outcome.ranks) == 1)
    team = i % 2
    bots = [make(hero if s % 2 == team else opp, i * 10 + s) for s in range(4)]
    outcome = play_game(GAME, bots, {"variant": "pair"}, seed=i).states[-1].outcome
    assert outcome is not None
    return int(outcome.ranks[team] == 1)


def main() -> None:
    argv = list(sys.argv[1:])
    base = None
    if "--paired" in argv:
        k = argv.index("--paired")
        base = argv[k + 1]
        del argv[k:k + 2]
    mode, hero, opp = argv[:3]
    games = int(argv[3]) if len(argv) > 3 else 400
    first = int(argv[4]) if len(argv) > 4 else 0
    cpu, wall = time.process_time(), time.perf_counter()
    load0 = os.getloadavg()[0]
    wins, other = [], []
    for i in range(first, first + games):
        wins.append(one(mode, i, hero, opp))
        if base is not None:
            other.append(one(mode, i, base, opp))
        # a running tally on stderr, so a run cut short still tells what it played
        print(f"seed {i}: hero {wins[-1]}" + (f", base {other[-1]}" if other else "")
              + f"; {sum(wins)}/{len(wins)}, cpu {time.process_time() - cpu:.0f} s",
              file=sys.stderr, flush=True)
    k = sum(wins)
    lo, hi = wilson(k, games)
    parity = 0.25 if mode == "four" else 0.5
    what = {"four": "one {h} vs three {o}", "two": "{h} vs {o}, two players",
            "pair": "a {h} pair vs a {o} pair"}[mode].format(
        h=f"level {hero}", o=f"level {opp}")
    print(f"{mode}: {what}: {k} wins of {games} = {k / games:.1%} "
          f"(95% {lo:.1%}–{hi:.1%}; parity {parity:.0%}), seeds {first}..{first + games - 1}")
    if base is not None:
        kb = sum(other)
        d = [a - b for a, b in zip(wins, other, strict=True)]
        mean = sum(d) / games
        var = sum((x - mean) ** 2 for x in d) / max(1, games - 1)
        half = 1.96 * math.sqrt(var / games)
        print(f"  same games, level {base} in the hero's seat: {kb} wins; paired difference "
              f"{mean:+.3f} ± {half:.3f} (95%), {sum(1 for x in d if x)} games differ "
              f"(+{sum(1 for x in d if x > 0)} / -{sum(1 for x in d if x < 0)})")
    print(f"  cpu {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load average {load0:.1f} → {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
