"""Algo level 6 ("Strategist"): every attack and every continue-or-stay weighed by what it
does to the bot's chance of coming first, over the exact posteriors of :mod:`.infer`.

Only the bot's own view goes in (``state.view(seat)``), as for every level.

The model. How strong a player is, as the table sees it, is its *cover* ``H``: for each of
its face-down cards, one minus the probability of that card's likeliest number by exact
inference from the public facts (face-up cards, colours, positions, misses) — a card the
table can read counts nothing, a card nobody can narrow counts almost one. (Level 4's
``exposure`` is the same measure from the other side: cover = cards in the row − exposure.)
A player's chance of coming first is taken as a softmax of the covers of the players still
in, ``exp(β·H_i) / Σ_j exp(β·H_j)`` (pair play: of the two pairs' summed covers), with a
player (pair) that has no face-down card left out of it.

The decision. At an attack step the bot has its attack card (drawn, or an own card when the
pile is empty and in pair play) and may:

- ``stay`` (after a hit): the card goes face down — cover ``H_stay``;
- attack ``(t, pos, v)`` with hit probability ``p`` by the bot's *own* exact inference (its
  own cards and the cards shown to it count): on a hit the card turns up — the table's
  cover after it, with the bot then staying, ``H_hit`` (a lower bound: it may go on) — and
  on a miss its attack card turns up and ``v`` is marked missed there — ``H_miss``.

It plays the attack with the best ``p·W(H_hit) + (1−p)·W(H_miss)``, and stays when
``W(H_stay)`` is at least that. A sure hit is always taken. For a small ``β`` the rule is
level 4's (continue when ``p·d/(enemies) > (1−p)·Δ``) with the real cover ``d`` a hit
removes instead of one card; a larger ``β`` attacks the player likeliest to come first and
plays safer when the bot leads. The choice of the attack *target* (not only the number) and
of the information a hit or a miss hands to the table are what level 4 does not weigh.

Decisions other than attacking (which own card to use, which card to show the partner,
where a joker goes) are level 4's.

Level 7 (:class:`AlgoFollowBot`) adds two things: a hit is valued as the better of staying
after it and one more attack (``follow``), and the other players' choice of number is read
as evidence of what they hold (:func:`choice_evidence`). docs/rules/algo.md §10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from ...core.jsontypes import JSONMapping
from .bots import AlgoBot, face_down_targets, known_key, public_knowledge, slot_key
from .cards import COLOUR_LETTERS, NUMBERS, insert_positions
from .infer import Inconsistent, Knowledge, SlotInfo, infer
from .state import seat_letter
from .views import AlgoView, SlotView, algo_view

BETA = 1.0
"""Softmax sharpness of the chance of coming first over covers (per card of cover)."""
CANDIDATES = 8
"""Guesses weighed per decision: the likeliest ones by the bot's own inference."""
SHARE = 0.25
"""… and only those at least this share of the likeliest guess's probability."""
FOLLOW = 3
"""Level 7: follow-up guesses weighed after a hit."""
RATIO = 1.3
"""Level 7's choice evidence: a number this many times likelier (by the public facts of the
moment) than the one a player named on that card is taken to be in that player's hands."""
SURE = 1.0 - 1e-12


Guess = tuple[float, int, int, int, int]
"""(hit probability, target seat, position, number, slot id)."""


def covers(kn: Knowledge) -> list[float] | None:
    """Each row's cover as the holder of ``kn`` sees it, or None when ``kn`` is
    inconsistent. A row with no face-down card has cover −1 (the player is out)."""
    try:
        inf = infer(kn)
    except Inconsistent:
        return None
    out = []
    for row in kn.rows:
        hidden = [s for s in row if s.key is None]
        if not hidden:
            out.append(-1.0)
            continue
        total = 0.0
        for s in hidden:
            nums = inf.numbers(s.sid) if s.sid in inf.counts else {}
            total += 1.0 - max(nums.values(), default=0.0)
        out.append(total)
    return out


def chance(h: Sequence[float], seat: int, pair: bool, beta: float) -> float:
    """The model's chance that ``seat`` (its pair, in pair play) comes first, from the
    covers ``h`` (−1: out)."""
    if pair:
        teams = [[s for s in (0, 2)], [s for s in (1, 3)]]
        alive = [any(h[s] >= 0 for s in t) for t in teams]
        mine = seat % 2
        if not alive[mine]:
            return 0.0
        if not alive[1 - mine]:
            return 1.0
        team_h = [sum(max(0.0, h[s]) for s in t) for t in teams]
        top = max(team_h)
        w = [math.exp(beta * (x - top)) for x in team_h]
        return w[mine] / sum(w)
    if h[seat] < 0:
        return 0.0
    live = [x for x in h if x >= 0]
    if len(live) == 1:
        return 1.0
    peak = max(live)
    return math.exp(beta * (h[seat] - peak)) / sum(math.exp(beta * (x - peak)) for x in live)


