"""Memory-graded bots. Every level sees views only and keeps its own :class:`Memory`;
levels differ in how fast they forget hidden colours and in how far they look ahead.

Search runs on determinizations: full positions that agree with the view, with remembered
colours under the white pieces the bot recalls and sampled colours under the rest. A
perfect-memory bot that watched the whole game has nothing left to sample.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ...core.bot import Bot
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.rng import Rng
from ...core.views import own_seat
from ...search.adapter import Decides, Expands, HasPlayer
from ...search.alphabeta import AlphaBeta
from ...search.budget import MoveClock
from . import rules
from .memory import Memory, determinize
from .rules import Config, Pos
from .views import memory_matrix_view

TERMINAL = 1000.0
TIME_LIMIT = 5.0
"""Seconds per move for the levels that search by successive halving (3+ players), half the
server's 10 s for a bot move: on a quiet machine their fixed budget ends long before (level
6's slowest of 120 decisions took 2.4 s of CPU), on a crowded one the search stops at the
deadline and plays the best of its last complete round (``MoveClock`` keeps a reserve) instead
of being replaced by the server's random move. Arenas and tests build the bots without it."""


@dataclass(frozen=True)
class Weights:
    """Evaluation terms: worth of an own piece lying white (it may come back) and extra
    worth of a piece face up on a cell that can never flip (a corner)."""

    hidden: float = 0.0
    corner: float = 0.0
    rivals: float = 1.0  # 0: only "make my colour more" (the seed's first aim), 1: beat the best
    contempt: float = 0.0  # if set: a board with no face up piece is a dead draw worth this less
    shared: float = 1.0  # a first place shared by k players earns the win bonus / k**shared


@dataclass(frozen=True)
class Level:
    """One bot strength: memory (forget chance per observed move, capacity) and search.

    Two players: paranoid alpha-beta of ``depth`` plies (an exact solve from ``endgame``
    empty cells). More players: each of ``width`` best-looking moves is followed by
    ``rounds`` rounds of greedy replies, every colour for itself (a max-n line with
    greedy opponents); ``rounds=0`` is plain greedy."""

    forget: float
    capacity: int | None = None
    samples: int = 1  # determinizations per decision
    depth: int = 1
    endgame: int = 0
    width: int = 0
    rounds: int = 0
    weights: Weights = Weights()
    model: Weights = Weights()  # the weights assumed for the other seats' greedy replies
    blunder: float = 0.0  # chance of a random legal move (a small child's move)
    rollouts: int = 1  # greedy-reply lines per examined move (more than one needs noise)
    noise: float = 0.0  # random worth added to each reply's value: the others' mistakes
    muddle: float = 0.0  # share of white pieces whose colour the others are assumed to guess
    # successive halving (3+ players): rollouts per surviving move in each round; after
    # every round but the last the better half (by mean value so far) goes on
    halving: tuple[int, ...] = ()
    own: Weights | None = None  # the weights of its own greedy moves in the rollouts
    maxn: int = 0  # 3+ players: exact max-n to the end of the game from this many empties
    # 3+ players: the noise and muddle of the other seats' choices in the rollouts, if not
    # ``noise`` and ``muddle`` — for every other seat, or with ``read_others`` for those
    # it has not read as greedy players
    others_noise: float | None = None
    others_muddle: float | None = None
    # 3+ players: a seat whose moves so far were among the greedy-best (on ``model``) at
    # least this often (one greedy move of two assumed before any is seen) is modelled as
    # greedy (``noise``, ``muddle``), the rest with ``others_noise``/``others_muddle``
    read_others: float = 0.0


