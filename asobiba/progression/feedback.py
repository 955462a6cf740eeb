"""Move-quality feedback and post-game review, game-independent.

An *evaluator* gives, for a position, the value of every legal move from the mover's side. A
value becomes a winning chance through a logistic curve with a per-game ``scale`` (exact
results map to 1, ½, 0); the quality of a played move is the drop in winning chance against
the best move, classified with lichess's bands (inaccuracy ≥ 10 %, mistake ≥ 20 %, blunder ≥
30 % of winning chance), kept as data per game in :data:`THRESHOLDS`.

The review replays a record and marks *turning points*: moves after which the mover, who was
at least even, is no longer favoured, by at least the mistake band.

Hidden information: games where the mover does not see everything (Memory Matrix, Algo,
Patapata) have *view evaluators* (``sees = "views"``) that receive only the mover's views from
the start of the game up to the move (:func:`values_for` builds them), never a state, so the
judgement — and the "best move" shown — uses only what the mover knew. The review judges
every move the same way, by what its mover knew then.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core import State
from ..games import get as get_game

QUALITIES = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    scale: float
    """Evaluation units at which the winning chance is 1/(1+e⁻¹) ≈ 73 %."""
    win_value: float = math.inf
    """Values at or beyond this are exact wins (losses below its negative)."""
    good: float = 0.02
    inaccuracy: float = 0.10
    mistake: float = 0.20
    blunder: float = 0.30


THRESHOLDS: dict[str, Thresholds] = {
    # Reversi bots: square weights (a corner is 100) + 8 per mobility move; exact endgame
    # values are ±100 000 + disc difference (asobiba.games.reversi.bots.WIN); scale fitted
    # by bench/progression_feedback_scale.py (log-loss 0.55 against 0.693 for a coin)
    "reversi": Thresholds(scale=56.0, win_value=50_000.0),
    # FlipFlop 3×3: exact values from the solved table (win/draw/loss); chances 1, ½, 0
    "flipflop": Thresholds(scale=1.0, win_value=500.0),
    # ReverStarGo: its search's evaluation (cell classes, captures ×5, ring, mobility); exact
    # values are ±1 000 000 + margin (search.WIN); scale fitted like Reversi's
    "reverstargo": Thresholds(scale=66.0, win_value=500_000.0),
    # Memory Matrix: pieces face up ahead of the best rival (corners double), a won final
    # position +1000; scale fitted like Reversi's (bench/progression_feedback_scale.py
    # memory_matrix 24: 2.4 on 802 positions, log-loss 0.607, coin 0.693)
    "memory_matrix": Thresholds(scale=2.4, win_value=500.0),
    # Algo: values in cards (P(hit)·gain − P(miss)·cost, exposures): one card is a whole
    # enemy card turned up, so a sure hit against one enemy (+1) is 88 % and a blind guess
    # (≈ −0.2) 40 %; halving a hit chance of ½ is an inaccuracy. Justified, not fitted:
    # these are values of one decision, not of a position (docs/progression.md)
    "algo": Thresholds(scale=0.5),
    # Patapata: expected final score, centred on the best move (0); with scale 5 losing
    # ≈2 points is an inaccuracy, ≈4 a mistake, ≈7 a blunder (the score bands of the
    # seed's ratings are 5 points apart)
    "patapata": Thresholds(scale=5.0),
}

FLIPFLOP5 = Thresholds(scale=175.0, win_value=90_000.0)
"""FlipFlop 5×5's thresholds (the game id is shared with 3×3, so they sit outside the
table; :func:`thresholds_for` picks by the board option). Scale fitted by
bench/progression_feedback_scale.py flipflop 24: 174.3 on 418 positions (log-loss 0.672
against 0.693 for a coin: the search's evaluation predicts results of these bot games only
weakly, so the bands mostly speak when a move changes the material or the goal threats)."""


def thresholds_for(game_id: str, options: Mapping[str, Any] | None = None) -> Thresholds:
    if game_id == "flipflop" and (options or {}).get("board", "3x3") == "5x5":
        return FLIPFLOP5
    return THRESHOLDS[game_id]


def win_chance(value: float, th: Thresholds) -> float:
    if value >= th.win_value:
        return 1.0
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


class Evaluator(Protocol):
    def move_values(self, state: State) -> dict[str, float]:
        """Every legal move's text → its value for the mover (higher is better)."""
        ...


