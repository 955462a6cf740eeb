"""Move-quality feedback and post-game review, game-independent.

An *evaluator* gives, for a position, the value of every legal move from the mover's side. A
value becomes a winning chance through a logistic curve with a per-game ``scale`` (exact
results map to 1, ½, 0); the quality of a played move is the drop in winning chance against
the best move, classified with lichess's bands (inaccuracy ≥ 10 %, mistake ≥ 20 %, blunder ≥
30 % of winning chance), kept as data per game in :data:`THRESHOLDS`.

The review replays a record and marks *turning points*: moves after which the mover, who was
at least even, is no longer favoured, by at least the mistake band.
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
}


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


def _flipflop(options: Mapping[str, Any]) -> Evaluator | None:
    return FlipFlop3Evaluator() if options.get("board", "3x3") == "3x3" else None


def _reverstargo(options: Mapping[str, Any]) -> Evaluator | None:
    return ReverStarGoEvaluator()


EVALUATORS: dict[str, Callable[[Mapping[str, Any]], Evaluator | None]] = {
    "reversi": _reversi, "flipflop": _flipflop, "reverstargo": _reverstargo,
}
"""Games with move feedback: a factory of the evaluator for the game's options (None where
there is none, e.g. FlipFlop 5×5). A game adds itself here and in :data:`THRESHOLDS`."""


def evaluator_for(game_id: str, options: Mapping[str, Any] | None = None) -> Evaluator | None:
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
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in vars(self).items()}


def move_feedback(state: State, move: str, ply: int = 0,
                  evaluator: Evaluator | None = None) -> MoveFeedback:
    """Feedback for ``move`` (text) played by the seat to move in ``state``."""
    game_id = state.game.id
    evaluator = evaluator or evaluator_for(game_id, state.options)
    if evaluator is None:
        raise NotImplementedError(f"{game_id} has no move feedback for these options yet")
    th = THRESHOLDS[game_id]
    seat = state.to_move
    assert seat is not None
    parsed = state.parse(move, seat)  # typed error for a bad move, before any work
    text = state.move_text(parsed, seat)
    values = evaluator.move_values(state)
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
           seed: int = 0, evaluator: Evaluator | None = None) -> Review:
    """Feedback on every move of a game, and its turning points (ply numbers from 1)."""
    game = get_game(game_id)
    states = game.replay(list(moves), options, seed)
    evaluator = evaluator or evaluator_for(game_id, states[0].options)
    if evaluator is None:
        raise NotImplementedError(f"{game_id} has no move feedback for these options yet")
    th = THRESHOLDS[game_id]
    out = Review(game_id)
    for ply, ((seat, text), state) in enumerate(zip(moves, states, strict=False), 1):
        if len(state.legal_moves(seat)) <= 1:
            fb = MoveFeedback(ply, seat, text, "best", text, 0.0, 0.0, math.nan, math.nan)
        else:
            fb = move_feedback(state, text, ply, evaluator)
            if fb.chance_before >= 0.5 > fb.chance_after and \
                    fb.chance_before - fb.chance_after >= th.mistake:
                out.turning_points.append(ply)
        out.moves.append(fb)
        per = out.counts.setdefault(seat, dict.fromkeys(QUALITIES, 0))
        per[fb.quality] += 1
    return out