LEVELS: dict[str, Level] = {
    # no memory at all (every white piece is a guess), greedy, and a child's random moves
    "1": Level(forget=1.0, blunder=0.3),
    # forgets each remembered colour with 15% chance a move; greedy, knows corners are safe
    "2": Level(forget=0.15, weights=Weights(0.2, 1.0)),
    # perfect recall; 2 players: 2-ply alpha-beta; more: 4 moves followed one round ahead
    "3": Level(forget=0.0, depth=2, width=4, rounds=1, weights=Weights(0.0, 1.0)),
    # perfect recall; 2 players: 3-ply alpha-beta, exact from 7 empty cells (transposition
    # table); more: 8 moves each followed to the end of the game by 8 lines of greedy
    # replies (common random numbers), the others choosing on a muddled memory (half the
    # white pieces guessed) with a little noise. It never settles for a dead all-white
    # board while the game is alive (contempt), values a shared first by 1/k², and counts
    # a corner three times (corners decide two-player endings with white any time).
    "4": Level(forget=0.0, depth=3, endgame=7, width=8, rounds=99, rollouts=8, noise=0.5,
               muddle=0.5, weights=Weights(0.0, 2.0, contempt=2.5, shared=2.0),
               model=Weights(0.2, 1.0)),
    # perfect recall; 2 players: 4-ply alpha-beta, exact from 8 empty cells; more: the 10
    # best-looking moves, successive halving of greedy rollouts to the end (4, 4, 8, 16
    # more lines per move still in: the budget goes to the close candidates), its own
    # colours choosing on its own evaluation, exact max-n from 6 empty cells
    "5": Level(forget=0.0, depth=4, endgame=8, width=10, halving=(4, 4, 8, 16), maxn=6,
               noise=0.5, muddle=0.5, weights=Weights(0.0, 2.0, contempt=2.5, shared=2.0),
               model=Weights(0.2, 1.0), own=Weights(0.0, 2.0, contempt=2.5, shared=2.0)),
    # level 5 with a larger budget: 2 players, 5-ply alpha-beta, exact from 9 empty cells
    # (from 10 one decision took 11.8 s); more: eight times its rollouts (32, 32, 64, 128
    # more lines per move still in: 928 a decision), and it reads each other seat as it
    # watches it: a seat whose moves were greedy-best at least 58 % of the time (level 2:
    # 81 %) is modelled as greedy, the rest as far less predictable (noise 5, every white
    # piece guessed; level 4: 35 %) — eight times the rollouts alone gained nothing against
    # three level 4, the reading 12.5 points more firsts alone
    "6": Level(forget=0.0, depth=5, endgame=9, width=10, halving=(32, 32, 64, 128), maxn=6,
               noise=0.5, muddle=0.5, weights=Weights(0.0, 2.0, contempt=2.5, shared=2.0),
               model=Weights(0.2, 1.0), own=Weights(0.0, 2.0, contempt=2.5, shared=2.0),
               others_noise=5.0, others_muddle=1.0, read_others=0.58),
}


def seat_values(cfg: Config, pos: Pos, w: Weights) -> list[float]:
    """Each seat's pieces face up, plus the weighted extras."""
    values = [0.0] * cfg.players
    up, neutral = pos.up, pos.neutral
    fixed = cfg.geometry.unflippable
    for colour, ident in enumerate(pos.ident):
        shown = ident & up
        value = float(shown.bit_count())
        if w.hidden:
            value += w.hidden * (ident & ~up & ~neutral).bit_count()
        if w.corner:
            value += w.corner * (shown & fixed).bit_count()
        values[colour % cfg.players] += value
    return values


def evaluate(cfg: Config, pos: Pos, seat: int, w: Weights) -> float:
    """How far ``seat`` is ahead of the best other seat (a won game counts extra)."""
    if pos.turn < 0:
        scores = rules.scores(cfg, pos)
        best_other = max(s for k, s in enumerate(scores) if k != seat)
        if scores[seat] < best_other:
            return scores[seat] - best_other
        # a win counts extra, a shared win its share (ranks with ties shared)
        share: float = scores.count(scores[seat]) ** w.shared
        return scores[seat] - best_other + TERMINAL / share
    if w.contempt and not pos.up:
        # nothing face up: no colour move and no white sandwich is left, so every remaining
        # move is a white piece placed anywhere and the game will end 0-0 — a dead draw,
        # which a stronger player should not settle for while the game is still alive
        return -w.contempt
    values = seat_values(cfg, pos, w)
    best_value = max(v for k, v in enumerate(values) if k != seat)
    return values[seat] - w.rivals * best_value


