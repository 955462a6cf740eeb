"""How much can Algo level 8's playouts gain per decision? An unbiased split-sample measure.

Attack decisions are taken from games of one level 6 against level-4 bots (the hero's seat
rotating, game seeds ``FIRST…``; two-player or four-player), every second one of the hero's
where level 8 would weigh more than one option. At each, every option is played out in
``CHOOSE + JUDGE`` deals (``AlgoRolloutBot.play_out``: the game to its end by level-4 bots,
common random numbers). The option level 8 would pick from the first ``CHOOSE`` deals (its
shipped budget is 48) is then *judged on the other ``JUDGE`` deals*, which had no part in
picking it: ``gain`` = its mean result there minus level 6's choice's. The mean gain over
the decisions estimates, without the winner's curse, how much a decision of level 8 adds to
the chance of coming first — in games that everyone then plays as level 4. Also printed:
how often the pick differs from level 6, and the gain of a pick from ``CHOOSE = JUDGE``
deals (half of all) judged on the other half: what four times the budget would reach.

Usage: python bench/algo_rollout_leverage.py MODE DECISIONS FIRST [CHOOSE=48] [JUDGE=352]
    MODE: two | four
"""

from __future__ import annotations

import math
import os
import sys
import time

from asobiba.games import get
from asobiba.games.algo.rollout import AlgoRolloutBot
from asobiba.play.runner import play_game

GAME = get("algo")


def decisions(mode: str, wanted: int, first: int):  # type: ignore[no-untyped-def]
    n = 2 if mode == "two" else 4
    opts = {} if n == 2 else {"players": 4}
    taken = skip = 0
    seed = first
    while True:
        me = seed % n
        bots = [GAME.make_bot("6" if s == me else "4", seed * 10 + s) for s in range(n)]
        game = play_game(GAME, bots, opts, seed=seed)
        for st in game.states:
            if st.is_over or st.phase != "attack" or st.turn != me:
                continue
            probe = AlgoRolloutBot(seed)
            probe.reset(me, st.options)
            view = st.view(me)
            base, options, kn = probe.weighed(view, me, list(view["legal_moves"]))
            if len(options) < 2:
                continue
            skip ^= 1
            if skip:
                continue
            yield seed, st, me, base, options
            taken += 1
            if taken >= wanted:
                return
        seed += 1


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def summary(name: str, gains: list[float]) -> str:
    m = mean(gains)
    sd = math.sqrt(sum((g - m) ** 2 for g in gains) / max(1, len(gains) - 1))
    return f"{name}: mean gain {m:+.4f} ± {1.96 * sd / math.sqrt(len(gains)):.4f} (95%)"


def main() -> None:
    mode, wanted, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    choose = int(sys.argv[4]) if len(sys.argv) > 4 else 48
    judge = int(sys.argv[5]) if len(sys.argv) > 5 else 352
    cpu, wall, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
    gains, big, differ, big_differ = [], [], 0, 0
    for k, (seed, st, me, base, options) in enumerate(decisions(mode, wanted, first)):
        bot = AlgoRolloutBot(seed * 7 + k)
        bot.reset(me, st.options)
        view = st.view(me)
        _, _, kn = bot.weighed(view, me, list(view["legal_moves"]))
        scores, _ = bot.play_out(view, me, options, kn, choose + judge)
        a = {o: v[:choose] for o, v in scores.items()}
        b = {o: v[choose:] for o, v in scores.items()}
        pick = bot.pick(base, options, a)
        gains.append(mean(b[pick]) - mean(b[base]))
        differ += pick != base
        half = (choose + judge) // 2
        a2 = {o: v[:half] for o, v in scores.items()}
        b2 = {o: v[half:] for o, v in scores.items()}
        pick2 = bot.pick(base, options, a2)
        big.append(mean(b2[pick2]) - mean(b2[base]))
        big_differ += pick2 != base
        print(f"decision {k} (seed {seed}): {len(options)} options, level 6 {base!r} "
              f"{mean(scores[base]):.3f}, best of all deals "
              f"{max(mean(v) for v in scores.values()):.3f}; pick {pick!r} gain {gains[-1]:+.3f};"
              f" pick of {half} gain {big[-1]:+.3f}; cpu {time.process_time() - cpu:.0f} s",
              file=sys.stderr, flush=True)
    n = len(gains)
    print(f"{mode}-player Algo, {n} decisions of level 6 (seeds from {first}), "
          f"{choose}+{judge} deals each:")
    print("  " + summary(f"pick from {choose} deals (level 8), judged on the other {judge}",
                         gains) + f"; differs from level 6 in {differ} of {n}")
    print("  " + summary(f"pick from {half} deals, judged on the other {half}", big)
          + f"; differs from level 6 in {big_differ} of {n}")
    print(f"  cpu {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load average {load0:.1f} → {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
