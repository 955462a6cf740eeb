"""Property tests over random games: the protocol conformance checks, the app's invariants,
and a slow cube-coordinate reference of one move checked against the bitboard engine."""

from __future__ import annotations

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.reverstargo.board import CUBES, DIRECTIONS, INDEX, LABELS
from asobiba.games.reverstargo.rules import BLACK, WHITE, key, resolve
from tests.conformance import check_random_games

GAME = get("reverstargo")
CP = (0, 0, 0)


def test_conformance_random_games():
    check_random_games("reverstargo", [{}], games=12, probe_every=3)


def _random_games(n: int, label: str):
    for seed in range(n):
        s = GAME.new_game()
        rng = Rng(seed, label)
        states = [s]
        while not s.is_over:
            moves = s.legal_moves()
            s = s.child(moves[rng.below(len(moves))])
            states.append(s)
        yield states


def test_invariants_cp_empty_no_repeat_except_exceptions_score_is_stones_plus_captures():
    for states in _random_games(60, "invariants"):
        seen = set()
        for before, after in zip(states, states[1:]):
            assert not (after.black | after.white) & 1, "the CP must be empty after a move"
            k = key(after.black, after.white)
            last = after.entries[-1] if not after.entries[-1].is_pass else after.entries[-2]
            if k in seen or k == key(before.black, before.white):
                assert last.exception, "only a ko exception may recreate a position"
            seen.add(k)
            b, w = after.score()
            assert b == after.black.bit_count() + after.captured[0]
            assert w == after.white.bit_count() + after.captured[1]
        final = states[-1]
        assert final.outcome.scores == final.score()
        assert len(final.entries) <= 81


# ---- a slow reference of one move, straight from the rules text --------------------------
def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def reference_move(board: dict, mover: str, cell, call: str):
    """``board`` maps every cube to 'B', 'W' or None. Returns (board after, flips,
    captured): place, put the call on the CP, flip, take new enclosures, empty the CP."""
    opp = "W" if mover == "B" else "B"
    b = dict(board)
    b[cell] = mover
    b[CP] = call
    flipped = set()
    for d in DIRECTIONS:
        run = []
        c = _add(cell, d)
        while c in b and b[c] == opp:
            run.append(c)
            c = _add(c, d)
        if c in b and b[c] == mover:
            flipped.update(run)
    for c in flipped:
        b[c] = mover
    changed = {cell} | (flipped - {CP})
    taken = set()
    done = set()
    for start in list(b):
        if b[start] != opp or start in done:
            continue
        group, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for d in DIRECTIONS:
                n = _add(c, d)
                if n in b and b[n] == opp and n not in group:
                    group.add(n)
                    todo.append(n)
        done |= group
        border = {_add(c, d) for c in group for d in DIRECTIONS} - group
        if any(n not in b or b[n] is None for n in border):
            continue
        if not (border - {CP}) & changed:
            continue
        taken |= group
    for c in taken:
        b[c] = None
    b[CP] = None
    return b, len(flipped), len(taken)


def test_engine_matches_slow_reference_on_random_positions():
    rng = Rng(7, "reference")
    checked = 0
    for states in _random_games(25, "reference"):
        for s in states[:: 3]:
            for mover in (BLACK, WHITE):
                board = {CUBES[i]: ("B" if s.black >> i & 1 else "W" if s.white >> i & 1
                                    else None) for i in range(37)}
                me, op = (s.black, s.white) if mover == BLACK else (s.white, s.black)
                empties = [c for c in LABELS[1:] if board[CUBES[INDEX[c]]] is None]
                for label in rng.shuffled(empties)[:4]:
                    cell = INDEX[label]
                    for call in ("B", "W"):
                        mine = call == "BW"[mover]
                        res = resolve(me, op, cell, mine)
                        ref, flips, taken = reference_move(board, "BW"[mover], CUBES[cell],
                                                           call)
                        ref_me = sum(1 << i for i in range(37)
                                     if ref[CUBES[i]] == "BW"[mover])
                        ref_op = sum(1 << i for i in range(37)
                                     if ref[CUBES[i]] == "BW"[1 - mover])
                        assert (res.me, res.op, res.flips, res.captured) == (
                            ref_me, ref_op, flips, taken), (label, call, s.view(None)["board"])
                        checked += 1
    assert checked > 1000