def greedy_move(cfg: Config, pos: Pos, w: Weights, noise: float = 0.0,
                rng: Rng | None = None) -> int:
    """The move that leaves the mover's seat best off right away (first of equals); with
    ``noise``, each value is blurred by a random amount (an imperfect player).

    The same choice as evaluating every child position, computed from each move's flips
    alone: a flip moves a piece between "face up" and "white over its colour", so each
    colour's counts change only on the flipped cells and the new piece (the rollouts of
    the look-ahead call this for nearly every ply, so it is the bots' hot loop)."""
    moves = rules.legal_moves(cfg, pos)
    if len(moves) == 1:
        return moves[0]
    colour = pos.turn
    seat = cfg.seat_of(colour)
    geo = cfg.geometry
    if cfg.lost_colour_passes or (geo.valid & ~pos.occ).bit_count() == 1:
        # a move may end the game here: score the finished positions the long way
        return _greedy_by_children(cfg, pos, moves, seat, w, noise, rng)
    up, neutral, idents = pos.up, pos.neutral, pos.ident
    fixed = geo.unflippable
    players = cfg.players
    n = len(idents)
    hw, cw = w.hidden, w.corner
    shown = [(m & up).bit_count() for m in idents]
    hidden = [(m & ~up & ~neutral).bit_count() for m in idents] if hw else [0] * n
    corner = [(m & up & fixed).bit_count() for m in idents] if cw else [0] * n
    # each colour's worth as it stands: a move changes only the colours it flips and its
    # own, the others keep this (the same sum in the same order, so the same float)
    worth = []
    for c in range(n):
        v = float(shown[c])
        if hw:
            v += hw * hidden[c]
        if cw:
            v += cw * corner[c]
        worth.append(v)
    others = [k for k in range(players) if k != seat]
    rivals = w.rivals
    own_up = idents[colour] & up
    own_rest = pos.occ & ~own_up
    white, coloured = pos.white(), pos.up
    draws = rng.randoms(len(moves)) if noise and rng is not None else None
    best, best_value = moves[0], float("-inf")
    for index, move in enumerate(moves):
        cell = move >> 1
        bit = 1 << cell
        # the pieces this move flips, neutral pieces staying white
        ends, runs_of = (white, coloured) if move & 1 else (own_up, own_rest)
        flips = rules.sandwiched_runs(geo, cell, ends, runs_of) & ~neutral
        new_up = (up ^ flips) | (0 if move & 1 else bit)
        if w.contempt and not new_up:
            value = -w.contempt
        else:
            values = [0.0] * players
            for c in range(n):
                changed = idents[c] & flips
                if not changed and c != colour:
                    values[c % players] += worth[c]
                    continue
                s_c, h_c, k_c = shown[c], hidden[c], corner[c]
                if changed:
                    went_down = (changed & up).bit_count()
                    s_c += changed.bit_count() - 2 * went_down
                    h_c -= changed.bit_count() - 2 * went_down
                    k_c += (changed & ~up & fixed).bit_count() - (changed & up & fixed).bit_count()
                if c == colour:
                    if move & 1:
                        h_c += 1
                    else:
                        s_c += 1
                        k_c += 1 if bit & fixed else 0
                v = float(s_c)
                if hw:
                    v += hw * h_c
                if cw:
                    v += cw * k_c
                values[c % players] += v
            value = values[seat] - rivals * max([values[k] for k in others])
        if draws is not None:
            value += noise * draws[index]
        if value > best_value:
            best, best_value = move, value
    return best


def _greedy_by_children(cfg: Config, pos: Pos, moves: list[int], seat: int, w: Weights,
                        noise: float, rng: Rng | None) -> int:
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = evaluate(cfg, rules.apply(cfg, pos, move)[0], seat, w)
        if noise and rng is not None:
            value += noise * rng.random()
        if value > best_value:
            best, best_value = move, value
    return best


