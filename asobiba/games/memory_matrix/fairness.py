"""Can one player force a *dead board* — nothing face up — early in the game?

A board with no piece face up can only end 0–0: there is no colour move (no colour shows)
and no white sandwich (no coloured run), so every later move is a white piece placed
anywhere. A player who can force such a board can force a draw, whatever the others do.
``can_force_dead_board`` answers that exactly for the first ``plies`` plies by an AND-OR
search over every legal move: the forcing player needs one move that works, the others
(a coalition, when there are more than two players) get every reply. It works on the rules'
bitboard positions directly (docs/rules/memory_matrix.md § 4).
"""

from __future__ import annotations

from itertools import permutations

from . import rules
from .rules import Config, Pos


def can_force_dead_board(cfg: Config, pos: Pos, plies: int, seat: int,
                         memo: dict[tuple[object, ...], bool] | None = None,
                         counter: list[int] | None = None) -> bool:
    """Whether ``seat`` can make the board show nothing face up within ``plies`` plies
    from ``pos``, against every choice of the other players. ``counter[0]`` (if given)
    counts the positions expanded."""
    if plies <= 0 or pos.turn < 0:
        return False
    memo = {} if memo is None else memo
    key = (pos.occ, pos.up, pos.ident, pos.turn, plies)
    known = memo.get(key)
    if known is not None:
        return known
    if counter is not None:
        counter[0] += 1
    mine = cfg.seat_of(pos.turn) == seat
    children: list[tuple[int, Pos]] = []
    for move in rules.legal_moves(cfg, pos):
        child, _ = rules.apply(cfg, pos, move)
        if child.up == 0:  # a dead board: the forcing side has reached it
            if mine:
                memo[key] = True
                return True
            continue  # a reply that kills the board does the forcing side's work
        children.append((child.up.bit_count(), child))
    if not children:  # every reply of the others kills the board
        memo[key] = not mine
        return not mine
    # the forcing side tries the emptiest boards first, the others the fullest
    children.sort(key=lambda c: c[0], reverse=not mine)
    result = not mine
    for _, child in children:
        if can_force_dead_board(cfg, child, plies - 1, seat, memo, counter) == mine:
            result = mine
            break
    memo[key] = result
    return result


def start_arrangements(pos: Pos, colours: int) -> list[Pos]:
    """Every way of placing the start pieces of ``pos`` over the same cells (what a
    ``random`` layout may deal; the named layouts are among them), distinct ones only."""
    cells = [i for i in range(pos.occ.bit_length()) if pos.occ >> i & 1]
    owner = []
    for i in cells:
        bit = 1 << i
        owner.append(next((c for c in range(colours) if pos.ident[c] & bit), -1))
    seen: set[tuple[int, ...]] = set()
    out = []
    for perm in permutations(owner):
        if perm in seen:
            continue
        seen.add(perm)
        ident = [0] * colours
        neutral = 0
        for cell, c in zip(cells, perm, strict=True):
            if c < 0:
                neutral |= 1 << cell
            else:
                ident[c] |= 1 << cell
        out.append(Pos(pos.occ, sum(ident), tuple(ident), neutral, pos.hand, pos.turn))
    return out
