"""FlipFlop's part of the search: its evaluation, its move ordering and two rules that give
exact pruning, behind the project's one alpha-beta (``asobiba.search.alphabeta``).

A side whose goal is occupied by the opponent must take it back at once (any other move
loses), so only the retaking moves are searched, and such forced positions are never cut
off at the horizon (``evaluate`` says they are not quiet). Repetitions (a position already
on the search path, or already seen twice in the game) score as draws, wins and losses
count their distance (the engine's ``draw_repeats`` and ``mate_distance``), and the engine
runs principal-variation search with this game's history heuristic.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...search.adapter import Decides, Expands, LearnsCutoffs, Orders
from ...search.alphabeta import AlphaBeta
from . import board as bd
from .tables import LOSS as TABLE_LOSS
from .tables import WIN as TABLE_WIN

if TYPE_CHECKING:
    from .tables import EndgameTables

Pos = tuple[int, int, int, int]
"""A search position: (white, black, bishops, turn)."""

WIN = 100_000
"""Score of a win at the root; a win found ``p`` plies deeper scores ``WIN - p``."""
MATE_BOUND = WIN - 1_000
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class Weights:
    """Evaluation terms (centipawn-like units, from the side to move)."""

    material: int = 120
    mobility: int = 4
    attackers: int = 45
    """Pieces that could step onto the goal we attack right now."""
    defenders: int = 30
    """Pieces that could take back on our own home centre."""
    open_goal: int = 250
    """We attack our goal and the opponent has nobody to take it back: a win in two."""
    advance: int = 6
    tempo: int = 20
    noise: int = 0
    """Half-width of a pseudo-random jitter added per position (variety for low levels)."""


MATERIAL_ONLY = Weights(mobility=0, attackers=0, defenders=0, open_goal=0, advance=0, tempo=0)


@dataclass
class Result:
    move: tuple[int, int] | None
    value: int
    depth: int
    nodes: int
    pv: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0


class FlipFlopAdapter(Decides[Pos], Orders[Pos, int], Expands[Pos, int],
                      LearnsCutoffs[int]):
    """Search positions are the four position ints; moves are ``from << 5 | to``."""

    def __init__(self, n: int, weights: Weights = Weights(), salt: int = 0,
                 tables: EndgameTables | None = None) -> None:
        self.n = n
        self.tables = tables
        """5×5 endgame tables: a covered position is decided by its exact value."""
        self.table_hits = 0
        self.geo = bd.GEOMETRY[n]
        self.w = weights
        self.salt = salt
        self.hist = [0] * 1024
        """History heuristic: how often each move int caused a cut-off (move ordering)."""
        self.goal = (self.geo.goal_of(0), self.geo.goal_of(1))
        """The square each side attacks (``geo.goal_of`` without a call in the hot loop)."""
        self.play: Callable[[Pos, int], Pos] = bd.play_int
        """The move ``from << 5 | to`` played (a plain function: no method call between
        the search and the board, once per child)."""

    # ---- evaluation ----------------------------------------------------------------------
    def static(self, w: int, b: int, x: int, t: int) -> int:
        """Material, mobility, goal threats (attackers of the goal we attack against
        defenders of it), advancement and tempo, from the side to move."""
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        mobility = bd.mobility(self.geo, mine, theirs, x) if self.w.mobility else 0
        return self._score(w, b, x, t, mobility)

    def _score(self, w: int, b: int, x: int, t: int, my_mobility: int) -> int:
        """:meth:`static` given the side to move's mobility (``evaluate`` has counted it
        already, to see whether the side can move at all: counted once, not twice)."""
        geo, wt = self.geo, self.w
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        occ = w | b
        my_goal, their_goal = self.goal[t], self.goal[1 - t]
        score = wt.material * (mine.bit_count() - theirs.bit_count()) + wt.tempo
        if wt.mobility:
            score += wt.mobility * (my_mobility - bd.mobility(geo, theirs, mine, x))
        if wt.attackers or wt.defenders or wt.open_goal:
            # who can reach each goal: one walk of its rays counts both sides
            my_att, their_def = bd.reach_counts(geo, my_goal, mine, theirs, occ, x)
            their_att, my_def = bd.reach_counts(geo, their_goal, theirs, mine, occ, x)
            if mine >> my_goal & 1:
                my_att = 0
            if theirs >> their_goal & 1:
                their_att = 0
            score += wt.attackers * (my_att - their_att) + wt.defenders * (my_def - their_def)
            if my_att and not their_def:
                score += wt.open_goal
            if their_att and not my_def:
                score -= wt.open_goal // 2
        if wt.advance:
            adv = 0
            last = self.n - 1
            for r, mask in enumerate(geo.rank_masks):
                adv += (r if t == bd.WHITE else last - r) * (mine & mask).bit_count()
                adv -= (last - r if t == bd.WHITE else r) * (theirs & mask).bit_count()
            score += wt.advance * adv
        if wt.noise:
            h = ((bd.position_key(w, b, x, t) ^ self.salt) * 0x9E3779B97F4A7C15) >> 40
            score += h % (2 * wt.noise + 1) - wt.noise
        return score

    # ---- the adapter's hooks -------------------------------------------------------------
    def key(self, pos: Pos) -> Hashable:
        w, b, x, t = pos
        return w | b << 25 | x << 50 | t << 75

    def decided(self, pos: Pos) -> float | None:
        """A side that holds its goal at its own turn has won (the opponent did not retake);
        a position inside the endgame tables has its exact value (win/loss in d plies,
        or a draw)."""
        t = pos[3]
        if pos[t] >> self.goal[t] & 1:  # (pos[t]: the mover's pieces)
            return WIN
        tab = self.tables
        if tab is not None:
            w, b = pos[0], pos[1]
            if w and b and (w | b).bit_count() <= tab.pieces:
                self.table_hits += 1
                return table_score(*tab.lookup(*pos))
        return None

    def evaluate(self, pos: Pos) -> float | None:
        w, b, x, t = pos
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        if theirs >> self.geo.home_centre[t] & 1:
            return None   # not quiet: the goal must be retaken, search on
        mobility = bd.mobility(self.geo, mine, theirs, x)
        if not mobility:
            return -WIN   # no move at all: lost
        return self._score(w, b, x, t, mobility)

    def moves(self, pos: Pos) -> Sequence[int]:
        """Every move, or only the retakes when the opponent stands on our goal."""
        w, b, x, t = pos
        geo = self.geo
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        moves = bd.move_ints(geo, mine, theirs, x)
        home = geo.home_centre[t]
        if theirs >> home & 1:
            return [m for m in moves if m & 31 == home]
        return moves

    def order(self, pos: Pos, moves: Sequence[int], first: int | None, depth: int = 0
              ) -> Sequence[int]:
        """Table move, goal moves, captures of a goal square, then history order (retakes,
        when forced, in generation order)."""
        w, b, _, t = pos
        theirs = b if t == bd.WHITE else w
        if theirs >> self.geo.home_centre[t] & 1:
            return moves
        goal = self.geo.goal_of(t)
        hist = self.hist
        goals = self.geo.goals_mask
        return sorted(moves, key=lambda m: -(1 << 40 if m == first else 0)
                      - ((1 << 30) if m & 31 == goal else 0)
                      - ((1 << 29) if goals >> (m & 31) & 1 else 0) - hist[m])

    def expand(self, pos: Pos, first: int | None, depth: int) -> Sequence[int]:
        """``moves`` then ``order`` in one call (the search's hot loop)."""
        w, b, x, t = pos
        geo = self.geo
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        moves = bd.move_ints(geo, mine, theirs, x)
        home = geo.home_centre[t]
        if theirs >> home & 1:
            return [m for m in moves if m & 31 == home]
        goal = self.goal[t]
        hist = self.hist
        goals = geo.goals_mask
        moves.sort(key=lambda m: -(1 << 40 if m == first else 0)
                   - ((1 << 30) if m & 31 == goal else 0)
                   - ((1 << 29) if goals >> (m & 31) & 1 else 0) - hist[m])
        return moves

    def on_cutoff(self, move: int, weight: int) -> None:
        self.hist[move] += weight

    def terminal_value(self, pos: Pos) -> float:
        """No move searched: lost now (no move at all) or next ply (every move leaves the
        opponent on our goal)."""
        w, b, x, t = pos
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        return -(WIN - 1) if bd.move_ints(self.geo, mine, theirs, x) else -WIN


def table_score(value: int, dist: int) -> int:
    """An endgame-table (value, distance) as a search score for the side to move."""
    if value == TABLE_WIN:
        return WIN - dist
    if value == TABLE_LOSS:
        return -(WIN - dist)
    return 0


class Searcher:
    """One searcher per bot; the table is kept between moves of the same game."""

    def __init__(self, n: int, weights: Weights = Weights(), salt: int = 0,
                 tt_size: int = 400_000, tables: EndgameTables | None = None,
                 adapter: FlipFlopAdapter | None = None) -> None:
        """``adapter``: one made by the caller (level 6's, whose evaluation is learned);
        ``weights``, ``salt`` and ``tables`` then are its own."""
        self.n = n
        self.adapter = (adapter if adapter is not None
                        else FlipFlopAdapter(n, weights, salt, tables))
        self.engine: AlphaBeta[Pos, int] = AlphaBeta(
            self.adapter, tt_size=tt_size, pvs=True, win_bound=MATE_BOUND,
            mate_distance=True, draw_repeats=2, solved_entries=False, probe_at_horizon=True)
        self.tt = self.engine.tt

    @property
    def salt(self) -> int:
        return self.adapter.salt

    @salt.setter
    def salt(self, value: int) -> None:
        self.adapter.salt = value

    def evaluate(self, w: int, b: int, x: int, t: int) -> int:
        return self.adapter.static(w, b, x, t)

    def search(self, pos: Pos, max_depth: int, time_limit: float | None = None,
               history: Mapping[int, int] | None = None,
               root_order: list[tuple[int, int]] | None = None,
               started: float | None = None) -> Result:
        """Best move for the side to move. ``history`` counts earlier occurrences of
        positions (the root included); ``root_order`` shuffles ties for variety;
        ``started``: the clock reading when the move began (the limit counts from it)."""
        a = self.adapter
        a.hist = [0] * 1024
        w, b, x, t = pos
        moves = list(a.order(pos, a.moves(pos), None))
        if not moves:
            mine, theirs = (w, b) if t == bd.WHITE else (b, w)
            moves = bd.move_ints(a.geo, mine, theirs, x)
        if not moves:
            raise ValueError("search called on a position with no legal move")
        if root_order is not None:
            wanted = [f << 5 | to for f, to in root_order]
            moves = [m for m in wanted if m in moves] + [m for m in moves if m not in wanted]
        res = self.engine.search(pos, max_depth, time_limit, root_moves=moves,
                                 history={k: v for k, v in (history or {}).items()}, started=started)
        move = res.move
        result = Result((move >> 5, move & 31), int(res.value), res.depth, res.nodes,
                        seconds=res.seconds)
        result.pv = self.principal_line(pos, result.move, result.depth)
        self.last = res
        return result

    def principal_line(self, pos: tuple[int, int, int, int], first: tuple[int, int] | None,
                       limit: int) -> list[tuple[int, int]]:
        line: list[tuple[int, int]] = []
        seen = set()
        mv = first
        while mv is not None and len(line) < limit:
            line.append(mv)
            pos = bd.apply_move(*pos, mv[0], mv[1])
            key = bd.position_key(*pos)
            if key in seen:
                break
            seen.add(key)
            entry = self.engine.tt.get(key)
            mv = (entry[3] >> 5, entry[3] & 31) if entry and entry[3] is not None else None
        return line