def muddled(pos: Pos, share: float, rng: Rng) -> Pos:
    """``pos`` as a forgetful player may believe it: the colours beneath a random ``share``
    of the white pieces shuffled among themselves (so every count stays right)."""
    whites = rules.cells_of(pos.white())
    picked = [i for i, x in zip(whites, rng.randoms(len(whites))) if x < share]
    if len(picked) < 2:
        return pos
    owners = []
    for i in picked:
        bit = 1 << i
        owner = -1
        for c, m in enumerate(pos.ident):
            if m & bit:
                owner = c
                break
        owners.append(owner)
    rng.shuffle(owners)
    cleared = ~sum(1 << i for i in picked)
    ident = [m & cleared for m in pos.ident]
    neutral = pos.neutral & cleared
    for i, owner in zip(picked, owners):
        if owner < 0:
            neutral |= 1 << i
        else:
            ident[owner] |= 1 << i
    return Pos(pos.occ, pos.up, tuple(ident), neutral, pos.hand, pos.turn)


def look_ahead(cfg: Config, pos: Pos, seat: int, plies: int, w: Weights,
               model: Weights, noise: float = 0.0, rng: Rng | None = None,
               muddle: float = 0.0) -> float:
    """Play ``plies`` greedy replies (every colour for itself), then evaluate for ``seat``.
    With ``muddle``, the other seats choose on a muddled belief of the hidden colours."""
    for _ in range(plies):
        if pos.turn < 0:
            break
        belief = pos
        if muddle and rng is not None and cfg.seat_of(pos.turn) != seat:
            belief = muddled(pos, muddle, rng)
        pos = rules.apply(cfg, pos, greedy_move(cfg, belief, model, noise, rng))[0]
    return evaluate(cfg, pos, seat, w)


Node = tuple[Pos, int]
"""A search position: the board and the sign that turns ``seat``'s evaluation into the
value for the side to move (+1 when ``seat``'s side moves, -1 for the others; at a finished
board, the opposite of the side that made the last move, as negamax reads it)."""
Child = tuple[int, Node | None]
"""A move and the node it leads to — ``None`` until :meth:`ParanoidAdapter.play` needs it
where the children are not ordered (most of them are never played: a cut-off comes
first)."""


class ParanoidAdapter(Expands[Node, Child], HasPlayer[Node], Decides[Node]):
    """Memory Matrix on the project's alpha-beta: the paranoid reduction of a many-player
    game to two sides (``seat`` against every other seat; exact minimax for two players),
    as negamax. Children are ordered by the static evaluation (for the side to move) where
    more than ``order_from`` plies are left. ``exact``: a board with nothing face up is
    scored at once as the 0-0 it must end in; otherwise it is a leaf only under
    ``contempt`` (its value cannot change)."""

    def __init__(self, cfg: Config, seat: int, w: Weights, exact: bool) -> None:
        self.cfg, self.seat, self.w, self.exact = cfg, seat, w, exact
        self.order_from = 0 if exact else 1
        self.dead = dead_value(cfg, w)

    def node(self, pos: Pos, last_sign: int = 1) -> Node:
        if pos.turn >= 0:
            return (pos, 1 if self.cfg.seat_of(pos.turn) == self.seat else -1)
        return (pos, -last_sign)

    def moves(self, node: Node) -> list[Child]:
        return self.expand(node, None, 0)

    def expand(self, node: Node, first: Child | None, depth: int) -> list[Child]:
        """The moves, ordered by the static evaluation of their children where more than
        ``order_from`` plies are left (stable: equal children keep the legal moves' order;
        the exact solver leaves two or fewer moves as they are); unordered moves get their
        children only when played."""
        pos, sign = node
        cfg = self.cfg
        legal = rules.legal_moves(cfg, pos)
        exact = self.exact
        if depth <= self.order_from and not exact:
            return [(m, None) for m in legal]
        seat, seat_of, apply = self.seat, cfg.seat_of, rules.apply
        nodes: list[Node] = []
        for m in legal:  # (self.node, inlined: the hot loop)
            child = apply(cfg, pos, m)[0]
            turn = child.turn
            nodes.append((child, (1 if seat_of(turn) == seat else -1) if turn >= 0
                          else -sign))
        out: list[Child] = list(zip(legal, nodes))
        if depth <= self.order_from or (exact and len(out) <= 2):
            return out
        w = self.w
        values = [-sign * evaluate(cfg, n[0], seat, w) for n in nodes]
        return [out[i] for i in sorted(range(len(out)), key=values.__getitem__)]

    def play(self, node: Node, move: Child) -> Node:
        child = move[1]
        if child is not None:
            return child
        pos = rules.apply(self.cfg, node[0], move[0])[0]
        turn = pos.turn
        if turn >= 0:
            return (pos, 1 if self.cfg.seat_of(turn) == self.seat else -1)
        return (pos, -node[1])

    def player(self, node: Node) -> int:
        return 0 if node[1] > 0 else 1

    def key(self, node: Node) -> Hashable:
        return node[0].key() if self.exact else None

    def decided(self, node: Node) -> float | None:
        pos, sign = node
        if pos.turn < 0:
            return sign * evaluate(self.cfg, pos, self.seat, self.w)
        if not pos.up:
            if self.exact:
                return sign * self.dead
            if self.w.contempt:
                return sign * evaluate(self.cfg, pos, self.seat, self.w)
        return None

    def evaluate(self, node: Node) -> float:
        return node[1] * evaluate(self.cfg, node[0], self.seat, self.w)

    def terminal_value(self, node: Node) -> float:
        raise AssertionError("a Memory Matrix position that is not over always has a move")


