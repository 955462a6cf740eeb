"""How sound level 7's choice evidence is (``games/algo/plan.py``, ``choice_evidence``): in
games between bots of the given levels, at every third attack decision, the numbers it
rules out beyond the names' evidence, counted as right (not the card's number) or wrong
(the true card, which the state knows and the evidence must not rule out).

Usage: python bench/algo_choice_evidence.py LEVELS MODE [ratio=1.3] [first=100] [games=6]
    LEVELS: comma-separated, seat by seat ("4" or "2,4"); MODE: four | pair
"""

from __future__ import annotations

import sys
import time

from asobiba.games import get
from asobiba.games.algo.infer import Knowledge
from asobiba.games.algo.plan import choice_evidence, named_evidence
from asobiba.play.runner import play_game

GAME = get("algo")


def main() -> None:
    levels = sys.argv[1].split(",")
    mode = sys.argv[2]
    ratio = float(sys.argv[3]) if len(sys.argv) > 3 else 1.3
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    games = int(sys.argv[5]) if len(sys.argv) > 5 else 6
    opts = {"players": 4} if mode == "four" else {"variant": "pair"}
    right = wrong = calls = 0
    cpu = time.process_time()
    for seed in range(first, first + games):
        bots = [GAME.make_bot(levels[x % len(levels)], seed * 10 + x) for x in range(4)]
        game = play_game(GAME, bots, opts, seed=seed)
        for s in game.states[::3]:
            if s.is_over or s.phase != "attack":
                continue
            view = s.view(s.turn)
            kn = named_evidence(view, Knowledge.from_view(view))
            more = choice_evidence(view, kn, ratio)
            calls += 1
            truth = {sid: k for row in s.rows for sid, k, _ in row}
            for r1, r2 in zip(kn.rows, more.rows, strict=True):
                for a, b in zip(r1, r2, strict=True):
                    new = b.fails & ~a.fails
                    for u in range(12):
                        if new >> u & 1:
                            if truth[b.sid] // s.colours == u:
                                wrong += 1
                            else:
                                right += 1
    print(f"levels {sys.argv[1]}, {mode}, ratio {ratio}, seeds {first}..{first + games - 1}: "
          f"{calls} decisions, ruled out {right} numbers rightly and {wrong} wrongly "
          f"(the true card); cpu {time.process_time() - cpu:.1f} s")


if __name__ == "__main__":
    main()
