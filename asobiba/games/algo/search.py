"""Algo level 5: information-set Monte Carlo tree search (``search.mcts.ismcts``).

Only the bot's own view goes in. Every iteration plays in a *determinization*: the hidden
cards of the other rows drawn exactly from the posterior of :mod:`.infer` (every deal
consistent with the view equally likely — the chain rule, one slot at a time from its exact
marginal given the slots drawn before it), the pile shuffled from the cards nobody has seen.
The root considers ``stay`` and the likeliest guesses by exact inference; below the root and
in the playouts each player attacks the card with the fewest candidates it can see (the
published count of level 2, from that player's own information in the determinization) and
stays unless sure. Decisions other than attacking (where to place a card, which card to show
or use) are level 4's.

The search stops at a deadline counted from the start of the move (``MoveClock``: the whole
move, inference and sampling included), checked after every iteration.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

from ...core import Rng
from ...core.jsontypes import JSONMapping
from ...search.budget import MoveClock
from ...search.mcts import MCTSResult, ismcts
from .bots import AlgoBot, face_down_targets
from .cards import COLOUR_LETTERS, NUMBERS, deck
from .infer import Inconsistent, Inference, Knowledge, SlotInfo, infer
from .state import ATTACK, AlgoMove, AlgoState, seat_letter
from .views import algo_view

Z_GATE = 0.0
"""The search overrules level 4's continue-or-stay rule when the other choice's mean playout
result is better by more than this many standard errors (rewards in [0, 1]: variance at most
1/4). 0: the search decides, level 4's rule only breaks ties. The paired arena measured 0
(+0.020 over level 4 in the same games) a little above 1.64 (+0.005), neither significant
(docs/benchmarks.md)."""
POOL = 48
"""Deals drawn from the posterior per decision; iterations reuse them, each with a fresh
pile order."""
ITERATIONS = 400
"""Iterations per decision when the deadline does not come first."""
TIME_LIMIT = 1.0
"""Seconds per move (the shipped level; ``MoveClock`` keeps a reserve from it)."""
SLOW_INFERENCE = 0.1
"""Share of the budget the root inference may take; a table where one exact inference costs
more than that (seven or eight players) cannot afford a deal per iteration, and the bot
decides as level 4 does."""


def sample_deal(kn: Knowledge, rng: Rng, first: Inference | None = None) -> dict[int, int]:
    """One deal drawn exactly from the posterior of ``kn``: slot id → key for every hidden
    slot. The chain rule: a slot's key is drawn from its exact marginal, fixed, and the rest
    inferred again given it. ``first`` is ``infer(kn)`` when the caller has it."""
    rows = [list(r) for r in kn.rows]
    work = Knowledge(kn.colours, kn.sets, kn.jokers, kn.numbers, rows, list(kn.extra_known))
    hidden = [(ri, pi) for ri, row in enumerate(rows) for pi, s in enumerate(row)
              if s.key is None]
    inf = first if first is not None else infer(kn)
    out: dict[int, int] = {}
    for n, (ri, pi) in enumerate(hidden):
        slot = rows[ri][pi]
        counts = inf.counts[slot.sid]
        x = rng.random() * inf.total
        key = -1
        for k, v in sorted(counts.items()):
            if v <= 0:
                continue
            key = k
            x -= v
            if x < 0:
                break
        if key < 0:
            raise Inconsistent("no deal is consistent with what this seat has seen")
        out[slot.sid] = key
        rows[ri][pi] = SlotInfo(slot.sid, slot.colour, key, slot.fails)
        if n + 1 < len(hidden):
            inf = infer(work)
    return out


def seen_by(view: JSONMapping, seats: int) -> tuple[frozenset[int], ...]:
    """Per seat, the ids of the cards its partner showed it (public log events: which card
    was slid across is public, its number is not)."""
    view = algo_view(view)
    seen: list[set[int]] = [set() for _ in range(seats)]
    for e in view["log"]:
        if e["event"] == "show":
            seen[(int(e["seat"]) + 2) % seats].add(int(e["id"]))
    return tuple(frozenset(s) for s in seen)


def determinize(view: JSONMapping, options: JSONMapping, deal: Mapping[int, int],
                rng: Rng) -> AlgoState:
    """A full position that agrees with ``view``: the seat's known cards, ``deal`` for the
    hidden ones, and the unseen rest as the pile in a random order (pair play: set aside)."""
    view = algo_view(view)
    rules = view["rules"]
    c = int(rules["colours"])

    def key_of(part: JSONMapping) -> int:
        return int(part["number"]) * c + COLOUR_LETTERS.index(part["colour"])

    rows = tuple(tuple((int(s["id"]), key_of(s) if "number" in s else deal[int(s["id"])],
                        bool(s["up"])) for s in row) for row in view["rows"])
    rest = deck(c, int(rules["sets"]))
    hand = view.get("hand")
    hand_key = key_of(hand) if hand and "number" in hand else -1
    placing = view.get("placing")
    place: tuple[int, int, bool] | None = None
    if placing:
        place = (int(placing["seat"]), key_of(placing), bool(placing["up"]))
    for k in [k for row in rows for _, k, _ in row] + [hand_key, place[1] if place else -1]:
        if k >= 0:
            rest.remove(k)
    pair = rules["mode"] == "pair"
    if not pair and len(rest) != int(view["pile"]["size"]):
        raise ValueError(f"{len(rest)} unseen cards for a pile of {view['pile']['size']}")
    rng.shuffle(rest)
    n = len(rows)
    ids = sum(len(r) for r in rows)
    fails = [0] * ids
    held = -1
    for row in view["rows"]:
        for s in row:
            fails[int(s["id"])] = sum(1 << int(v) for v in s.get("not", ()))
            if s.get("held"):
                held = int(s["id"])
    opts = {**options, **rules, "players": n, "aid": False}
    return AlgoState(opts, rows, () if pair else tuple(rest), 0, int(view["turn"]),
                     str(view["phase"]), hand=hand_key, held=held, hits=int(view["hits"]),
                     out=tuple(int(s) for s in view["out"]), fails=tuple(fails),
                     seen=seen_by(view, n), chips=tuple(int(x) for x in view["chips"]),
                     next_id=ids, placing=place)


def guesses(st: AlgoState, seat: int) -> list[tuple[int, int, int, list[int]]]:
    """(candidate count, target, position, candidate numbers) of every face-down enemy card,
    from what ``seat`` can see in ``st``: the published count (nearest known neighbours,
    minus numbers missed there and, with one set, cards it can see)."""
    c = st.colours
    two = int(st.options["sets"]) > 1
    seen = st.seen[seat]
    visible = {k for owner, row in enumerate(st.rows) for sid, k, up in row
               if up or owner == seat or sid in seen}
    if st.hand >= 0 and st.turn == seat:
        visible.add(st.hand)
    top = NUMBERS * c
    out = []
    for t in st.enemies(seat):
        if t in st.out:
            continue
        row = st.rows[t]
        for p, (sid, k, up) in enumerate(row):
            if up:
                continue
            lo, hi = -1, top
            if not st.jokers:
                lo = next((row[q][1] for q in range(p - 1, -1, -1)
                           if row[q][2] or row[q][0] in seen), -1)
                hi = next((row[q][1] for q in range(p + 1, len(row))
                           if row[q][2] or row[q][0] in seen), top)
            colour, fails = k % c, st.fails[sid]
            cands = [v for v in range(NUMBERS)
                     if (lo <= v * c + colour <= hi if two else lo < v * c + colour < hi)
                     and not fails >> v & 1 and (two or v * c + colour not in visible)]
            out.append((len(cands), t, p, cands or list(range(NUMBERS))))
    return out


class AlgoSearchAdapter:
    """``MCTSAdapter`` over :class:`AlgoState` determinizations. Attack steps offer the
    candidate numbers of the card with the fewest (and ``stay`` when legal); the playout
    policy stays unless the attack is sure."""

    def moves(self, pos: AlgoState) -> Sequence[AlgoMove]:
        if pos.phase != ATTACK:
            return list(pos._legal(self.player(pos)))
        seat = pos.turn
        opts = guesses(pos, seat)
        if not opts:
            return list(pos._legal(self.player(pos)))
        _, t, p, cands = min(opts, key=lambda o: o[0])
        moves: list[AlgoMove] = [("attack", t, p, v) for v in cands]
        if pos.hits:
            moves.append(("stay",))
        return moves

    def play(self, pos: AlgoState, move: AlgoMove) -> AlgoState:
        st = pos.child(move)
        assert isinstance(st, AlgoState)
        return st

    def player(self, pos: AlgoState) -> int:
        seat = pos.to_move
        if seat is None:
            raise ValueError("the game is over: nobody moves")
        return seat

    def is_terminal(self, pos: AlgoState) -> bool:
        return pos.is_over

    def returns(self, pos: AlgoState) -> list[float]:
        outcome = pos.outcome
        if outcome is None:
            raise ValueError("returns() of a game that is not over")
        return [outcome.points(s) for s in range(pos.n)]

    def rollout_move(self, pos: AlgoState, moves: Sequence[AlgoMove], rng: Rng) -> AlgoMove:
        if pos.phase == ATTACK and ("stay",) in moves and len(moves) > 2:
            return ("stay",)
        attacks = [m for m in moves if m[0] != "stay"] or list(moves)
        return attacks[rng.below(len(attacks))]


class AlgoSearchBot(AlgoBot):
    """Level 5: ISMCTS for attack decisions (which card, which number, or stay), level 4
    for the rest."""

    def __init__(self, seed: int = 0, time_limit: float | None = TIME_LIMIT,
                 iterations: int = ITERATIONS, gate: float = Z_GATE) -> None:
        super().__init__(4, seed)
        self.gate = gate
        self.level = "5"
        self.name = "algo-5"
        self.iterations = iterations
        self.clock = MoveClock(time_limit) if time_limit is not None else None
        self.adapter = AlgoSearchAdapter()
        self.last_result: MCTSResult[AlgoMove] | None = None
        self.overrode = False
        """Whether the last search overruled level 4's rule."""
        self.searches = 0
        self.overrides = 0
        """Searches and overrulings since the bot was made (for the arena's statistics)."""

    def choose(self, view: JSONMapping) -> str:
        self.last_result = None     # set again only by a move that searched
        return super().choose(view)

    def _attack(self, view: JSONMapping, seat: int, moves: list[str]) -> str:
        started = time.perf_counter()
        budget = self.clock.budget() if self.clock is not None else None
        try:
            return self._search(view, seat, moves, started, budget)
        finally:
            if self.clock is not None:
                self.clock.done(started)

    def _search(self, view: JSONMapping, seat: int, moves: list[str], started: float,
                budget: float | None) -> str:
        kn = Knowledge.from_view(view)
        inf = infer(kn)
        ranked = sorted(((prob, t, p, num) for t, p, s in face_down_targets(view, seat)
                         for num, prob in inf.numbers(int(s["id"])).items()),
                        key=lambda g: (-g[0], g[1], g[2], g[3]))
        prob, t, p, num = ranked[0]
        guess = f"attack {seat_letter(t)}{p + 1}={num}"
        # the first attack of a turn is compulsory and a sure hit costs nothing: the
        # likeliest guess (level 4's) needs no search
        if "stay" not in moves or prob >= 1.0 - 1e-12:
            return guess
        if budget is not None and time.perf_counter() - started > SLOW_INFERENCE * budget:
            return super()._attack(view, seat, moves)
        root: list[AlgoMove] = [("attack", t, p, num), ("stay",)]
        # level 4's rule (exact inference of the table's view) before the search: nothing
        # costly is left after the deadline
        rule = root[0] if self._continue(view, seat, prob) else root[1]
        pool: list[dict[int, int]] = []

        def sample(rng: Rng) -> AlgoState:
            if len(pool) < POOL:
                pool.append(sample_deal(kn, rng, inf))
                deal = pool[-1]
            else:
                deal = pool[rng.below(len(pool))]
            return determinize(view, self.options, deal, rng)

        deadline = None if budget is None else started + budget
        result = ismcts(self.adapter, sample, seat, self.iterations, self.rng,
                        deadline=deadline, root_moves=root)
        self.last_result = result
        self.searches += 1
        other = root[1] if rule == root[0] else root[0]
        if result.values.get(other, 0.0) - result.values.get(rule, 0.0) > self.gate * math.sqrt(
                0.25 / max(1, result.visits.get(other, 0))
                + 0.25 / max(1, result.visits.get(rule, 0))):
            self.overrode = True
            self.overrides += 1
            return guess if other == root[0] else "stay"
        self.overrode = False
        return guess if rule == root[0] else "stay"
