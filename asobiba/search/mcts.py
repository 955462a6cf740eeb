"""Monte Carlo tree search: UCT for perfect information (any number of players, max-n
backup: each node is chosen for the player who moves there), and single-observer
information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) for hidden information,
where every iteration plays in a fresh *determinization* — a full position sampled to be
consistent with what the searching seat has seen.

Adapters (see ``adapter.py``) need ``moves``, ``play``, ``player`` and ``is_terminal``, and
``returns(pos)`` — one reward in [0, 1] per seat at a terminal. Optional:
``rollout_returns(pos)`` to stop a playout early with a heuristic estimate, and
``rollout_move(pos, moves, rng)`` for a smarter playout policy than uniform.

Time: ``deadline`` is an absolute ``time.perf_counter()`` instant (a bot computes it from the
start of its move with :class:`~asobiba.search.budget.MoveClock`), checked after every
iteration — one determinization and one playout, a few milliseconds — so a search ends
within one iteration of it. ``time_limit`` (seconds from the call) is kept for callers that
have no move start.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic

from ..core import Rng
from .adapter import EstimatesRollout, M, MCTSAdapter, P, RollsOut


@dataclass
class MCTSResult(Generic[M]):
    move: M
    visits: dict[M, int]
    value: float
    iterations: int
    seconds: float = 0.0
    values: dict[M, float] = field(default_factory=dict)
    """Mean reward of each root move for the searching seat."""


@dataclass
class _Node(Generic[M]):
    player: int = -1  # seat that chooses among this node's children
    visits: int = 0
    avail: int = 0  # ISMCTS: times this node was available for selection
    reward: list[float] = field(default_factory=list)  # summed rewards per seat
    children: dict[M, _Node[M]] = field(default_factory=dict)  # move -> child
    untried: list[M] | None = None


def _deadline(start: float, time_limit: float | None, deadline: float | None) -> float | None:
    """The earlier of ``start + time_limit`` and ``deadline`` (either may be absent)."""
    ends = [t for t in (None if time_limit is None else start + time_limit, deadline)
            if t is not None]
    return min(ends) if ends else None


def _playout(adapter: MCTSAdapter[P, M], pos: P, rng: Rng, limit: int) -> list[float]:
    smart: Callable[[P, Sequence[M], Rng], M] | None = (
        adapter.rollout_move if isinstance(adapter, RollsOut) else None)
    early: Callable[[P], Sequence[float]] | None = (
        adapter.rollout_returns if isinstance(adapter, EstimatesRollout) else None)
    for _ in range(limit):
        if adapter.is_terminal(pos):
            return list(adapter.returns(pos))
        moves = adapter.moves(pos)
        move = smart(pos, moves, rng) if smart else moves[rng.below(len(moves))]
        pos = adapter.play(pos, move)
    if adapter.is_terminal(pos):
        return list(adapter.returns(pos))
    if early is None:
        raise RuntimeError("playout did not end; give the adapter rollout_returns()")
    return list(early(pos))


def _ucb(child: _Node[M], parent_n: int, seat: int, c: float) -> float:
    if child.visits == 0:
        return math.inf
    mean = child.reward[seat] / child.visits if child.reward else 0.0
    return mean + c * math.sqrt(math.log(max(parent_n, 1)) / child.visits)


def _backup(path: list[_Node[M]], rewards: list[float]) -> None:
    for node in path:
        node.visits += 1
        if not node.reward:
            node.reward = [0.0] * len(rewards)
        for i, r in enumerate(rewards):
            node.reward[i] += r


def uct(adapter: MCTSAdapter[P, M], root_pos: P, iterations: int, rng: Rng, c: float = 1.4,
        playout_limit: int = 1_000, time_limit: float | None = None,
        deadline: float | None = None) -> MCTSResult[M]:
    """Plain UCT with random playouts; the most visited root move is returned."""
    start = time.perf_counter()
    end = _deadline(start, time_limit, deadline)
    root: _Node[M] = _Node(player=adapter.player(root_pos))
    done = 0
    for done in range(1, iterations + 1):  # noqa: B007 - read after the loop
        pos, node, path = root_pos, root, [root]
        while True:
            if adapter.is_terminal(pos):
                break
            if node.untried is None:
                node.untried = list(adapter.moves(pos))
                node.player = adapter.player(pos)
            if node.untried:
                move = node.untried.pop(rng.below(len(node.untried)))
                pos = adapter.play(pos, move)
                child: _Node[M] = _Node()
                node.children[move] = child
                path.append(child)
                break
            seat = node.player
            move, node = max(node.children.items(),
                             key=lambda kv: _ucb(kv[1], path[-1].visits, seat, c))
            pos = adapter.play(pos, move)
            path.append(node)
        rewards = _playout(adapter, pos, rng, playout_limit)
        # each child's reward is read for the player who chose it: its parent's player
        _backup(path, rewards)
        if end is not None and time.perf_counter() >= end:
            break
    return _result(root, done, start)


def ismcts(adapter: MCTSAdapter[P, M], sample: Callable[[Rng], P], seat: int,
           iterations: int, rng: Rng, c: float = 0.7, playout_limit: int = 1_000,
           time_limit: float | None = None, deadline: float | None = None,
           root_moves: Sequence[M] | None = None) -> MCTSResult[M]:
    """SO-ISMCTS from ``seat``'s point of view. ``sample(rng)`` returns a determinization: a
    position consistent with everything ``seat`` has seen (and nothing it has not). Moves are
    matched across determinizations by equality, so they must be public identifiers (move
    texts or tuples), not objects that embed hidden information.

    ``root_moves`` restricts the root to the moves worth searching (a game's own pruning, e.g.
    the likeliest guesses); they must be legal in every determinization. Below the root the
    adapter's ``moves`` apply."""
    start = time.perf_counter()
    end = _deadline(start, time_limit, deadline)
    root: _Node[M] = _Node(player=seat)
    if root_moves is not None and not root_moves:
        raise ValueError("search from a position with no legal move")
    done = 0
    for done in range(1, iterations + 1):  # noqa: B007 - read after the loop
        pos = sample(rng)
        node, path = root, [root]
        while not adapter.is_terminal(pos):
            legal = list(root_moves if node is root and root_moves is not None
                         else adapter.moves(pos))
            node.player = adapter.player(pos)
            untried = [m for m in legal if m not in node.children]
            if untried:
                move = untried[rng.below(len(untried))]
                child = _Node[M]()
                node.children[move] = child
                for m in legal:
                    if m in node.children:
                        node.children[m].avail += 1
                pos = adapter.play(pos, move)
                path.append(child)
                break
            for m in legal:
                node.children[m].avail += 1
            who = node.player
            move = max(legal, key=lambda m: _ucb_avail(node.children[m], who, c))
            node = node.children[move]
            pos = adapter.play(pos, move)
            path.append(node)
        rewards = _playout(adapter, pos, rng, playout_limit)
        _backup(path, rewards)
        if end is not None and time.perf_counter() >= end:
            break
    return _result(root, done, start)


def _ucb_avail(child: _Node[M], seat: int, c: float) -> float:
    if child.visits == 0:
        return math.inf
    mean = child.reward[seat] / child.visits if child.reward else 0.0
    return mean + c * math.sqrt(math.log(max(child.avail, 1)) / child.visits)


def _result(root: _Node[M], iterations: int, start: float) -> MCTSResult[M]:
    if not root.children:
        raise ValueError("search from a position with no legal move")
    visits = {m: ch.visits for m, ch in root.children.items()}
    values = {m: ch.reward[root.player] / ch.visits if ch.visits and ch.reward else 0.0
              for m, ch in root.children.items()}
    move = max(visits, key=lambda m: visits[m])
    return MCTSResult(move, visits, values[move], iterations, time.perf_counter() - start,
                      values)