class AlgoPlanBot(AlgoBot):
    """Level 6: attacks and continue-or-stay by the modelled chance of coming first."""

    def __init__(self, seed: int = 0, beta: float = BETA, evidence: bool = True,
                 follow: int = 0, candidates: int = CANDIDATES,
                 choices: float = 0.0) -> None:
        super().__init__(4, seed)
        self.level = "6"
        self.name = "algo-6"
        self.beta = beta
        self.evidence = evidence
        self.follow = follow
        """Follow-up guesses weighed after a hit (0: the bot is assumed to stay after it)."""
        self.candidates = candidates
        self.choices = choices
        """Choice evidence (:func:`choice_evidence`) with this ratio; 0: not read."""
        self.last_values: dict[str, float] = {}
        """The model's value of every move weighed at the last decision (for tests and the
        arena): the chance of coming first after it."""

    def choose(self, view: JSONMapping) -> str:
        self.last_values = {}
        return super().choose(view)

    def _attack(self, view: JSONMapping, seat: int, moves: list[str]) -> str:
        v = algo_view(view)
        kn = Knowledge.from_view(v)
        own = named_evidence(v, kn) if self.evidence else kn
        if self.choices:
            own = choice_evidence(v, own, self.choices)
        inf = infer(own)
        ranked: list[Guess] = sorted(
            ((prob, t, p, num, int(s["id"])) for t, p, s in face_down_targets(v, seat)
             for num, prob in inf.numbers(int(s["id"])).items()),
            key=lambda g: (-g[0], g[1], g[2], g[3]))
        best = ranked[0]
        if best[0] >= SURE:
            return _text(best)
        can_stay = "stay" in moves
        pool = [g for g in ranked[:self.candidates] if g[0] >= SHARE * best[0]]
        choice, stay = self.weigh(v, seat, pool, can_stay, own)
        return "stay" if stay else _text(choice)

    def weigh(self, view: AlgoView, seat: int, pool: Sequence[Guess], can_stay: bool,
              own: Knowledge | None = None) -> tuple[Guess, bool]:
        """The best guess of ``pool`` by the model, and whether staying is better still.
        With ``follow`` > 0 (and ``own``, the bot's own knowledge), a hit is worth the
        better of staying after it and the best of ``follow`` follow-up guesses."""
        pair = view["rules"]["mode"] == "pair"
        c = int(view["rules"]["colours"])
        mine = _attack_card(view, seat)
        if mine is None:          # nothing to lose (cannot happen in play): likeliest guess
            return pool[0], False
        stay_kn = _with(view, mine, up=False)
        miss_kn = _with(view, mine, up=True)
        w_stay_or_none = self.worth(stay_kn, view, seat, pair)
        w_miss_or_none = self.worth(miss_kn, view, seat, pair)
        if w_stay_or_none is None or w_miss_or_none is None:
            return pool[0], can_stay and not self._continue(view, seat, pool[0][0])
        w_stay, w_miss_base = w_stay_or_none, w_miss_or_none
        best: tuple[float, Guess] | None = None
        colour_of = {int(s["id"]): COLOUR_LETTERS.index(s["colour"])
                     for row in view["rows"] for s in row}
        for g in pool:
            prob, t, pos, num, sid = g
            hit_kn = _reveal(stay_kn, t, pos, num * c + colour_of[sid])
            w_hit_or_none = self.worth(hit_kn, view, seat, pair)
            w_hit = 0.0 if w_hit_or_none is None else w_hit_or_none
            if self.follow and own is not None and w_hit_or_none is not None \
                    and 0.0 < w_hit < 1.0:
                key = num * c + colour_of[sid]
                w_hit = max(w_hit, self._follow_up(
                    view, seat, pair, _reveal(own, t, pos, key), hit_kn,
                    _reveal(miss_kn, t, pos, key), sid))
            # the miss also tells the table ``num`` is not there: a little cover lost by t
            w_m = self.worth(_missed(miss_kn, t, pos, num), view, seat, pair)
            w_miss = w_miss_base if w_m is None else w_m
            value = prob * w_hit + (1.0 - prob) * w_miss
            self.last_values[_text(g)] = value
            if best is None or value > best[0] + 1e-12:
                best = (value, g)
        assert best is not None
        if can_stay:
            self.last_values["stay"] = w_stay
        stay = can_stay and w_stay >= best[0]
        return best[1], stay

    def worth(self, kn: Knowledge, view: AlgoView, seat: int, pair: bool) -> float | None:
        """The model's chance that ``seat`` comes first once the table knows ``kn`` at the
        end of its turn (``view``: the seat's view before the move); None when ``kn`` is
        inconsistent. Level 6: the softmax of the covers (:func:`chance`); other models
        of a bench (``bench/algo_value.py``) replace this method."""
        h = covers(kn)
        return None if h is None else chance(h, seat, pair, self.beta)

    def _follow_up(self, view: AlgoView, seat: int, pair: bool, own: Knowledge,
                   hit_kn: Knowledge, miss_kn: Knowledge, done: int) -> float:
        """The best value of attacking once more after a hit (the hit card ``done`` now
        known to all): over the ``follow`` likeliest next guesses by the bot's own
        knowledge ``own``, ``p·W(hit, then stay) + (1−p)·W(miss)``; 0 when none."""
        try:
            inf = infer(own)
        except Inconsistent:
            return 0.0
        c = own.colours
        ranked = sorted(
            ((prob, t, p, num, int(s["id"])) for t, p, s in face_down_targets(view, seat)
             if int(s["id"]) != done for num, prob in inf.numbers(int(s["id"])).items()),
            key=lambda g: (-g[0], g[1], g[2], g[3]))
        if not ranked:
            return 0.0
        top = ranked[0][0]
        best = 0.0
        for prob, t, pos, num, _ in ranked[:self.follow]:
            if prob < SHARE * top:
                break
            colour = own.rows[t][pos].colour
            w_hit = self.worth(_reveal(hit_kn, t, pos, num * c + colour), view, seat, pair) or 0.0
            if prob >= SURE:
                return w_hit
            w_miss = self.worth(_missed(miss_kn, t, pos, num), view, seat, pair) or 0.0
            best = max(best, prob * w_hit + (1.0 - prob) * w_miss)
        return best


