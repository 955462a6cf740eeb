"""Move-quality feedback and post-game review, game-independent.

An *evaluator* gives, for a position, the value of every legal move from the mover's side. A
value becomes a winning chance through a logistic curve with a per-game ``scale`` (exact
results map to 1, ½, 0); the quality of a played move is the drop in winning chance against
the best move, classified with lichess's bands (inaccuracy ≥ 10 %, mistake ≥ 20 %, blunder ≥
30 % of winning chance). Each game brings its evaluator and its scale through the typed hooks
of :meth:`asobiba.core.Game.progression` (``evaluator``, ``thresholds``): nothing here names a
game or reads a state's fields.

The review replays a record and marks *turning points*: moves after which the mover, who was
at least even, is no longer favoured, by at least the mistake band. It may have a wall-clock
``deadline``: it then searches by iterative deepening — every move at depth 1, then every
move at depth 2, … up to the evaluator's own depth — and stops at the deadline with what it
has, each verdict saying the depth it was searched to (``depth``) and the review saying
whether it is ``complete``. An evaluator without a ``depth`` (sampling the hidden
information) gets one pass.

Hidden information: games where the mover does not see everything have *view evaluators* (``sees = "views"``) that receive only the mover's views from
the start of the game up to the move (:func:`values_for` builds them), never a state, so the
judgement — and the "best move" shown — uses only what the mover knew. The review judges
every move the same way, by what its mover knew then.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core import AnyEvaluator, Evaluator, State, Thresholds, UnknownGameError, ViewEvaluator
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get as get_game
from ..search.budget import OutOfBudget, WorkBudget, checkpoint

QUALITIES = ("best", "good", "inaccuracy", "mistake", "blunder")


def thresholds_for(game_id: str, options: JSONMapping | None = None) -> Thresholds:
    """The game's feedback scale and bands (its ``thresholds`` hook) for these options."""
    hook = get_game(game_id).progression().thresholds
    if hook is None:
        raise KeyError(f"{game_id} has no move-feedback thresholds")
    return hook(dict(options or {}))


def win_chance(value: float, th: Thresholds) -> float:
    if value >= th.win_value:
        return 1.0
    if value >= th.draw_value:
        return 0.5
    if value <= -th.win_value:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / th.scale))


def classify(chance_best: float, chance_played: float, th: Thresholds, is_best: bool) -> str:
    """The quality of a move from the winning chances of the best and the played move."""
    drop = chance_best - chance_played
    if is_best or drop <= 1e-9:
        return "best"
    if drop >= th.blunder:
        return "blunder"
    if drop >= th.mistake:
        return "mistake"
    if drop >= th.inaccuracy:
        return "inaccuracy"
    return "good"


def sees_views(evaluator: AnyEvaluator) -> bool:
    return getattr(evaluator, "sees", "state") == "views"


def values_for(evaluator: AnyEvaluator, history: Sequence[State], seat: int,
               played: str | None = None) -> dict[str, float]:
    """Move values for ``seat`` to move in ``history[-1]``. A view evaluator gets only the
    seat's views of ``history`` (which must start at the start of the game)."""
    if isinstance(evaluator, ViewEvaluator) and sees_views(evaluator):
        views = []
        for i, st in enumerate(history):
            if i % 64 == 63:
                checkpoint()  # a long game's views alone are a good share of a second
            views.append(st.view(seat))
        return evaluator.values_from_views(views, played)
    if not isinstance(evaluator, Evaluator):
        raise TypeError(f"{type(evaluator).__name__} is neither kind of evaluator")
    return evaluator.move_values(history[-1])


def evaluator_for(game_id: str, options: JSONMapping | None = None
                  ) -> AnyEvaluator | None:
    """The game's evaluator (its ``evaluator`` hook) for these options; None where the game
    gives no feedback (no hook, or none for these options)."""
    try:
        hooks = get_game(game_id).progression()
    except UnknownGameError:
        return None
    if hooks.evaluator is None or hooks.thresholds is None:
        return None
    return hooks.evaluator(dict(options or {}))


def has_feedback(game_id: str, options: JSONMapping | None = None) -> bool:
    return evaluator_for(game_id, options) is not None


@dataclass(frozen=True)
class MoveFeedback:
    ply: int
    seat: int
    move: str
    quality: str
    best_move: str
    value: float
    best_value: float
    chance_before: float
    chance_after: float
    """The mover's winning chance with best play before the move, and after the move played."""
    depth: int | None = None
    """The search depth (plies) behind this verdict: the evaluator's ``depth`` setting, 0 for
    a forced move (nothing to search), None where the evaluator has no depth."""

    def to_json(self) -> JSONObject:
        """Finite JSON: a value that is not a finite number (a forced move's chances, an
        exact win's infinite value) is ``null`` — NaN is not JSON and broke the review."""
        return {k: ((round(v, 4) if math.isfinite(v) else None) if isinstance(v, float) else v)
                for k, v in vars(self).items()}


def move_feedback(state: State, move: str, ply: int = 0,
                  evaluator: AnyEvaluator | None = None, *, seat: int | None = None,
                  history: Sequence[State] | None = None) -> MoveFeedback:
    """Feedback for ``move`` (text) played by ``seat`` (default: the seat to move) in
    ``state``. ``history``: the states from the start of the game to ``state`` — needed by
    view evaluators, which judge by what the seat saw (default: ``state`` alone)."""
    game_id = state.game.id
    evaluator = evaluator or evaluator_for(game_id, state.options)
    if evaluator is None:
        raise NotImplementedError(f"{game_id} has no move feedback for these options yet")
    th = thresholds_for(game_id, state.options)
    seat = state.to_move if seat is None else seat
    if seat is None:
        raise ValueError("say which seat moved: several seats may act here")
    parsed = state.parse(move, seat)  # typed error for a bad move, before any work
    text = state.move_text(parsed, seat)
    history = list(history) if history is not None else [state]
    if history[-1] is not state:
        raise ValueError("the history must end with the position the move was played in")
    values = values_for(evaluator, history, seat, text)
    best_move = max(values, key=lambda m: values[m])
    best, played = values[best_move], values[text]
    c_best, c_played = win_chance(best, th), win_chance(played, th)
    quality = classify(c_best, c_played, th, played >= best)
    depth = getattr(evaluator, "depth", None)
    return MoveFeedback(ply, seat, text, quality, best_move, played, best, c_best, c_played,
                        depth if isinstance(depth, int) else None)


