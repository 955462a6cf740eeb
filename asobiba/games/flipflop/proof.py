"""Proof-number search (df-pn) for 5×5 FlipFlop, with transpositions, the left↔right mirror
and the endgame tables at the leaves, and certificates a test can replay.

``DfPn(attacker).prove(pos)`` asks one question: can ``attacker`` force a win from ``pos``?
OR nodes are the attacker's turns, AND nodes the defender's. Leaves: a side holding its goal
(won), a side with no move (lost), a position inside the tables (≤ 5 pieces: win for the
attacker, or not — a table draw is "not a win"). A side whose goal is occupied must retake
at once (any other move leaves the opponent holding the goal), so only retakes are expanded
there — the same exact pruning as the bounded search.

**Repetition.** The search runs on positions without history. A position already on the
current path counts as *not a win* for the attacker (the defender may repeat; under the
real rule that ends in a draw) and is never stored. So a **proof** never relies on a cycle:
the proof graph extracted from the table is acyclic (each node proven strictly after the
children it uses), no play along it can repeat a position, and the win holds under the real
rule. A **disproof** may depend on the path it was found on (the graph-history interaction),
so disproofs are reported as "no win found", never as certified draws.

A certificate (:func:`certificate`) is a JSON object: the root position, the attacker, and
one move for every attacker-to-move position of the proof that is not a leaf.
:func:`verify` replays it against the protocol engine (``FlipFlopState``: the real rules,
repetition included), every defender move at every defender node, down to terminal
positions or table positions whose value is a win for the attacker.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core.jsontypes import JSONObject
from . import board as bd
from . import tables as tb

if TYPE_CHECKING:
    from .game import FlipFlopState

INF = 10 ** 9
GEO = bd.GEOMETRY[5]
_REV5 = tuple(bd.mirror_mask(5, v) for v in range(32))
Pos = tuple[int, int, int, int]


def _mirror25(v: int) -> int:
    out = 0
    for r in range(5):
        out |= _REV5[v >> (5 * r) & 31] << (5 * r)
    return out


def canonical_key(pos: Pos) -> int:
    w, b, x, t = pos
    a = bd.position_key(w, b, x, t)
    m = bd.position_key(_mirror25(w), _mirror25(b), _mirror25(x), t)
    return a if a < m else m


class Budget(Exception):
    """The node budget ran out."""


@dataclass
class Outcome:
    proven: bool | None
    """True: the attacker wins; False: df-pn found no win (path-dependent); None: budget."""
    nodes: int
    seconds: float
    tt_entries: int
    table_leaves: int = 0
    notes: list[str] = field(default_factory=list)


class DfPn:
    def __init__(self, attacker: int, tables: tb.EndgameTables | None = None,
                 node_limit: int = 1_000_000) -> None:
        self.attacker = attacker
        self.tables = tables
        self.node_limit = node_limit
        self.tt: dict[int, tuple[int, int]] = {}
        self.proven_at: dict[int, int] = {}
        """Canonical key → the order in which it was proven (leaves: 0)."""
        self.seq = 0
        self.nodes = 0
        self.table_leaves = 0

    # ---- leaves and children -------------------------------------------------------------
    def leaf(self, pos: Pos) -> bool | None:
        """True/False: the attacker wins / does not, decided here; None: search on."""
        w, b, x, t = pos
        if bd.holds_goal(GEO, w, b, t):
            return t == self.attacker
        if not (w and b):
            return (w if self.attacker == bd.WHITE else b) != 0
        tab = self.tables
        if tab is not None and (w | b).bit_count() <= tab.pieces:
            self.table_leaves += 1
            value, _ = tab.lookup(w, b, x, t)
            if value == tb.DRAW:
                return False
            return (value == tb.WIN) == (t == self.attacker)
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        if not bd.move_ints(GEO, mine, theirs, x):
            return t != self.attacker
        return None

    def moves(self, pos: Pos) -> list[int]:
        """The moves worth expanding: all, or only the retakes when our goal is taken."""
        w, b, x, t = pos
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        moves = bd.move_ints(GEO, mine, theirs, x)
        home = GEO.home_centre[t]
        if theirs >> home & 1:
            return [m for m in moves if m & 31 == home]
        return moves

    def _status(self, pos: Pos, key: int) -> tuple[int, int]:
        hit = self.tt.get(key)
        if hit is not None:
            return hit
        done = self.leaf(pos)
        if done is None:
            return (1, 1)
        entry = (0, INF) if done else (INF, 0)
        self.tt[key] = entry
        if done:
            self.proven_at.setdefault(key, 0)
        return entry

    # ---- the search ----------------------------------------------------------------------
    def prove(self, pos: Pos) -> Outcome:
        t0 = time.process_time()
        key = canonical_key(pos)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            pn, dn = self._status(pos, key)
            if pn and dn:
                self._mid(pos, key, INF - 1, INF - 1, set())
                pn, dn = self.tt[key]
            proven = True if pn == 0 else False if dn == 0 else None
        except Budget:
            proven = None
        finally:
            sys.setrecursionlimit(old)
        return Outcome(proven, self.nodes, time.process_time() - t0, len(self.tt),
                       self.table_leaves)

    def _mid(self, pos: Pos, key: int, tpn: int, tdn: int, path: set[int]) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Budget
        is_or = pos[3] == self.attacker
        kids = []
        for m in self.moves(pos):
            c = bd.play_int(pos, m)
            kids.append((c, canonical_key(c)))
        path.add(key)
        pn = dn = 0
        try:
            while True:
                stats = []
                for c, ck in kids:
                    stats.append((INF, 0) if ck in path else self._status(c, ck))
                if is_or:
                    pn = min((s[0] for s in stats), default=INF)
                    dn = min(INF, sum(s[1] for s in stats))
                else:
                    pn = min(INF, sum(s[0] for s in stats))
                    dn = min((s[1] for s in stats), default=INF)
                if pn >= tpn or dn >= tdn or pn == 0 or dn == 0:
                    break
                # most-proving child and the second-best bound
                if is_or:
                    order = sorted(range(len(kids)), key=lambda i: stats[i][0])
                    i = order[0]
                    second = stats[order[1]][0] if len(order) > 1 else INF
                    cpn = min(tpn, second + 1)
                    cdn = tdn - dn + stats[i][1]
                else:
                    order = sorted(range(len(kids)), key=lambda i: stats[i][1])
                    i = order[0]
                    second = stats[order[1]][1] if len(order) > 1 else INF
                    cdn = min(tdn, second + 1)
                    cpn = tpn - pn + stats[i][0]
                c, ck = kids[i]
                self._mid(c, ck, min(cpn, INF - 1), min(cdn, INF - 1), path)
        finally:
            path.discard(key)
        self.tt[key] = (pn, dn)
        if pn == 0 and key not in self.proven_at:
            self.seq += 1
            self.proven_at[key] = self.seq


# ---- certificates -------------------------------------------------------------------------
def certificate(search: DfPn, root: Pos) -> JSONObject:
    """The proof as {root, attacker, moves: {position: move}}, extracted so that every
    node uses only children proven before it (hence acyclic)."""
    from .notation import to_fen

    moves: dict[str, str] = {}
    done: set[int] = set()
    stack: list[Pos] = [root]
    leaves = 0
    while stack:
        pos = stack.pop()
        key = bd.position_key(*pos)
        if key in done:
            continue
        done.add(key)
        if search.leaf(pos) is True:
            leaves += 1
            continue
        seq = search.proven_at.get(canonical_key(pos))
        if seq is None:
            raise ValueError(f"{to_fen(5, *pos)} is not proven")
        if pos[3] == search.attacker:
            best = None
            for m in search.moves(pos):
                c = bd.play_int(pos, m)
                if search.leaf(c) is True:
                    best = (0, m, c)
                    break
                cs = search.proven_at.get(canonical_key(c))
                if cs is not None and cs < seq and (best is None or cs < best[0]):
                    best = (cs, m, c)
            if best is None:
                raise ValueError(f"no proven move at {to_fen(5, *pos)}")
            m = best[1]
            moves[to_fen(5, *pos)] = _move_text(pos, m)
            stack.append(best[2])
        else:
            for m in bd.move_ints(GEO, *_sides(pos), pos[2]):
                c = bd.play_int(pos, m)
                if search.leaf(c) is True:
                    continue
                cs = search.proven_at.get(canonical_key(c))
                if cs is None or cs >= seq:
                    raise ValueError(f"defender escapes at {to_fen(5, *pos)}")
                stack.append(c)
    return {"format": 1, "game": "flipflop", "board": "5x5", "root": to_fen(5, *root),
            "attacker": "white" if search.attacker == bd.WHITE else "black",
            "claim": "the attacker forces a win (goal held or opponent stuck)",
            "tables_pieces": search.tables.pieces if search.tables else 0,
            "positions": len(done), "attacker_moves": len(moves), "leaves": leaves,
            "moves": dict(sorted(moves.items()))}


def _sides(pos: Pos) -> tuple[int, int]:
    w, b, _, t = pos
    return (w, b) if t == bd.WHITE else (b, w)


def _move_text(pos: Pos, m: int) -> str:
    from .notation import FFMove, move_text

    frm, to = m >> 5, m & 31
    w, b, x, _ = pos
    mv = FFMove(frm, to, bool(x >> frm & 1), bool((w | b) >> to & 1))
    return move_text(5, mv)


def verify(cert: JSONObject, tables: tb.EndgameTables | None) -> int:
    """Replay a certificate against the protocol engine; returns the positions checked,
    raises ValueError at the first flaw (missing move, illegal move, a defender reply that
    escapes, a repetition, a leaf that is not a win)."""
    from .game import GAME

    attacker = bd.WHITE if cert["attacker"] == "white" else bd.BLACK
    moves = cert["moves"]
    if not isinstance(moves, dict):
        raise ValueError("certificate without moves")
    root = GAME.from_position(str(cert["root"]), {"board": "5x5"})
    good: set[int] = set()
    checked = 0

    def walk(state: FlipFlopState, path: frozenset[int]) -> Iterator[FlipFlopState]:
        out = state.outcome
        if out is not None:
            if out.is_draw or out.ranks[attacker] != 1:
                raise ValueError(f"{state.key}: the game ends without the attacker's win")
            return
        w, b, x, t = state.tuple4()
        if tables is not None and tables.covers(w, b):
            value, _ = tables.lookup(w, b, x, t)
            if value == tb.DRAW or (value == tb.WIN) != (t == attacker):
                raise ValueError(f"{state.key}: the tables say the attacker does not win")
            return
        if t == attacker:
            from .notation import to_fen

            text = moves.get(to_fen(5, w, b, x, t))
            if not isinstance(text, str):
                raise ValueError(f"no move for {to_fen(5, w, b, x, t)}")
            yield state.child(state.parse(text))   # parse refuses an illegal move
        else:
            for mv in state.legal_moves():
                yield state.child(mv)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    def check(state: FlipFlopState, path: frozenset[int]) -> None:
        nonlocal checked
        key = state.key
        if key in path:
            raise ValueError("the proof repeats a position")
        if key in good:
            return
        checked += 1
        inner = path | {key}
        for child in walk(state, path):
            check(child, inner)
        good.add(key)

    check(root, frozenset())
    return checked
