"""Reversi level 7 (issue 31 item 1): the shipped tables load, say how they were made and are
small; the level plays from views through the usual search, above level 6 in the list and
outside the ladder (whose seven tiers stay random, 1–6)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np

from asobiba.games.reversi import bitboard as bb
from asobiba.games.reversi.bots import ReversiAdapter
from asobiba.games.reversi.game import GAME
from asobiba.games.reversi.learned import WEIGHTS, LearnedAdapter, LearnedBot, shipped
from asobiba.games.reversi.learning import SPEC, cell_vector
from asobiba.learn.ntuple import FORMAT, NTuple
from asobiba.learn.td import play_vs_random
from asobiba.progression.ladder_data import tier_levels


def test_the_shipped_tables_load_match_their_metadata_and_are_small() -> None:
    assert WEIGHTS.stat().st_size <= 5 * 1024 * 1024
    model = NTuple.load(WEIGHTS)
    meta = model.meta
    assert meta["format"] == FORMAT and meta["game"] == "reversi"
    assert meta["rules_version"] == GAME.rules_version
    games = int(meta["games_trained"])  # type: ignore[call-overload]
    assert games > 0 and meta["run"]["progress"]["games"] == games  # type: ignore[index]
    settings = meta["run"]["settings"]  # type: ignore[index]
    command = shlex.split(str(meta["command"]))
    assert command[:3] == ["asobiba", "train", "reversi"]
    opts = dict(zip(command[3::2], command[4::2], strict=True))
    assert int(opts["--games"]) == games and int(opts["--seed"]) == meta["seed"] == settings["seed"]
    assert int(opts["--phases"]) == settings["phases"] == model.layout.phases
    assert float(opts["--lr"]) == settings["lr"] and float(opts["--lam"]) == settings["lam"]
    assert int(opts.get("--lr-halve", 0)) == settings.get("lr_halve", 0)
    # the version is in the file's name and in the command its metadata records
    assert re.fullmatch(r"ntuple-v\d+\.npz", WEIGHTS.name)
    assert Path(opts["--out"]).name == WEIGHTS.name
    assert model.w.dtype == np.float32 and np.isfinite(model.w).all()
    assert np.count_nonzero(model.w) > 10_000  # learned, not an empty file


def test_the_shipped_tables_play_well_at_one_ply_and_agree_with_the_batch_path() -> None:
    model = shipped()
    # one ply of the learned value against random moves (the untrained tables score about
    # 55 %: tests/learn/test_train.py)
    assert play_vs_random(model, SPEC, 100, seed=11) >= 0.85
    corners = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
    pos = (bb.BLACK_START, bb.WHITE_START)
    kids = SPEC.children(pos)
    batch = model.values(SPEC.cells(kids))
    one = [model.value(cell_vector(p, o)) for p, o in kids]
    bits = [model.value_bitboards(p, o) for p, o in kids]
    assert np.allclose(batch, one) and np.allclose(batch, bits)
    adapter = LearnedAdapter(model)
    assert adapter.evaluate((pos[0], pos[1], 0)) == model.value_bitboards(*pos)
    assert adapter.terminal_value((corners, 0, 0)) == ReversiAdapter().terminal_value(
        (corners, 0, 0))


def test_level_7_plays_from_views_and_stays_out_of_the_ladder() -> None:
    names = GAME.level_names()
    assert names.index("7") == names.index("6") + 1 and names[-1] == "random"
    assert tier_levels(GAME) == ("random", "1", "2", "3", "4", "5", "6")
    bot = GAME.make_bot("7", 3)
    assert isinstance(bot, LearnedBot) and bot.time_limit == 1.0
    state = GAME.replay(["f5", "d6", "c3"])[-1]
    bot.reset(state.to_move or 0, state.options)
    move = bot.choose(state.view(state.to_move))
    assert move in state.legal_moves().texts()
    assert bot.last_result is not None and bot.last_result.depth >= 2


def test_level_7_plays_the_solvers_win_in_the_endgame_and_searches_a_lost_one() -> None:
    """From 18 empties level 7 asks the endgame solver for the outcome first: a proven win
    or draw is played at once (a move that keeps it); a proven loss goes to the search."""
    from asobiba.games.reversi.bots import AlphaBetaBot
    from asobiba.games.reversi.endgame import Solver

    state = GAME.replay(["f5", "d6", "c3", "d3"])[-1]
    filler = AlphaBetaBot(2, 0)
    kinds: set[str] = set()
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        empties = 64 - sum(state.counts())
        if empties <= 16 and len(state.legal_moves().texts()) > 1:
            mine, theirs = (state.black, state.white) if seat == 0 else (state.white, state.black)
            proven, _ = Solver().outcome(mine, theirs)
            # the solver gets the whole (generous) budget: a time-out cannot hide the step
            bot = LearnedBot(0, time_limit=20.0, depth=4, outcome=16, outcome_share=1.0)
            bot.reset(seat, state.options)
            move = bot.choose(state.view(seat))
            assert bot.last_result is not None
            if proven >= 0:
                assert bot.solved is not None and bot.solved[0] == proven
                assert bot.last_result.stopped == "solved"
                square = bot.solved[1]
                assert move == state.move_text(square)
                f = bb.flips(mine, theirs, square)
                after = Solver().outcome(theirs ^ f, mine | f | (1 << square)) \
                    if bb.legal_mask(theirs ^ f, mine | f | (1 << square)) else None
                assert after is None or -after[0] >= proven
                kinds.add("won")
            else:
                assert bot.last_result.stopped != "solved"
                kinds.add("lost")
        filler.reset(seat, state.options)
        state = state.play(filler.choose(state.view(seat)))
    assert kinds == {"won", "lost"}, kinds
