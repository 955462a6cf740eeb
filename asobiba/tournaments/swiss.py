"""Swiss pairing by maximum-weight matching, with the Dutch-system constraints of
docs/tournaments.md, and the Buchholz and Sonneborn–Berger tie-breaks.

A round is one call of :func:`pair_round` with the players still in (withdrawn players left
out by the caller) and every game and bye so far. The pairing is a maximum-*cardinality*
matching of networkx's ``max_weight_matching`` (as many games as possible) whose weight
orders the criteria lexicographically, most important first:

0. **the colour limit** — no colour difference beyond 2: two players both two whites up (or
   both two blacks up) are not paired while a complete pairing without such a pair exists;
1. **no repeat pairing** — two players who met already meet again only when no matching of
   the same size avoids it (then as few repeats as possible);
2. **one bye per player** — with an odd number of players, the bye is a dummy node; it goes
   to a player who has had no bye while one exists;
3. **score groups** — the sum of the squared score differences of the pairs is minimal (so
   players meet their own score group, and a floater drops to the nearest group); the bye
   goes to the lowest score;
4. **colour balance** — two players who both *must* have the same colour (colour difference
   ±2 or the same colour twice running) are not paired while avoidable; then as few mild
   preference clashes as possible;
5. **Dutch order** — within those, the top half of a score group meets the bottom half (the
   distance in the ranking is close to half the group) and the bye goes to the lowest
   ranked.

Colours of a pair go to whoever is further from balance (the player with more blacks takes
white), then to alternate from the last colour, then the higher ranked gets his preference.
Weights are exact integers (``max_weight_matching`` is exact on integers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

#: The dummy node of the bye.
BYE = -1


@dataclass(frozen=True)
class Game:
    """A played (or assigned) game: ``white`` moved first; ``score`` is white's: 1, ½ or 0.

    ``score`` None: not finished yet (counts as a meeting and a colour, not as points).
    """

    white: int
    black: int
    score: float | None


@dataclass(frozen=True)
class Pairing:
    """One round: ``games`` as (white, black) pairs, ``bye`` the player left out (or None)."""

    games: tuple[tuple[int, int], ...]
    bye: int | None


@dataclass
class Record:
    """What the pairing knows of a player after the rounds so far."""

    player: int
    rating: float = 0.0
    score: float = 0.0
    colours: list[str] = field(default_factory=list)  # "w" / "b" in order
    opponents: list[int] = field(default_factory=list)
    byes: int = 0

    @property
    def colour_diff(self) -> int:
        return self.colours.count("w") - self.colours.count("b")

    def preference(self) -> tuple[str | None, bool]:
        """(the colour wanted, whether absolutely): Dutch-style."""
        diff = self.colour_diff
        last2 = self.colours[-2:]
        if diff <= -2 or last2 == ["b", "b"]:
            return "w", True
        if diff >= 2 or last2 == ["w", "w"]:
            return "b", True
        if diff < 0:
            return "w", False
        if diff > 0:
            return "b", False
        if self.colours:
            return ("b" if self.colours[-1] == "w" else "w"), False
        return None, False


def records(players: Iterable[tuple[int, float]], games: Iterable[Game],
            byes: Iterable[int] = (), bye_points: float = 1.0) -> dict[int, Record]:
    """Scores, colours, opponents and byes of ``players`` ((id, rating) pairs) from history.

    Games with a player not in ``players`` (withdrawn) still count for the one who is.
    """
    out = {p: Record(p, float(r)) for p, r in players}
    for g in games:
        for me, other, colour in ((g.white, g.black, "w"), (g.black, g.white, "b")):
            rec = out.get(me)
            if rec is None:
                continue
            rec.colours.append(colour)
            rec.opponents.append(other)
            if g.score is not None:
                rec.score += g.score if colour == "w" else 1.0 - g.score
    for p in byes:
        if p in out:
            out[p].byes += 1
            out[p].score += bye_points
    return out


def _lex(tiers: Sequence[tuple[int, int]], pairs: int) -> int:
    """Combine (value, max value) tiers, most significant first, so that any sum over at most
    ``pairs`` edges compares lexicographically."""
    acc, span = 0, 0
    for value, top in reversed(tiers):
        base = pairs * span + 1
        acc = value * base + acc
        span = top * base + span
    return acc


def ranking(recs: dict[int, Record]) -> list[int]:
    """Players by score, then rating, then id (the Dutch order of the pairing)."""
    return sorted(recs, key=lambda p: (-recs[p].score, -recs[p].rating, p))


#: The ranking windows tried in turn (None: every pair), see :func:`pair_round`.
WINDOWS: tuple[int | None, ...] = (6, 24, None)
#: From this many players, a pairing whose only flaw is a clash of two absolute colour
#: preferences is kept rather than widened (docs/tournaments.md, "Speed").
LARGE_FIELD = 64


def pair_round(recs: dict[int, Record]) -> Pairing:
    """Pair one round (see the module's docstring for the criteria).

    A complete graph of 200 players takes seconds to match, so the edges are first only
    between players at most ``WINDOWS[0]`` places apart in the ranking, or that far from
    the player's Dutch opponent (half a score group down); when that pairing
    falls short of a perfect one (a player unpaired, a repeat, a second bye while a player
    has none, two absolute colour preferences clashing), a wider window is tried, and last
    the complete graph, whose answer is the exact optimum of the criteria — except for a
    colour clash alone in a field of ``LARGE_FIELD`` players or more, which is kept.
    """
    order = ranking(recs)
    if not order:
        return Pairing((), None)
    result = Pairing((), None)
    for window in WINDOWS:
        result, clean, colour_only = _pair(recs, order, window)
        # in a large field a clash of absolute colours alone is kept (the complete graph
        # of 200 players costs seconds); a small field tries every pair first
        if clean or (colour_only and len(order) >= LARGE_FIELD):
            break
    return result


def _pair(recs: dict[int, Record], order: list[int],
          window: int | None) -> tuple[Pairing, bool, bool]:
    n = len(order)
    rank = {p: i for i, p in enumerate(order)}
    half = [int(2 * recs[p].score) for p in order]  # scores in half points
    top_d = max(half) - min(half)
    top_sq = top_d * top_d
    groups: dict[int, int] = {}
    for h in half:
        groups[h] = groups.get(h, 0) + 1
    pairs = (n + 1) // 2
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(order)
    met = {p: set(recs[p].opponents) for p in order}
    prefs = {p: recs[p].preference() for p in order}
    any_without_bye = any(recs[p].byes == 0 for p in order)
    reach = n if window is None else window
    for i, a in enumerate(order):
        # the neighbours in the ranking, and those around the Dutch opponent (i + g/2)
        target = i + groups[half[i]] // 2
        near = set(range(i + 1, min(n, i + reach + 1)))
        near.update(range(max(i + 1, target - reach), min(n, target + reach + 1)))
        for j in sorted(near):
            b = order[j]
            d = half[i] - half[j]
            pa, pb = prefs[a], prefs[b]
            clash = pa[0] is not None and pa[0] == pb[0]
            clash_abs = clash and pa[1] and pb[1]
            illegal = _over(recs[a], recs[b])
            # the Dutch distance: in a score group of size g, rank i meets rank i + g/2
            g = groups[half[i]] if half[i] == half[j] else n
            dutch = abs((j - i) - g // 2)
            w = _lex([(0 if illegal else 1, 1),
                      (0 if b in met[a] else 1, 1), (1, 1), (top_sq - d * d, top_sq),
                      (0 if clash_abs else 1, 1), (0 if clash else 1, 1),
                      (n - min(dutch, n), n)], pairs)
            graph.add_edge(a, b, weight=w)
    if n % 2 == 1:
        for i, p in enumerate(order):
            allowed = recs[p].byes == 0 or not any_without_bye
            # the bye: lowest score (largest distance to the top), then lowest rank
            low = (half[i] - min(half)) ** 2
            w = _lex([(1, 1), (1, 1), (1 if allowed else 0, 1), (top_sq - low, top_sq),
                      (1, 1), (1, 1), (i + 1, n)], pairs)
            graph.add_edge(BYE, p, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    games: list[tuple[int, int]] = []
    bye: int | None = None
    clean = len(matching) == pairs
    colour_clash = False
    for a, b in matching:
        if a == BYE or b == BYE:
            bye = b if a == BYE else a
            if recs[bye].byes and any_without_bye:
                clean = False
            continue
        if b in met[a] or _over(recs[a], recs[b]):
            clean = False
        pa, pb = prefs[a], prefs[b]
        if pa[0] is not None and pa[0] == pb[0] and pa[1] and pb[1]:
            colour_clash = True
        games.append(colours(recs[a], recs[b], rank))
    games.sort(key=lambda wb: min(rank[wb[0]], rank[wb[1]]))
    return Pairing(tuple(games), bye), clean and not colour_clash, clean and colour_clash


def _over(a: Record, b: Record) -> bool:
    """Whether pairing ``a`` with ``b`` takes one of them to a colour difference of 3: both
    are at +2 (both need black) or both at -2 (both need white)."""
    da, db = a.colour_diff, b.colour_diff
    return (da >= 2 and db >= 2) or (da <= -2 and db <= -2)


def colours(a: Record, b: Record, rank: dict[int, int]) -> tuple[int, int]:
    """(white, black) for a pair (see the module's docstring)."""
    if a.colour_diff != b.colour_diff:
        return (a.player, b.player) if a.colour_diff < b.colour_diff else (b.player, a.player)
    pa, pb = a.preference(), b.preference()
    if pa[1] != pb[1]:  # an absolute preference wins
        strong = a if pa[1] else b
        want = (pa if pa[1] else pb)[0]
        other = b if strong is a else a
        return (strong.player, other.player) if want == "w" else (other.player, strong.player)
    first, second = (a, b) if rank[a.player] < rank[b.player] else (b, a)
    want = first.preference()[0]
    if want is None:
        # the first round: the higher ranked of a pair takes white on odd boards
        return (first.player, second.player)
    return (first.player, second.player) if want == "w" else (second.player, first.player)


@dataclass(frozen=True)
class Standing:
    player: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int


def standings(players: Iterable[tuple[int, float]], games: Iterable[Game],
              byes: Iterable[int] = (), bye_points: float = 1.0) -> list[Standing]:
    """Standings by score, then Buchholz (the sum of the opponents' scores), then
    Sonneborn–Berger (the sum of the scores of the opponents beaten, plus half those drawn),
    then rating. Byes give points but no opponent: they add nothing to either tie-break.
    Unfinished games count for neither."""
    games = [g for g in games if g.score is not None]
    recs = records(players, games, byes, bye_points)
    # opponents may have withdrawn: their scores come from every game
    allp = {p for g in games for p in (g.white, g.black)} | set(recs)
    everyone = records(((p, recs[p].rating if p in recs else 0.0) for p in allp), games,
                       byes, bye_points)
    buch = {p: 0.0 for p in recs}
    sb = {p: 0.0 for p in recs}
    for g in games:
        assert g.score is not None
        for me, other, mine in ((g.white, g.black, g.score), (g.black, g.white, 1 - g.score)):
            if me in recs:
                buch[me] += everyone[other].score
                sb[me] += mine * everyone[other].score
    out = [Standing(p, recs[p].score, buch[p], sb[p], len(recs[p].opponents)) for p in recs]
    out.sort(key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, -recs[s.player].rating,
                            s.player))
    return out