Table = dict[Hashable, tuple[int, float, int, Child | None]]
"""The exact solver's transposition table (the engine's entries), shared between calls."""


def _engine(cfg: Config, seat: int, w: Weights, exact: bool,
            table: Table | None = None
            ) -> tuple[AlphaBeta[Node, Child], ParanoidAdapter]:
    adapter = ParanoidAdapter(cfg, seat, w, exact)
    engine: AlphaBeta[Node, Child] = AlphaBeta(
        adapter, tt_size=10_000_000 if exact else 0, solved_entries=False)
    if table is not None:
        engine.tt = table
    return engine, adapter


def _seat_value(engine: AlphaBeta[Node, Child], node: Node, depth: int, alpha: float,
                beta: float) -> float:
    """``node``'s value for ``seat`` within the window (alpha, beta) in ``seat``'s terms."""
    sign = node[1]
    if sign > 0:
        return engine.value(node, depth, alpha, beta)
    return -engine.value(node, depth, -beta, -alpha)


def paranoid(cfg: Config, pos: Pos, depth: int, alpha: float, beta: float, seat: int,
             w: Weights) -> float:
    """Alpha-beta where every other seat plays against ``seat`` (the paranoid reduction of
    a many-player game to two sides; exact minimax for two players), ``depth`` plies,
    children ordered by the static evaluation."""
    engine, adapter = _engine(cfg, seat, w, exact=False)
    return _seat_value(engine, adapter.node(pos), depth, alpha, beta)


def dead_value(cfg: Config, w: Weights) -> float:
    """The exact value of a board with no face up piece: it ends 0-0, every seat first."""
    share: float = cfg.players ** w.shared
    return TERMINAL / share


def solve(cfg: Config, pos: Pos, alpha: float, beta: float, seat: int, w: Weights,
          table: Table) -> float:
    """The exact paranoid value of ``pos`` for ``seat`` (every line played to the end):
    alpha-beta with a transposition table (``table``, shared between calls on the same
    position's subtree), children ordered by the static evaluation, and a board with
    nothing face up scored at once as the 0-0 draw it must end in."""
    engine, adapter = _engine(cfg, seat, w, exact=True, table=table)
    return _seat_value(engine, adapter.node(pos), SOLVE_DEPTH, alpha, beta)


SOLVE_DEPTH = 1 << 20
"""Deeper than any game: a search to this depth reaches only finished boards."""


