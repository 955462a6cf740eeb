"""The CPU levels: legal moves from views only, the app's policies, exact endgames, and
small reverse-match ladders (the 100-match ladder is in bench/reverstargo_arena.py)."""

from __future__ import annotations

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.reverstargo.arena import reverse_match
from asobiba.games.reverstargo.bots import LEVELS, REFERENCE_LEVELS, cpu_candidates, make_bot
from asobiba.games.reverstargo.search import AlphaBeta, final_value, our_evaluation
from tests.reverstargo.test_rules import ONE_COLOUR

GAME = get("reverstargo")


def _midgame(seed: int, plies: int = 10):
    s = GAME.new_game()
    rng = Rng(seed, "bots")
    for _ in range(plies):
        if s.is_over:
            break
        moves = s.legal_moves()
        s = s.child(moves[rng.below(len(moves))])
    return s


def test_every_level_plays_legal_moves_from_views():
    s = _midgame(3)
    for level in LEVELS[:6] + REFERENCE_LEVELS:
        bot = make_bot(level, 1)
        bot.reset(s.turn, {})
        text = bot.choose(s.view(s.turn))
        assert text in s.legal_moves(), (level, text)


def test_bots_respect_ko_at_the_root():
    s = GAME.replay(ONE_COLOUR)[-1]
    for level in ("advanced", "max", "app-final"):
        bot = make_bot(level, 0)
        assert bot.choose(s.view(s.turn)) in s.legal_moves()


def test_entry_picks_from_the_worst_half_and_advanced_the_best():
    for seed in range(6):
        s = _midgame(seed, 8)
        if s.is_over:
            continue
        gains = sorted(g for _, g in cpu_candidates(s))
        view = s.view(s.turn)
        for k in range(5):
            entry = make_bot("entry", k)
            m = s.parse(entry.choose(view))
            gain = dict(cpu_candidates(s))[m]
            assert gain <= gains[max(1, len(gains) // 2) - 1]
        adv = s.parse(make_bot("advanced", 0).choose(view))
        assert dict(cpu_candidates(s))[adv] == gains[-1]


class _TooDeep(Exception):
    pass


def _brute(node, depth=14, passed=False):
    """Plain minimax to the end of the game (no pruning, no table)."""
    kids = AlphaBeta(our_evaluation).children(node)
    if not kids:
        if passed:
            return final_value(node)
        b, w, cb, cw, t = node
        return -_brute((b, w, cb, cw, 1 - t), depth, True)
    if depth == 0:
        raise _TooDeep
    return max(-_brute(child, depth - 1) for _, child, _ in kids)


def test_endgame_search_is_exact_against_plain_minimax():
    checked = 0
    for seed in range(80):
        s = GAME.new_game()
        rng = Rng(seed, "endgame")
        while not s.is_over:
            empties = 36 - (s.black | s.white).bit_count()
            if empties <= 5:
                break
            moves = s.legal_moves()
            s = s.child(moves[rng.below(len(moves))])
        if s.is_over:
            continue
        node = (s.black, s.white, s.captured[0], s.captured[1], s.turn)
        try:
            exact = _brute(node)
        except _TooDeep:  # captures reopen cells; keep the trees that end within 14 plies
            continue
        engine = AlphaBeta(our_evaluation)
        result = engine.search(engine.children(node), 99, 14)
        assert result.value == exact
        checked += 1
    assert checked >= 10


def test_small_ladder_stronger_policies_win():
    """Three reverse matches per pair, for pairs far apart (the bench runs 100 per
    consecutive pair; there Formidable and Advanced come out even)."""
    ladder = [("beginner", "entry"), ("advanced", "beginner"), ("app-max", "formidable")]
    for high, low in ladder:
        wins = sum(reverse_match(lambda s, h=high: make_bot(h, s),
                                 lambda s, lo=low: make_bot(lo, s), 50 + i).result.points(0)
                   for i in range(3))
        assert wins >= 2, (high, low, wins)
