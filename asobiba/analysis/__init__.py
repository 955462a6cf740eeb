"""The analysis board's engine side (docs/analysis.md): positions from records, notation,
a line of moves or the board editor, with coded errors (:mod:`.position`); iterative
deepening multi-PV with exact verdicts for the perfect-information games (:mod:`.engine`);
one seat's knowledge for the hidden-information ones (:mod:`.seat`). No web imports: the
server (``server/analysis_routes.py``) runs these in a worker process.

The games are reached only through the registry and their hooks
(``GameProgression.analyst``, ``GameProgression.seat_analysis``)."""

from .engine import COUNT, Step, step
from .position import MAX_MOVES, AnalysisError, Position, load
from .seat import seat_analysis

__all__ = ["COUNT", "MAX_MOVES", "AnalysisError", "Position", "Step", "load",
           "seat_analysis", "step"]