def move_values(cfg: Config, pos: Pos, seat: int, level: Level,
                rng: Rng | None = None, plain: frozenset[int] = frozenset(),
                stop: Callable[[], bool] | None = None) -> dict[int, float]:
    """Value of each legal move in one determinization (``plain``: see :func:`rollout`;
    ``stop``: see :func:`_halving`)."""
    w = level.weights
    moves = rules.legal_moves(cfg, pos)
    children = {m: rules.apply(cfg, pos, m)[0] for m in moves}
    if cfg.players == 2:
        depth = level.depth
        empties = (cfg.geometry.valid & ~pos.occ).bit_count()
        exact = bool(level.endgame) and empties <= level.endgame
        engine, adapter = _engine(cfg, seat, w, exact)
        out: dict[int, float] = {}
        alpha = float("-inf")
        order = sorted(moves, key=lambda m: -evaluate(cfg, children[m], seat, w))
        for m in order:
            # a window just under the best so far: a pruned move can never tie with it
            out[m] = _seat_value(engine, adapter.node(children[m]),
                                 SOLVE_DEPTH if exact else depth - 1, alpha - 1e-6,
                                 float("inf"))
            alpha = max(alpha, out[m])
        return out
    values = {m: evaluate(cfg, child, seat, w) for m, child in children.items()}
    if level.maxn and (cfg.geometry.valid & ~pos.occ).bit_count() <= level.maxn:
        table: MaxnTable = {}
        return {m: TERMINAL * 2 + maxn(cfg, child, w, table)[seat]
                for m, child in children.items()}
    if level.width and level.halving:
        return _halving(cfg, children, values, seat, level, rng, plain, stop)
    if level.width and level.rounds:
        plies = level.rounds * cfg.colours - 1
        shortlist = sorted(values, key=values.__getitem__, reverse=True)[: level.width]
        # common random numbers: rollout k of every move draws the same random stream, so
        # two moves are compared under the same modelled mistakes, not different luck
        base = rng.next64() if rng is not None and (level.noise or level.muddle) else None
        for m in shortlist:
            total = sum(look_ahead(cfg, children[m], seat, plies, w, level.model,
                                   level.noise, rng if base is None else Rng(base, k),
                                   level.muddle)
                        for k in range(level.rollouts))
            values[m] = TERMINAL * 2 + total / level.rollouts
    return values


def rollout(cfg: Config, pos: Pos, seat: int, level: Level, rng: Rng,
            plain: frozenset[int] = frozenset()) -> float:
    """One line of greedy moves to the end of the game, valued for ``seat`` at the end:
    ``seat``'s own colours choose greedily on ``level.own`` (its own evaluation), the other
    seats on ``level.model``, on a belief muddled by ``level.muddle``; its own choices
    blurred by ``level.noise``, the others' by ``level.others_noise`` and muddled by
    ``level.others_muddle`` (``noise``, ``muddle`` if unset) — but the seats in ``plain``
    (read as greedy players) by ``noise`` and ``muddle``. A board with nothing face up stops the line: it can only end 0-0
    (``rules.is_dead``), valued exactly as that finished board."""
    model, noise, muddle = level.model, level.noise, level.muddle
    blur = (noise if level.others_noise is None else level.others_noise,
            muddle if level.others_muddle is None else level.others_muddle)
    per_seat = [(noise, muddle) if s in plain else blur for s in range(cfg.players)]
    own = level.own or model
    seat_of = cfg.seat_of
    while pos.turn >= 0:
        if not pos.up:
            return dead_value(cfg, level.weights)
        if seat_of(pos.turn) == seat:
            move = greedy_move(cfg, pos, own, noise, rng)
        else:
            their_noise, their_muddle = per_seat[seat_of(pos.turn)]
            belief = muddled(pos, their_muddle, rng) if their_muddle else pos
            move = greedy_move(cfg, belief, model, their_noise, rng)
        pos = rules.apply(cfg, pos, move)[0]
    return evaluate(cfg, pos, seat, level.weights)


