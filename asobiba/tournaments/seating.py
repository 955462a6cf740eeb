"""Rounds of tables for games of three or more seats (Memory Matrix, Algo).

A round splits the players into tables whose sizes lie within the variant's seat range
(:func:`table_sizes`: as many full tables as possible, the rest spread so that no table is
below the minimum; players who cannot be seated get a bye). Players are grouped by their
points so far (then rating) and dealt round-robin across the tables in round 1 (every table
mixed), in score order later (close scores together) — and inside a table the seats are
rotated: each player takes the seat he has sat in least (then the one after his last).

Points by placing: at a table of ``k``, the place ``p`` (0 first) earns ``k - 1 - p``; players
tied for a place share the points of the places they span (kept in half points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx


@dataclass
class Seated:
    """What the seating knows of a player."""

    player: int
    points: float = 0.0
    rating: float = 0.0
    seats: list[int] = field(default_factory=list)  # seat indices taken so far
    byes: int = 0


def table_sizes(n: int, low: int, high: int) -> tuple[list[int], int]:
    """(sizes of the tables, players left over) for ``n`` players and seats ``low..high``."""
    if low < 2 or high < low:
        raise ValueError("seat range")
    for tables in range(-(-n // high), n // low + 1):
        if tables and low * tables <= n <= high * tables:
            base, extra = divmod(n, tables)
            return [base + 1] * extra + [base] * (tables - extra), 0
    # not every player fits: as many full tables as there are, the rest sits out
    tables = n // high
    if tables == 0:
        return ([n] if n >= low else []), (0 if n >= low else n)
    left = n - tables * high
    return [high] * tables, left


def seat_round(players: Sequence[Seated], low: int, high: int,
               first_round: bool) -> tuple[list[list[int]], list[int]]:
    """(tables as lists of players in seat order, players with a bye)."""
    order = sorted(players, key=lambda s: (-s.points, -s.rating, s.player))
    sizes, left = table_sizes(len(order), low, high)
    byes: list[int] = []
    if left:
        # the byes: the lowest placed among those with the fewest byes
        cands = sorted(order, key=lambda s: (s.byes, s.points, s.rating, -s.player))
        out = {s.player for s in cands[:left]}
        byes = [s.player for s in cands[:left]]
        order = [s for s in order if s.player not in out]
    groups: list[list[Seated]] = [[] for _ in sizes]
    if first_round:
        k = 0
        for s in order:
            while len(groups[k % len(sizes)]) >= sizes[k % len(sizes)]:
                k += 1
            groups[k % len(sizes)].append(s)
            k += 1
    else:
        at = 0
        for t, size in enumerate(sizes):
            groups[t] = list(order[at:at + size])
            at += size
    tables = [rotate(g) for g in groups]
    return tables, byes


def rotate(group: Sequence[Seated]) -> list[int]:
    """Seat order for one table: the assignment of players to seats that gives, over the
    whole table, first the fewest repeated seats (each player the seat he has had least),
    then seats closest to the one after each player's last — one maximum-weight matching
    of players to seats (networkx), so no player is pushed back into his old seat when
    another arrangement avoids it (a greedy choice, player by player, could)."""
    size = len(group)
    if size == 0:
        return []
    graph: nx.Graph[tuple[str, int]] = nx.Graph()
    worst = size * (size + 1)
    for s in group:
        last = s.seats[-1] if s.seats else -1
        for i in range(size):
            cost = s.seats.count(i) * size + (i - (last + 1)) % size
            graph.add_edge(("p", s.player), ("s", i), weight=worst - cost)  # exact integers
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    seats: list[int] = [0] * size
    for a, b in matching:
        player, seat = (a, b) if a[0] == "p" else (b, a)
        seats[seat[1]] = player[1]
    return seats


def placing_points(places: Sequence[int]) -> list[float]:
    """Points of each seat from its place (0 first; equal places are ties)."""
    k = len(places)
    ranked = sorted(range(k), key=lambda i: places[i])
    out = [0.0] * k
    i = 0
    while i < k:
        j = i
        while j + 1 < k and places[ranked[j + 1]] == places[ranked[i]]:
            j += 1
        share = sum(k - 1 - p for p in range(i, j + 1)) / (j - i + 1)
        for m in range(i, j + 1):
            out[ranked[m]] = share
        i = j + 1
    return out