@dataclass
class Review:
    game: str
    moves: list[MoveFeedback] = field(default_factory=list)
    turning_points: list[int] = field(default_factory=list)
    counts: dict[int, dict[str, int]] = field(default_factory=dict)
    plies: int = 0
    """Moves in the record; ``moves`` holds a verdict for the first ones (all when complete)."""
    depth: int | None = None
    """The depth a complete review searches every move to (the evaluator's)."""
    complete: bool = True
    """False when the deadline came first: some verdicts are shallower than ``depth``, or the
    last moves have none."""
    cut: str | None = None
    """What ended an incomplete review: ``"cpu"`` (its CPU budget) or ``"wall"`` (its
    deadline)."""
    cpu_seconds: float | None = None
    """CPU seconds the review's thread spent on it (with a budget)."""

    def to_json(self) -> JSONObject:
        return {"game": self.game, "moves": [m.to_json() for m in self.moves],
                "turning_points": self.turning_points,
                "counts": {str(k): v for k, v in self.counts.items()},
                "plies": self.plies, "depth": self.depth, "complete": self.complete,
                "partial": not self.complete, "analysed_plies": len(self.moves),
                "cut": self.cut, "cpu_seconds": None if self.cpu_seconds is None
                else round(self.cpu_seconds, 3)}


def _depths(evaluator: AnyEvaluator) -> list[tuple[int | None, AnyEvaluator]]:
    """The passes of an iterative-deepening review: the evaluator at depth 1, 2, … up to its
    own (a shallow copy with ``depth`` set: the evaluators read it at each call)."""
    full = getattr(evaluator, "depth", None)
    if not isinstance(full, int) or full <= 1:
        return [(full if isinstance(full, int) else None, evaluator)]
    passes: list[tuple[int | None, AnyEvaluator]] = []
    for d in range(1, full):
        shallow = copy.copy(evaluator)
        shallow.depth = d  # type: ignore[union-attr]
        passes.append((d, shallow))
    return [*passes, (full, evaluator)]


def review(game_id: str, moves: Sequence[tuple[int, str]], options: JSONMapping | None = None,
           seed: int = 0, evaluator: AnyEvaluator | None = None, *,
           deadline: float | None = None,
           clock: Callable[[], float] = time.monotonic,
           cpu: float | None = None) -> Review:
    """Feedback on every move of a game, and its turning points (ply numbers from 1). Each
    move is judged by what its mover knew then (its views up to the move), even when the
    finished record shows more. With a ``deadline`` (a ``clock()`` time) or ``cpu`` (seconds
    of this thread's CPU: :class:`~asobiba.search.budget.WorkBudget`), the review deepens
    pass by pass and returns when either runs out with the verdicts it has (see the module)
    — cut between moves, and inside a move's search at its evaluator's checkpoints."""
    work = None if deadline is None and cpu is None else \
        WorkBudget(cpu, deadline, wall_clock=clock)
    game = get_game(game_id)
    states = game.replay(list(moves), options, seed)
    evaluator = evaluator or evaluator_for(game_id, states[0].options)
    if evaluator is None:
        raise NotImplementedError(f"{game_id} has no move feedback for these options yet")
    th = thresholds_for(game_id, states[0].options)
    passes = _depths(evaluator) if work is not None else \
        [(getattr(evaluator, "depth", None), evaluator)]
    full = passes[-1][0]
    out = Review(game_id, plies=len(moves), depth=full if isinstance(full, int) else None)
    verdicts: dict[int, MoveFeedback] = {}
    for _depth, ev in passes:
        for ply, ((seat, text), state) in enumerate(zip(moves, states, strict=False), 1):
            if work is not None and work.exhausted():
                out.complete = False
                break
            if len(state.legal_moves(seat)) <= 1:
                if ply not in verdicts:  # nothing to search: the same at every depth
                    verdicts[ply] = MoveFeedback(ply, seat, text, "best", text, 0.0, 0.0,
                                                 math.nan, math.nan, 0)
                continue
            if work is None:
                verdicts[ply] = move_feedback(state, text, ply, ev, seat=seat,
                                              history=states[:ply])
                continue
            try:
                with work.active():  # a checkpoint in the search cuts this very move
                    verdicts[ply] = move_feedback(state, text, ply, ev, seat=seat,
                                                  history=states[:ply])
            except OutOfBudget:
                out.complete = False  # this move keeps its shallower verdict, if any
                break
        if not out.complete:
            break
    if work is not None:
        out.cut, out.cpu_seconds = work.cut, work.spent()
    for ply in sorted(verdicts):  # the first pass runs in order: the plies are a prefix
        fb = verdicts[ply]
        if fb.chance_before >= 0.5 > fb.chance_after and \
                fb.chance_before - fb.chance_after >= th.mistake:
            out.turning_points.append(ply)
        out.moves.append(fb)
        per = out.counts.setdefault(fb.seat, dict.fromkeys(QUALITIES, 0))
        per[fb.quality] += 1
    return out