def _halving(cfg: Config, children: dict[int, Pos], values: dict[int, float], seat: int,
             level: Level, rng: Rng | None, plain: frozenset[int],
             stop: Callable[[], bool] | None = None) -> dict[int, float]:
    """Successive halving over the ``level.width`` best-looking moves: round *r* plays
    ``level.halving[r]`` more rollouts of every move still in (rollout *k* draws the same
    random stream for every move: common random numbers), then the better half by mean
    value goes on. A move's value is its tier (the round it reached) and its mean, so the
    last round's survivors rank above every move dropped earlier. ``stop`` (asked after
    every rollout) ends the search: a round it cuts short counts for nothing, so the values
    are those of the complete rounds before it (none: the one-ply values)."""
    shortlist = sorted(values, key=values.__getitem__, reverse=True)[: level.width]
    base = rng.next64() if rng is not None else 0
    sums = dict.fromkeys(shortlist, 0.0)
    counts = dict.fromkeys(shortlist, 0)
    alive = list(shortlist)
    k0 = 0
    out = dict(values)
    for r, count in enumerate(level.halving):
        added = dict.fromkeys(alive, 0.0)
        for m in alive:
            for k in range(k0, k0 + count):
                added[m] += rollout(cfg, children[m], seat, level, Rng(base, k), plain)
                if stop is not None and stop():
                    return out
        for m in alive:
            sums[m] += added[m]
            counts[m] += count
            out[m] = TERMINAL * (2 + 4 * r) + sums[m] / counts[m]
        k0 += count
        if len(alive) <= 1:
            break
        alive = sorted(alive, key=lambda m: -sums[m])[: (len(alive) + 1) // 2]
    return out


MaxnTable = dict[tuple[int, int, tuple[int, ...], int], tuple[float, ...]]


def maxn(cfg: Config, pos: Pos, w: Weights, table: MaxnTable) -> tuple[float, ...]:
    """The exact max-n value of ``pos`` (every seat's :func:`evaluate` of the finished
    board, each seat choosing the move best for itself): every line played to the end,
    a board with nothing face up scored at once as the 0-0 it must end in. A seat with
    several equally good moves is taken to pick one of them at random (the mean of their
    values), as the bots break ties. ``table`` holds solved positions."""
    players = cfg.players
    if pos.turn < 0:
        return tuple(evaluate(cfg, pos, s, w) for s in range(players))
    if not pos.up:
        return (dead_value(cfg, w),) * players
    key = pos.key()
    got = table.get(key)
    if got is not None:
        return got
    seat = cfg.seat_of(pos.turn)
    best = float("-inf")
    ties: list[tuple[float, ...]] = []
    for m in rules.legal_moves(cfg, pos):
        v = maxn(cfg, rules.apply(cfg, pos, m)[0], w, table)
        if v[seat] > best + 1e-9:
            best, ties = v[seat], [v]
        elif v[seat] >= best - 1e-9:
            ties.append(v)
    value = ties[0] if len(ties) == 1 else tuple(sum(t[s] for t in ties) / len(ties)
                                                  for s in range(players))
    table[key] = value
    return value


class MemoryBot(Bot):
    """A bot that remembers (or forgets) hidden colours and searches determinizations."""

    def __init__(self, level: str, seed: int = 0, spec: Level | None = None,
                 time_limit: float | None = None) -> None:
        super().__init__(seed)
        self.level = level
        self.spec = spec or LEVELS[level]
        self.clock = MoveClock(time_limit) if time_limit is not None else None
        """With a time limit: the successive-halving search stops at the move's deadline."""
        self.last_info: dict[str, float] = {}
        """Of the last decision that searched with a clock: ``seconds`` from the start of
        the move to the end of the search, ``stopped`` 1.0 if the deadline cut it short."""
        self.name = f"memory_matrix-{level}"
        self.cfg: Config | None = None
        self.memory = Memory(self.spec.forget, self.spec.capacity, Rng(seed, "forget", level))
        self._read: dict[int, list[int]] = {}  # seat -> [greedy-best moves, moves read]
        self._before: tuple[int, Pos] | None = None  # (ply, position) of the last view

    def reset(self, seat: int, options: JSONMapping) -> None:
        from .game import config_from_raw

        super().reset(seat, options)
        self.cfg = rules.model_of(config_from_raw(options))
        self.memory = Memory(self.spec.forget, self.spec.capacity,
                             Rng(self.seed, "forget", self.level))
        self._read, self._before = {}, None

    def observe(self, view: JSONMapping) -> None:
        self.memory.observe(view)
        self._read_move(view)

    def _read_move(self, view: JSONMapping) -> None:
        """With ``read_others``: was the move that led to ``view`` (another seat's) among
        the greedy-best on the position before it, as this seat remembers it?"""
        if not self.spec.read_others or self.cfg is None or self.cfg.players < 3:
            return  # two players: the search assumes the best reply, there is no model
        view = memory_matrix_view(view)
        cfg, ply, last, before = self.cfg, int(view["ply"]), view["last_move"], self._before
        if before is not None and before[0] == ply:
            return
        if (before is not None and before[0] == ply - 1 and last is not None
                and not last["pass"] and last["seat"] != view["seat"]):
            pos = before[1]
            moves = rules.legal_moves(cfg, pos)
            if len(moves) > 1 and pos.turn >= 0:
                mover = cfg.seat_of(pos.turn)
                worth = {m: evaluate(cfg, rules.apply(cfg, pos, m)[0], mover, self.spec.model)
                         for m in moves}
                cell = last["cell"]
                assert cell is not None
                played = cfg.geometry.index_of[cell] << 1 | int(last["white"])
                counts = self._read.setdefault(mover, [0, 0])
                counts[0] += worth.get(played, float("-inf")) >= max(worth.values()) - 1e-9
                counts[1] += 1
        self._before = (ply, determinize(cfg, view, self.memory.known, None))

    def plain_seats(self) -> frozenset[int]:
        """The other seats read as greedy players so far (``read_others``)."""
        if not self.spec.read_others:
            return frozenset()
        return frozenset(s for s, (greedy, read) in self._read.items()
                         if (greedy + 1) / (read + 2) >= self.spec.read_others)

    def choose(self, view: JSONMapping) -> str:
        now = self.clock.clock if self.clock is not None else time.perf_counter
        started = now()  # the move's time counts from here (reading the view included)
        view = memory_matrix_view(view)
        legal = list(view["legal_moves"])
        if not legal:
            raise ValueError("asked to move with no legal move")
        if self.cfg is None or self.seat != view["seat"]:
            self.reset(own_seat(view), _options_from_view(view))
        self.memory.observe(view)
        self._read_move(view)
        if len(legal) == 1:
            return str(legal[0])
        if self.spec.blunder and self.rng.random() < self.spec.blunder:
            return str(legal[self.rng.below(len(legal))])
        assert self.cfg is not None
        cfg, seat = self.cfg, own_seat(view)
        totals: dict[int, float] = {}
        plain = self.plain_seats()
        clock = self.clock if cfg.players > 2 and self.spec.halving else None
        stop, stopped = None, [False]
        if clock is not None:
            deadline = started + clock.budget()

            def stop() -> bool:
                stopped[0] = stopped[0] or now() >= deadline
                return stopped[0]
        for _ in range(self.spec.samples):
            pos = determinize(cfg, view, self.memory.known, self.rng)
            for move, value in move_values(cfg, pos, seat, self.spec, self.rng,
                                           plain, stop).items():
                totals[move] = totals.get(move, 0.0) + value
        if clock is not None:
            self.last_info = {"seconds": now() - started,
                              "stopped": float(stopped[0])}
        best_value = max(totals.values())
        best = [m for m, v in totals.items() if v >= best_value - 1e-9]
        move = best[self.rng.below(len(best))] if len(best) > 1 else best[0]
        geo = cfg.geometry
        text = "pass" if move == rules.PASS else geo.name(move >> 1) + ("w" if move & 1 else "")
        assert text in legal, (text, legal)
        if clock is not None:
            clock.done(started)
        return text


def _options_from_view(view: JSONMapping) -> JSONObject:
    """Options a view implies, for a bot handed a view without ``reset`` (a custom mask)."""
    view = memory_matrix_view(view)
    mask = "/".join("".join("." if ch == "-" else "#" for ch in row) for row in view["board"])
    per = max(1, len(view["colours"]) // int(view["seats"]))
    return {"players": int(view["seats"]), "colours": per, "shape": "custom", "mask": mask,
            "white_any_time": bool(view["white_any_time"]), "lost_colour": view["lost_colour"]}


def make_bot(level: str, seed: int = 0) -> Bot:
    if level not in LEVELS:
        raise ValueError(f"unknown memory_matrix bot level {level!r}; levels: "
                         + ", ".join(LEVELS))
    return MemoryBot(level, seed, time_limit=TIME_LIMIT if LEVELS[level].halving else None)
