"""How far up the ladder a bot climbs: the bot plays the ladder of a game as a person would —
the exam when one is due, otherwise a game (from Lv.5 a reverse-match set) against the
highest open tier — for a budget of games, and the rank reached is printed with the path.

    nice -n 10 .venv/bin/python bench/progression_ladder_climb.py [game] [level] [games]

Defaults: reversi, level 3, 120 games. A check that the ladder is climbable and that the
tiers above the bot's own strength stop it.
"""

from __future__ import annotations

import sys
import time

from asobiba.core import derive_seed
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.ladder import LadderProgress
from asobiba.progression.ladder_data import TIERS, ladder_options, tier_levels
from asobiba.progression.matches import A, Match, MatchFormat, tiebreak_for, unit_seed


def main(game_id: str = "reversi", level: str = "3", budget: int = 120) -> None:
    game = get(game_id)
    options = game.validate_options(ladder_options(game))
    levels = tier_levels(game)
    tb = tiebreak_for(game)
    p = LadderProgress()
    played = 0
    path = [(0, p.current.en)]
    t0 = time.perf_counter()

    def one(cpu_level: str, seat: int, seed: int):  # type: ignore[no-untyped-def]
        bots = [None, None]
        bots[seat] = game.make_bot(level, seed)
        bots[1 - seat] = game.make_bot(cpu_level, seed + 1)
        final = play_game(game, bots, dict(options), seed).states[-1]
        return final.outcome, (tb(final.view(None)) if tb else None)

    while played < budget and p.next_rank is not None:
        seed = derive_seed("climb", game_id, level, played) >> 1
        if p.exam_due():
            p = p.start_exam()
            while p.exam is not None and played < budget:
                tier, slot = p.exam_next()  # type: ignore[misc]
                s = unit_seed(seed, slot.unit)  # both legs of a set: one deal
                outcome, tie = one(levels[TIERS.index(tier)], slot.seat_of_a, s)
                played += 1
                p, events = p.record_exam_game(outcome, tie)
                path += [(played, e["en"]) for e in events if e["type"] == "promoted"]
            if p.exam is not None:
                break
            continue
        tier = p.unlocked()[-1]
        fmt = MatchFormat(1, TIERS.index(tier) >= 4)
        m = Match(fmt, first=played % 2)
        while (slot := m.next_game()) is not None:
            outcome, tie = one(levels[TIERS.index(tier)], slot.seat_of_a,
                               unit_seed(seed, 0))
            played += 1
            m = m.add(outcome, tie)
        unit = m.units()[0]
        p, events = p.record_cpu_unit(tier, None if unit.winner is None else unit.winner == A)
        path += [(played, e["en"]) for e in events if e["type"] == "promoted"]
    secs = time.perf_counter() - t0
    print(f"{game_id} bot level {level}: {played} games in {secs:.0f} s → {p.current.en}"
          f" (wins per tier {dict(p.wins)}, exam attempts {dict(p.attempts)})")
    print("  path: " + ", ".join(f"{rank}@{n}" for n, rank in path))


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "reversi", args[1] if len(args) > 1 else "3",
         int(args[2]) if len(args) > 2 else 120)
