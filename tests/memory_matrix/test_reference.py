"""A slow, obvious reference of the move rules (a dict board, one cell at a time) checked
against the bitboard engine on random positions of several shapes and colour counts."""

from __future__ import annotations

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.memory_matrix.shapes import DIRECTIONS

GAME = get("memory_matrix")


def faces(state) -> dict[tuple[int, int], str]:  # noqa: ANN001 - a MemoryMatrixState
    """(row, col) -> what shows: a colour letter or 'W'; holes and empties are left out."""
    out = {}
    for r, row in enumerate(state.view(None)["board"]):
        for c, ch in enumerate(row):
            if ch not in ".-":
                out[(r, c)] = ch
    return out


def cells(state) -> set[tuple[int, int]]:  # noqa: ANN001
    return {(r, c) for r, row in enumerate(state.view(None)["board"])
            for c, ch in enumerate(row) if ch != "-"}


def reference_flips(board: dict, valid: set, at: tuple[int, int], end: str) -> set:
    """Runs of pieces not showing ``end`` closed by the nearest piece showing ``end``."""
    flips: set = set()
    for dr, dc in DIRECTIONS:
        run = []
        r, c = at[0] + dr, at[1] + dc
        while (r, c) in valid and (r, c) in board and board[(r, c)] != end:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and (r, c) in board and board[(r, c)] == end:
            flips.update(run)
    return flips


def reference_moves(state) -> list[str]:  # noqa: ANN001
    """The legal move texts by the rules document, computed the slow way."""
    view = state.view(None)
    board, valid = faces(state), cells(state)
    letter = view["to_move_colour"]
    empty = sorted(valid - set(board), key=lambda rc: (rc[0], rc[1]))
    name = {rc: f"{chr(97 + rc[1])}{rc[0] + 1}" for rc in valid}
    if view["lost_colour"] == "pass" and letter not in "".join(view["board"]):
        return ["pass"]
    colour = [rc for rc in empty if reference_flips(board, valid, rc, letter)]
    white = [rc for rc in empty if reference_flips(board, valid, rc, "W")]
    if colour and not view["white_any_time"]:
        white = []
    elif not colour and not white:
        white = empty
    return sorted(name[rc] for rc in colour) + sorted(name[rc] + "w" for rc in white)


@pytest.mark.parametrize("options", [{}, {"players": 2}, {"players": 3, "shape": "cross"},
                                     {"players": 2, "colours": 2, "lost_colour": "pass"},
                                     {"players": 5, "shape": "diamond"}])
def test_engine_matches_reference_on_random_positions(options: dict) -> None:
    for seed in range(2):
        state = GAME.new_game(options, seed)
        rng = Rng(seed, "reference")
        while not state.is_over:
            engine = state.legal_moves().texts()
            plain = sorted(t for t in engine if not t.endswith("w"))
            whites = sorted(t for t in engine if t.endswith("w"))
            assert plain + whites == reference_moves(state)
            move = engine[rng.below(len(engine))]
            before = faces(state)
            after = state.play(move)
            if move != "pass":
                r, c = int(move[1:].rstrip("w")) - 1, ord(move[0]) - 97
                end = "W" if move.endswith("w") else state.view(None)["to_move_colour"]
                expected = reference_flips(before, cells(state), (r, c), end)
                got = after.view(None)["last_move"]["flipped"]
                assert sorted(got) == sorted(f"{chr(97 + x[1])}{x[0] + 1}" for x in expected)
            state = after


@pytest.mark.parametrize("options", [{}, {"players": 2}, {"players": 3, "shape": "octagon"},
                                     {"players": 2, "colours": 2, "lost_colour": "pass"},
                                     {"players": 4, "white_any_time": True}])
def test_is_legal_agrees_with_legal_moves_on_every_move(options: dict) -> None:
    """rules.is_legal / legal_flips (one move, checked by its own rays — the environment
    step's path) say yes exactly for the moves legal_moves lists, with the move's flips (rules: colour move, white move, white
    anywhere as the last resort, lost colour), on every cell, both sides, and the pass."""
    from asobiba.games.memory_matrix import rules

    for seed in range(2):
        state = GAME.new_game(options, seed)
        cfg = state.cfg
        rng = Rng(seed, "is_legal")
        candidates = [cell << 1 | side for cell in range(cfg.geometry.height
                                                         * cfg.geometry.stride)
                      for side in (0, 1)] + [rules.PASS, -3]
        kinds = set()
        while not state.is_over:
            legal = set(rules.legal_moves(cfg, state.pos))
            kinds.update("pass" if m == rules.PASS else "wc"[m & 1 ^ 1] for m in legal)
            for move in candidates:
                assert rules.is_legal(cfg, state.pos, move) == (move in legal), move
                if move in legal:  # and the flips it keeps for apply are the move's flips
                    assert rules.legal_flips(cfg, state.pos, move) == rules.flips_of(
                        cfg, state.pos, move)
            moves = sorted(legal)
            state = state.child(moves[rng.below(len(moves))])
        assert not any(rules.is_legal(cfg, state.pos, m) for m in candidates)
    assert {"c", "w"} <= kinds