class ViewEvaluator(Protocol):
    """An evaluator that sees only the mover's views (``sees = "views"``)."""

    sees: str

    def values_from_views(self, views: Sequence[Mapping[str, Any]],
                          played: str | None = None) -> dict[str, float]:
        """Move text → value for the mover, from its views (oldest first, the last one is
        the position to move in). May leave out moves that are clearly not the best, but
        always values ``played`` when it is given."""
        ...


AnyEvaluator = Evaluator | ViewEvaluator


def sees_views(evaluator: Any) -> bool:
    return getattr(evaluator, "sees", "state") == "views"


def values_for(evaluator: AnyEvaluator, history: Sequence[State], seat: int,
               played: str | None = None) -> dict[str, float]:
    """Move values for ``seat`` to move in ``history[-1]``. A view evaluator gets only the
    seat's views of ``history`` (which must start at the start of the game)."""
    if sees_views(evaluator):
        views = [st.view(seat) for st in history]
        return evaluator.values_from_views(views, played)  # type: ignore[union-attr]
    return evaluator.move_values(history[-1])  # type: ignore[union-attr]


class ReversiEvaluator:
    """Values from the Reversi bots' alpha-beta: each move's child searched ``depth``−1 plies,
    exact once few squares are empty (as the bots do)."""

    def __init__(self, depth: int = 3) -> None:
        from ..games.reversi.bots import ReversiAdapter
        from ..search.alphabeta import AlphaBeta

        self.depth = depth
        self.adapter = ReversiAdapter()
        self.searcher = AlphaBeta(self.adapter)

    def move_values(self, state: State) -> dict[str, float]:
        from ..games.reversi.game import PASS

        black, white, turn = state.black, state.white, state.turn  # type: ignore[attr-defined]
        mine, theirs = (black, white) if turn == 0 else (white, black)
        pos = (mine, theirs, turn)
        empties = 64 - (mine | theirs).bit_count()
        depth = empties + 4 if empties <= 2 * self.depth else self.depth
        out = {}
        for move in self.adapter.moves(pos):
            child = self.adapter.play(pos, move)
            if self.adapter.is_terminal(child):
                value = -self.adapter.terminal_value(child)
            else:
                self.searcher.reset()
                value = -self.searcher.search(child, max(1, depth - 1)).value
            out["pass" if move == PASS else state.move_text(move)] = value
        return out


class FlipFlop3Evaluator:
    """Exact values on 3×3 from FlipFlop's solved table (its ``move_scores``, which follows
    the repetition rule): a win is worth 1000 − its length, a loss −(1000 − length), a draw 0,
    so a faster win and a slower loss are the better moves."""

    def move_values(self, state: State) -> dict[str, float]:
        from ..games.flipflop import solver3
        from ..games.flipflop.bots import move_scores

        out = {}
        for move, value, dist in move_scores(state):
            v = 0.0 if value == solver3.DRAW else 1000.0 - dist
            out[state.move_text(move)] = -v if value == solver3.LOSS else v
        return out


class ReverStarGoEvaluator:
    """Values from ReverStarGo's own alpha-beta (``search.AlphaBeta`` with its evaluation):
    each legal move — ko respected, both CP calls where they differ — searched ``depth``−1
    plies below it with a full window, exact when few cells are empty."""

    def __init__(self, depth: int = 3, endgame_empties: int = 6) -> None:
        from ..games.reverstargo.search import AlphaBeta, our_evaluation

        self.depth = depth
        self.engine = AlphaBeta(our_evaluation, endgame_empties=endgame_empties)

    def move_values(self, state: State) -> dict[str, float]:
        from ..games.reverstargo.board import STONE_CELLS
        from ..games.reverstargo.bots import root_children

        empties = (STONE_CELLS & ~(state.black | state.white)).bit_count()  # type: ignore[attr-defined]
        depth = empties + 4 if empties <= self.engine.endgame_empties else self.depth
        self.engine.tt.clear()
        self.engine.kids.clear()
        inf = float("inf")
        return {state.move_text(move): -self.engine.negamax(node, depth - 1, -inf, inf)
                for move, node, _ in root_children(state, auto_only=False)}  # type: ignore[arg-type]


