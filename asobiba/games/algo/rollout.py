"""Algo's "Seer" level: level 6's decisions checked by playing the game to its end.

Only the bot's own view goes in (``state.view(seat)``), as for every level.

At every attack decision that is not a sure hit the bot weighs level 6's choice
(:class:`.plan.AlgoPlanBot`), the other likeliest guesses (``top`` of them, each at least a
quarter as likely as the best) and ``stay`` when it is legal. In ``deals`` deals drawn
exactly from its own posterior (every deal consistent with its view equally likely,
:func:`.search.sample_deal`; the unseen rest shuffled as the pile) each option is played and
the game then played out **to its end** by level-4 bots in every seat, its own included, each
deciding from its own view of that position. The same deals, pile orders and bot seeds serve
every option (common random numbers), so options are compared on the same luck. An option
scores 1 when the bot (its pair) comes first alone, else 0; the best mean is played when it
beats level 6's choice by more than ``gate`` standard errors of the paired difference
(0: any margin), else level 6's choice stands.

This is rollout policy improvement: the played-out games ask "what happens if I do this and
everyone then plays as a Master", which level 6's one-step model of the table cannot tell.

With a clock (``time_limit``, the shipped level) the deals stop at the move's deadline and
only complete deals count (every option played in them); with none complete, level 6's choice
is played. Without one (arenas, tests) the decisions depend on the seed only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ...core import Rng
from ...core.jsontypes import JSONMapping
from ...search.budget import MoveClock
from .bots import AlgoBot, face_down_targets
from .infer import Knowledge, infer
from .plan import SHARE, SURE, AlgoPlanBot, Guess, _text, named_evidence
from .search import determinize, sample_deal
from .views import algo_view

DEALS = 48
"""Deals played out per decision (every option in each)."""
TOP = 3
"""Likeliest guesses weighed beside level 6's choice and ``stay``."""
GATE = 0.0
"""Standard errors by which the best option must beat level 6's choice."""
SLOW_INFERENCE = 0.1
"""Share of the budget the move's inferences may take before the deals: where they cost
more (tables of seven or eight players) a deal, which infers once per hidden card, would not
fit, and the bot plays level 6's choice."""
TIME_LIMIT = 5.0
"""Seconds per move of the shipped level (``MoveClock`` keeps a reserve from it); the server
replaces a bot that has not answered in 10 s."""


