"""What Memory Matrix brings to the platform: its move-feedback view evaluator (judging only
by what the mover saw) and scale, the tutorial (``tutorial.json``) and the two-seat form the
ladder plays (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core import GameProgression, Thresholds
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.views import own_seat
from .rules import Pos
from .views import memory_matrix_view


class MemoryMatrixEvaluator:
    """A perfect-recall seat: every colour it saw go under a white piece is remembered
    (``memory.Memory`` with no forgetting, fed the seat's views from ply 0), which on any
    game watched from the start determines the whole position. Two seats: each move's child
    searched ``depth``−1 plies by paranoid alpha-beta with a full window (exact values),
    to the end of the game from ``endgame`` empty cells. More seats: each move followed by
    one round of greedy replies (every colour for itself), as the level-3 bot does.
    Values: pieces face up ahead of the best rival (a corner counts double); a won final
    position scores +1000 (``bots.TERMINAL``)."""

    sees = "views"

    def __init__(self, options: JSONMapping, depth: int = 3, endgame: int = 4) -> None:
        from .bots import Weights
        from .game import config_from_raw
        from .rules import model_of

        self.cfg = model_of(config_from_raw(options))
        self.depth = depth
        self.endgame = endgame
        self.weights = Weights(hidden=0.0, corner=1.0)

    def position(self, views: Sequence[JSONMapping]) -> Pos:
        """The position as the seat of the last view remembers it (views only)."""
        from .memory import Memory, determinize

        if not views or int(views[0]["ply"]) != 0:
            raise ValueError("Memory Matrix feedback needs the seat's views from the start")
        memory = Memory(forget=0.0)
        for view in views:
            memory.observe(view)
        return determinize(self.cfg, views[-1], memory.known, None)

    def values_from_views(self, views: Sequence[JSONMapping],
                          played: str | None = None) -> dict[str, float]:
        from ...search.budget import checkpoint
        from . import rules
        from .bots import look_ahead, paranoid

        cfg, w = self.cfg, self.weights
        pos = self.position(views)
        seat = own_seat(memory_matrix_view(views[-1]))
        geo = cfg.geometry
        empties = (geo.valid & ~pos.occ).bit_count()
        depth = empties + 1 if empties <= self.endgame else self.depth
        inf = float("inf")
        out = {}
        for move in rules.legal_moves(cfg, pos):
            checkpoint()  # a review's CPU budget cuts here (one move's search at most)
            child = rules.apply(cfg, pos, move)[0]
            if cfg.players == 2:
                value = paranoid(cfg, child, depth - 1, -inf, inf, seat, w)
            else:
                value = look_ahead(cfg, child, seat, cfg.colours - 1, w, w)
            text = "pass" if move == rules.PASS else \
                geo.name(move >> 1) + ("w" if move & 1 else "")
            out[text] = value
        return out


def _cell(view: JSONMapping, cell: str) -> str:
    """The face shown on ``cell`` (``d4``: column d, row 4 counted from the top)."""
    view = memory_matrix_view(view)
    return str(view["board"][int(cell[1:]) - 1]["abcdefghij".index(cell[0])])


def _shown(view: JSONMapping, face: str) -> int:
    """How many cells of the board show ``face``."""
    view = memory_matrix_view(view)
    return sum(str(row).count(face) for row in view["board"])


def _seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    """The analysis board's reading of one seat's views (``seat_analysis.py``)."""
    from .seat_analysis import seat_analysis

    return seat_analysis(options, views)


PROGRESSION = GameProgression(
    seat_analysis=_seat_analysis,
    evaluator=lambda options: MemoryMatrixEvaluator(options),
    # pieces face up ahead of the best rival (corners double), a won final position +1000;
    # scale fitted like Reversi's (bench/progression_feedback_scale.py memory_matrix 24: 2.4
    # on 802 positions, log-loss 0.607, coin 0.693)
    # an exact two-player end scores margin + 1000 for a win (≥ 1001) and 1000/2 = 500 for a
    # draw (bots.evaluate): a draw is ½, not a win (a won endgame thrown into a draw is a blunder)
    thresholds=lambda options: Thresholds(scale=2.4, win_value=1000.5, draw_value=500.0),
    tutorial="tutorial.json",
    tutorial_functions={"cell": _cell, "shown": _shown},
    ladder_options={"variant": "2p"},
    # the ladder's seven CPU tiers as they were with four levels (Lv.3 fills lv4 and lv5, so
    # the reverse-match sets from lv5 start against the same bot); FINAL plays the strongest
    # level, 6 (two-player 75.8 % ± 10.5 over level 5, 0.06 s of CPU a move; docs/benchmarks.md)
    ladder_levels=("1", "2", "2", "3", "3", "4", "6"),
)