def _reversi(options: Mapping[str, Any]) -> Evaluator | None:
    return ReversiEvaluator()


def _flipflop(options: Mapping[str, Any]) -> AnyEvaluator | None:
    from .feedback_games import FlipFlop5Evaluator

    return FlipFlop3Evaluator() if options.get("board", "3x3") == "3x3" else FlipFlop5Evaluator()


def _reverstargo(options: Mapping[str, Any]) -> AnyEvaluator | None:
    return ReverStarGoEvaluator()


def _memory_matrix(options: Mapping[str, Any]) -> AnyEvaluator | None:
    from .feedback_games import MemoryMatrixEvaluator

    return MemoryMatrixEvaluator(options)


def _algo(options: Mapping[str, Any]) -> AnyEvaluator | None:
    from .feedback_games import AlgoEvaluator

    return AlgoEvaluator()


def _patapata(options: Mapping[str, Any]) -> AnyEvaluator | None:
    from .feedback_games import PatapataEvaluator

    return PatapataEvaluator()


EVALUATORS: dict[str, Callable[[Mapping[str, Any]], AnyEvaluator | None]] = {
    "reversi": _reversi, "flipflop": _flipflop, "reverstargo": _reverstargo,
    "memory_matrix": _memory_matrix, "algo": _algo, "patapata": _patapata,
}
"""Games with move feedback: a factory of the evaluator for the game's options (None where
there is none). A game adds itself here and in :data:`THRESHOLDS`."""


def evaluator_for(game_id: str, options: Mapping[str, Any] | None = None
                  ) -> AnyEvaluator | None:
    if game_id not in EVALUATORS or game_id not in THRESHOLDS:
        return None
    return EVALUATORS[game_id](dict(options or {}))


def has_feedback(game_id: str, options: Mapping[str, Any] | None = None) -> bool:
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

    def to_json(self) -> dict[str, Any]:
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
    return MoveFeedback(ply, seat, text, quality, best_move, played, best, c_best, c_played)


@dataclass
class Review:
    game: str
    moves: list[MoveFeedback] = field(default_factory=list)
    turning_points: list[int] = field(default_factory=list)
    counts: dict[int, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "moves": [m.to_json() for m in self.moves],
                "turning_points": self.turning_points,
                "counts": {str(k): v for k, v in self.counts.items()}}


def review(game_id: str, moves: Sequence[tuple[int, str]], options: Mapping[str, Any] | None = None,
           seed: int = 0, evaluator: AnyEvaluator | None = None) -> Review:
    """Feedback on every move of a game, and its turning points (ply numbers from 1). Each
    move is judged by what its mover knew then (its views up to the move), even when the
    finished record shows more."""
    game = get_game(game_id)
    states = game.replay(list(moves), options, seed)
    evaluator = evaluator or evaluator_for(game_id, states[0].options)
    if evaluator is None:
        raise NotImplementedError(f"{game_id} has no move feedback for these options yet")
    th = thresholds_for(game_id, states[0].options)
    out = Review(game_id)
    for ply, ((seat, text), state) in enumerate(zip(moves, states, strict=False), 1):
        if len(state.legal_moves(seat)) <= 1:
            fb = MoveFeedback(ply, seat, text, "best", text, 0.0, 0.0, math.nan, math.nan)
        else:
            fb = move_feedback(state, text, ply, evaluator, seat=seat, history=states[:ply])
            if fb.chance_before >= 0.5 > fb.chance_after and \
                    fb.chance_before - fb.chance_after >= th.mistake:
                out.turning_points.append(ply)
        out.moves.append(fb)
        per = out.counts.setdefault(seat, dict.fromkeys(QUALITIES, 0))
        per[fb.quality] += 1
    return out