class AlgoRolloutBot(AlgoPlanBot):
    """Level 6 with every non-sure attack decision checked by rollouts to the game's end."""

    def __init__(self, seed: int = 0, deals: int = DEALS, top: int = TOP, gate: float = GATE,
                 time_limit: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(seed)
        self.level = "8"
        self.name = "algo-8"
        self.deals = deals
        self.top = top
        self.gate = gate
        self.clock = MoveClock(time_limit, clock) if time_limit is not None else None
        self.last_info: dict[str, float] = {}
        """Of the last decision that played out deals: ``deals`` complete, ``options``
        weighed, ``overrode`` (1 when it played other than level 6's choice) and, with a
        clock, ``seconds`` and ``stopped``."""

    def choose(self, view: JSONMapping) -> str:
        self.last_info = {}
        return super().choose(view)

    def weighed(self, view: JSONMapping, seat: int,
                moves: list[str]) -> tuple[str, list[str], Knowledge]:
        """Level 6's move, the options the deals weigh (level 6's first; only it when there
        is nothing to weigh: a sure hit, or no other option) and the seat's knowledge to
        draw deals from."""
        v = algo_view(view)
        kn = Knowledge.from_view(v)
        own = named_evidence(v, kn) if self.evidence else kn
        inf = infer(own)
        ranked: list[Guess] = sorted(
            ((prob, t, p, num, int(s["id"])) for t, p, s in face_down_targets(v, seat)
             for num, prob in inf.numbers(int(s["id"])).items()),
            key=lambda g: (-g[0], g[1], g[2], g[3]))
        if ranked[0][0] >= SURE:
            return _text(ranked[0]), [_text(ranked[0])], kn
        can_stay = "stay" in moves
        pool = [g for g in ranked[:self.candidates] if g[0] >= SHARE * ranked[0][0]]
        choice, stay = self.weigh(v, seat, pool, can_stay, own)
        base = "stay" if stay else _text(choice)
        options = [base]
        for g in pool[:self.top]:
            if _text(g) not in options:
                options.append(_text(g))
        if can_stay and "stay" not in options:
            options.append("stay")
        return base, options, kn

    def play_out(self, view: JSONMapping, seat: int, options: list[str], kn: Knowledge,
                 deals: int, deadline: float | None = None,
                 now: Callable[[], float] = time.perf_counter) -> tuple[dict[str, list[float]],
                                                                         bool]:
        """Each option's result (1: the seat or its pair first alone) in each of ``deals``
        deals drawn from ``kn``'s posterior, the game played to its end by level-4 bots;
        only complete deals (every option played) count. Also whether the deadline cut it."""
        v = algo_view(view)
        pair = v["rules"]["mode"] == "pair"
        n = len(v["rows"])
        team = [seat, (seat + 2) % 4] if pair else [seat]
        scores: dict[str, list[float]] = {o: [] for o in options}
        truth = infer(kn)   # deals from what the seat has seen (evidence only ranks guesses)
        for d in range(deals):
            if deadline is not None and now() >= deadline:
                return scores, True
            rng = Rng(self.rng.below(2 ** 31), "rollout")
            deal = sample_deal(kn, rng, truth)
            pile_seed = rng.below(2 ** 31)
            start = determinize(v, self.options, deal, Rng(pile_seed, "pile"))
            results = []
            for opt in options:
                st = start.play(opt, seat)
                bots = [AlgoBot(4, 1000 * d + x) for x in range(n)]
                for x in range(n):
                    bots[x].reset(x, self.options)
                while not st.is_over:
                    if deadline is not None and now() >= deadline:
                        return scores, True   # this deal does not count
                    mover = st.to_move
                    assert mover is not None
                    st = st.play(bots[mover].choose(st.view(mover)), mover)
                oc = st.outcome
                assert oc is not None
                results.append(float(any(oc.ranks[x] == 1 for x in team)
                                     and sum(r == 1 for r in oc.ranks) <= len(team)))
            for opt, r in zip(options, results, strict=True):
                scores[opt].append(r)
        return scores, False

    def pick(self, base: str, options: list[str], scores: dict[str, list[float]]) -> str:
        """The option with the most deals won, when it beats ``base`` by more than ``gate``
        standard errors of the paired difference; else ``base``."""
        played = len(scores[base])
        if not played:
            return base
        best = max(options, key=lambda o: (sum(scores[o]), -options.index(o)))
        if best == base:
            return base
        diff = [a - b for a, b in zip(scores[best], scores[base], strict=True)]
        mean = sum(diff) / played
        var = sum((x - mean) ** 2 for x in diff) / max(1, played - 1)
        return best if mean > self.gate * math.sqrt(var / played) else base

    def _attack(self, view: JSONMapping, seat: int, moves: list[str]) -> str:
        now = self.clock.clock if self.clock is not None else time.perf_counter
        started = now()
        deadline = started + self.clock.budget() if self.clock is not None else None
        base, options, kn = self.weighed(view, seat, moves)
        if len(options) == 1:
            return base
        deals = self.deals
        if deadline is not None and now() - started > SLOW_INFERENCE * (deadline - started):
            deals = 0
        scores, stopped = self.play_out(view, seat, options, kn, deals, deadline, now)
        move = self.pick(base, options, scores)
        self.last_info = {"deals": float(len(scores[base])), "options": float(len(options)),
                          "overrode": float(move != base)}
        if self.clock is not None:
            self.last_info["seconds"] = now() - started
            self.last_info["stopped"] = float(stopped or deals == 0)
            self.clock.done(started)
        return move