class AlgoFollowBot(AlgoPlanBot):
    """Level 7: level 6, with a hit valued as the better of staying after it and attacking
    once more (the ``FOLLOW`` likeliest next guesses weighed the same way), and the
    evidence of the other players' choice of number (:func:`choice_evidence`)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, follow=FOLLOW, choices=RATIO)
        self.level = "7"
        self.name = "algo-7"


def named_evidence(view: AlgoView, kn: Knowledge) -> Knowledge:
    """``kn`` (the seat's knowledge) plus what the other players' names tell: with one set,
    nobody names a card it can see — its own row, the card in its hand, a card its partner
    showed it — since that name is a sure miss. So every attack of player X naming ``v`` on
    a card of colour ``col`` rules out ``v`` for each card of colour ``col`` X could see
    then: the cards of its row at that moment, the card it had drawn (inserted into its row
    later in that turn), the cards shown to it before. Read from the public log only.
    **Interpretation (model):** a player who names its own card on purpose (a bluff) would
    mislead this; the bot falls back to ``kn`` when the evidence contradicts the view."""
    if kn.sets != 1:
        return kn
    seat = int(view["turn"])
    colour = {int(s["id"]): COLOUR_LETTERS.index(s["colour"]) for row in view["rows"]
              for s in row}
    owner = {int(s["id"]): o for o, row in enumerate(view["rows"]) for s in row}
    log = view["log"]
    inserted_at = {int(e["id"]): j for j, e in enumerate(log) if e["event"] == "insert"}
    ruled: dict[int, int] = {}          # slot id → bitmask of numbers ruled out
    drawn: dict[int, list[tuple[int, int]]] = {}   # seat → (colour, number) named while
    shown: dict[int, set[int]] = {}                # a drawn card was in its hand
    for j, e in enumerate(log):
        x = int(e["seat"])
        if e["event"] == "draw":
            drawn[x] = []
        elif e["event"] == "show":    # the partner shows its card to the seat to move
            shown.setdefault((x + 2) % 4, set()).add(int(e["id"]))
        elif e["event"] == "insert":
            for col, v in drawn.pop(x, []):
                sid = int(e["id"])
                if colour.get(sid) == col:
                    ruled[sid] = ruled.get(sid, 0) | 1 << v
        elif e["event"] == "attack" and x != seat:
            col, v = colour[int(e["id"])], int(e["name"])
            if x in drawn:
                drawn[x].append((col, v))
            visible = [sid for sid, o in owner.items() if o == x
                       and inserted_at.get(sid, -1) < j] + sorted(shown.get(x, ()))
            for sid in visible:
                if colour[sid] == col:
                    ruled[sid] = ruled.get(sid, 0) | 1 << v
    return _ruling_out(kn, ruled)


def _ruling_out(kn: Knowledge, ruled: dict[int, int]) -> Knowledge:
    """``kn`` with the numbers of ``ruled`` (card id -> bit set of numbers) ruled out of
    those face-down cards and inferred again; ``kn`` itself when nothing is ruled out or
    the result contradicts it."""
    if not ruled:
        return kn
    rows = [[SlotInfo(sl.sid, sl.colour, sl.key, sl.fails | ruled.get(sl.sid, 0))
             if sl.key is None else sl for sl in row] for row in kn.rows]
    out = Knowledge(kn.colours, kn.sets, kn.jokers, kn.numbers, rows, list(kn.extra_known))
    try:
        infer(out)
    except Inconsistent:
        return kn
    return out


def choice_evidence(view: AlgoView, kn: Knowledge, ratio: float = RATIO) -> Knowledge:
    """``kn`` plus what the other players' *choices* of number tell, for players who name
    the likeliest number by their own view (levels 3–7 do). When player X named ``v`` on a
    card ``Y`` while, by the public facts of that moment, some number ``u`` was at least
    ``ratio`` times likelier there, X's own cards must have ruled ``u`` out: X holds ``u``
    of that colour (in its row, as its drawn card, or — pair play — shown by its partner).
    So ``u`` of that colour is ruled out for every face-down card outside X's row (and its
    partner's). Read from the public log only; the public facts of the moment are rebuilt
    from it (the cards in each row then, which were up, which names had missed).

    **Interpretation (model):** a player who does not name the likeliest number (level 2
    picks at random among its candidates) would mislead this; so a player any of whose
    conclusions contradicts what the seat sees (a card it "holds" that is face up
    elsewhere or in the seat's own hands) is not read at all, and the bot falls back to
    ``kn`` when the conclusions together contradict the view."""
    if kn.sets != 1 or kn.jokers:
        return kn
    holds, bad = choice_holdings(view, kn, ratio)
    pair = view["rules"]["mode"] == "pair"
    c = kn.colours
    ruled: dict[int, int] = {}
    for x, keys in holds.items():
        if x in bad:
            continue
        for o in range(len(kn.rows)):
            if o in _team(x, pair):
                continue
            for sl in kn.rows[o]:
                if sl.key is None:
                    for key in keys:
                        if key % c == sl.colour:
                            ruled[sl.sid] = ruled.get(sl.sid, 0) | 1 << (key // c)
    return _ruling_out(kn, ruled)


def choice_holdings(view: AlgoView, kn: Knowledge, ratio: float = RATIO
                    ) -> tuple[dict[int, set[int]], set[int]]:
    """The keys each other player is concluded to hold by :func:`choice_evidence`, and the
    players whose conclusions contradict what the seat knows (not read)."""
    seat = int(view["turn"])
    c = kn.colours
    pair = view["rules"]["mode"] == "pair"
    log = view["log"]
    slots = {int(s["id"]): s for row in view["rows"] for s in row}
    owner = {int(s["id"]): o for o, row in enumerate(view["rows"]) for s in row}
    inserted_at = {int(e["id"]): j for j, e in enumerate(log) if e["event"] == "insert"}
    # where the seat knows a card to be: a row (its own, a shown card, a face-up card) or
    # its hands (-1)
    located = {sl.key: o for o, row in enumerate(kn.rows) for sl in row if sl.key is not None}
    located.update({k: -1 for k in kn.extra_known})
    up_ids: set[int] = set()
    fails: dict[int, int] = {}
    held: dict[int, int] = {}
    holds: dict[int, set[int]] = {}     # player → keys concluded in its (pair's) hands
    bad: set[int] = set()
    for j, e in enumerate(log):
        x = int(e["seat"])
        if e["event"] == "use":
            held[x] = int(e["id"])
        elif e["event"] == "insert":
            if e["up"]:
                up_ids.add(int(e["id"]))
        elif e["event"] == "attack":
            sid, v = int(e["id"]), int(e["name"])
            if x != seat and x not in bad:
                for u in _outnumbering(view, kn, log, j, sid, v, ratio, slots, owner,
                                       inserted_at, up_ids, fails):
                    key = u * c + COLOUR_LETTERS.index(slots[sid]["colour"])
                    if key in located and located[key] not in _team(x, pair):
                        bad.add(x)      # it is somewhere else: x does not name this way
                        break
                    holds.setdefault(x, set()).add(key)
            if e["hit"]:
                up_ids.add(sid)
            else:
                fails[sid] = fails.get(sid, 0) | 1 << v
                if x in held:
                    up_ids.add(held[x])
    return holds, bad


def _team(x: int, pair: bool) -> tuple[int, ...]:
    return (x, (x + 2) % 4) if pair else (x,)


def _outnumbering(view: AlgoView, kn: Knowledge, log: Sequence[JSONMapping], j: int,
                  sid: int, v: int, ratio: float, slots: Mapping[int, SlotView],
                  owner: dict[int, int], inserted_at: dict[int, int], up_ids: set[int],
                  fails: dict[int, int]) -> list[int]:
    """The numbers at least ``ratio`` times likelier than ``v`` on card ``sid`` by the
    public facts just before log entry ``j``."""
    c = kn.colours
    rows: list[list[SlotInfo]] = []
    for row in view["rows"]:
        out = []
        for s in row:
            i = int(s["id"])
            if inserted_at.get(i, -1) >= j:
                continue
            colour = COLOUR_LETTERS.index(s["colour"])
            key = int(s["number"]) * c + colour if i in up_ids else None
            out.append(SlotInfo(i, colour, key, fails.get(i, 0)))
        rows.append(out)
    return _outnumbering_then(tuple(tuple(r) for r in rows), kn.colours, sid, v, ratio)


@lru_cache(maxsize=4096)
def _outnumbering_then(rows: tuple[tuple[SlotInfo, ...], ...], colours: int, sid: int,
                       v: int, ratio: float) -> list[int]:
    """:func:`_outnumbering` over the public facts of the moment (a pure function of
    them, so cached: a game's past moments recur at every later decision)."""
    then = Knowledge(colours, 1, False, NUMBERS, [list(r) for r in rows], [])
    try:
        nums = infer(then).numbers(sid)
    except (Inconsistent, KeyError):
        return []
    pv = nums.get(v, 0.0)
    return [u for u, pu in nums.items() if u != v and pu >= ratio * pv and pu > 0.0]


def _text(g: Guess) -> str:
    _, t, p, num, _ = g
    return f"attack {seat_letter(t)}{p + 1}={num}"


Mine = tuple[str, int, int]
"""The bot's attack card: ("hand", insert position, key) or ("held", slot id, key)."""


def _attack_card(view: AlgoView, seat: int) -> Mine | None:
    c = int(view["rules"]["colours"])
    hand = view.get("hand")
    if hand and "number" in hand:
        key = int(hand["number"]) * c + COLOUR_LETTERS.index(hand["colour"])
        row = [slot_key(s, c) or 0 for s in view["rows"][seat]]
        pos = insert_positions(row, key, c, bool(view["rules"]["jokers"]))[0]
        return ("hand", pos, key)
    held = next((s for s in view["rows"][seat] if s.get("held")), None)
    if held is None:
        return None
    return ("held", int(held["id"]), known_key(held, c))


def _with(view: AlgoView, mine: Mine, up: bool) -> Knowledge:
    """The table's knowledge once the attack card is back: face down (stay) or up (miss)."""
    kind, where, key = mine
    seat = int(view["turn"])
    if kind == "hand":
        return public_knowledge(view, insert=(seat, where, key, up))
    return public_knowledge(view, reveal={where: key} if up else None)


def _reveal(kn: Knowledge, t: int, pos: int, key: int) -> Knowledge:
    rows = [list(r) for r in kn.rows]
    s = rows[t][pos]
    rows[t][pos] = SlotInfo(s.sid, s.colour, key, s.fails)
    return Knowledge(kn.colours, kn.sets, kn.jokers, kn.numbers, rows, list(kn.extra_known))


def _missed(kn: Knowledge, t: int, pos: int, num: int) -> Knowledge:
    rows = [list(r) for r in kn.rows]
    s = rows[t][pos]
    rows[t][pos] = SlotInfo(s.sid, s.colour, s.key, s.fails | 1 << num)
    return Knowledge(kn.colours, kn.sets, kn.jokers, kn.numbers, rows, list(kn.extra_known))
