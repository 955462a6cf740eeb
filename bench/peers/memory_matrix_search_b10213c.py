"""PEER FOR BENCHMARKS ONLY — Memory Matrix's own two-player searches (paranoid alpha-beta
and the exact endgame solver with its bounds table) as they were at commit b10213c, before
they moved onto the project's one alpha-beta. Verbatim search code on today's rules,
evaluation and levels (``asobiba.games.memory_matrix``), so that ``bench/search_vs_old.py``
compares the search engines alone, in the same process. Nothing in ``asobiba`` imports it.
"""
# ruff: noqa
from __future__ import annotations

from typing import Any

from asobiba.games.memory_matrix import rules
from asobiba.games.memory_matrix.bots import TERMINAL, Level, Weights, evaluate
from asobiba.games.memory_matrix.rules import Config, Pos


def paranoid(cfg: Config, pos: Pos, depth: int, alpha: float, beta: float, seat: int,
             w: Weights) -> float:
    """Alpha-beta where every other seat plays against ``seat`` (the paranoid reduction of
    a many-player game to two sides; exact minimax for two players), children ordered by
    the static evaluation."""
    if pos.turn < 0 or depth == 0 or (w.contempt and not pos.up):
        return evaluate(cfg, pos, seat, w)  # (a dead board's value cannot change)
    mine = cfg.seat_of(pos.turn) == seat
    children = [rules.apply(cfg, pos, m)[0] for m in rules.legal_moves(cfg, pos)]
    if depth > 1:
        children.sort(key=lambda ch: evaluate(cfg, ch, seat, w), reverse=mine)
    if mine:
        best = float("-inf")
        for child in children:
            best = max(best, paranoid(cfg, child, depth - 1, alpha, beta, seat, w))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    best = float("inf")
    for child in children:
        best = min(best, paranoid(cfg, child, depth - 1, alpha, beta, seat, w))
        beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def dead_value(cfg: Config, w: Weights) -> float:
    """The exact value of a board with no face up piece: it ends 0-0, every seat first."""
    return TERMINAL / cfg.players ** w.shared


def solve(cfg: Config, pos: Pos, alpha: float, beta: float, seat: int, w: Weights,
          table: dict[tuple[Any, ...], tuple[float, float]]) -> float:
    """The exact paranoid value of ``pos`` for ``seat`` (every line played to the end):
    alpha-beta with a transposition table of value bounds (``table``, shared between calls
    on the same position's subtree), children ordered by the static evaluation, and a board
    with nothing face up scored at once as the 0-0 draw it must end in."""
    if pos.turn < 0:
        return evaluate(cfg, pos, seat, w)
    if not pos.up:
        return dead_value(cfg, w)
    key = pos.key()
    hit = table.get(key)
    if hit is not None:
        low, high = hit
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    start_alpha, start_beta = alpha, beta
    mine = cfg.seat_of(pos.turn) == seat
    children = [rules.apply(cfg, pos, m)[0] for m in rules.legal_moves(cfg, pos)]
    if len(children) > 2:
        children.sort(key=lambda ch: evaluate(cfg, ch, seat, w), reverse=mine)
    if mine:
        best = float("-inf")
        for child in children:
            best = max(best, solve(cfg, child, alpha, beta, seat, w, table))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
    else:
        best = float("inf")
        for child in children:
            best = min(best, solve(cfg, child, alpha, beta, seat, w, table))
            beta = min(beta, best)
            if alpha >= beta:
                break
    if best <= start_alpha:
        table[key] = (float("-inf"), best)  # an upper bound
    elif best >= start_beta:
        table[key] = (best, float("inf"))  # a lower bound
    else:
        table[key] = (best, best)
    return best


def move_values_2p(cfg: Config, pos: Pos, seat: int, level: Level) -> dict[int, float]:
    """The two-player branch of the old ``move_values``, verbatim."""
    w = level.weights
    moves = rules.legal_moves(cfg, pos)
    children = {m: rules.apply(cfg, pos, m)[0] for m in moves}
    if cfg.players == 2:
        depth = level.depth
        empties = (cfg.geometry.valid & ~pos.occ).bit_count()
        exact = bool(level.endgame) and empties <= level.endgame
        table: dict[tuple[Any, ...], tuple[float, float]] = {}
        out: dict[int, float] = {}
        alpha = float("-inf")
        order = sorted(moves, key=lambda m: -evaluate(cfg, children[m], seat, w))
        for m in order:
            # a window just under the best so far: a pruned move can never tie with it
            if exact:
                out[m] = solve(cfg, children[m], alpha - 1e-6, float("inf"), seat, w, table)
            else:
                out[m] = paranoid(cfg, children[m], depth - 1, alpha - 1e-6, float("inf"),
                                  seat, w)
            alpha = max(alpha, out[m])
        return out
    raise ValueError("the old two-player search only")
