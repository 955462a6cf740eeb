"""What a game brings to the platform besides its rules: the typed, optional hooks.

A game package may hold a module ``progression.py`` with ``PROGRESSION = GameProgression(...)``,
named by its manifest (``progression=".progression:PROGRESSION"``, ``core/manifest.py``);
:meth:`asobiba.core.Game.progression` finds it there (a game without one gets an empty
:class:`GameProgression`, and the platform simply offers no tutorial, feedback, ... for it).
The shared layers (``progression/``, ``server/``) read a game only through these hooks and its
views: they never import a game module nor read a state's concrete fields.

Every field is optional:

* **move feedback** — ``evaluator(options)`` builds an :class:`Evaluator` (reads the state: for
  perfect-information games) or a :class:`ViewEvaluator` (reads only the mover's views), and
  ``thresholds(options)`` says how its values turn into winning chances;
* **tutorial** — ``tutorial``: a JSON file in the game's folder (steps as data, each naming the
  seed rule it teaches); ``tutorial_functions``: the small helpers its checks may call
  (``cell(view, "A1")``);
* **ladder** — ``ladder_levels`` (the bot level of each of the seven CPU tiers; default: the
  game's levels spread evenly), ``ladder_options`` (the two-seat form);
* **matches and dailies** — ``opening_plies`` (seeded random plies before the players take
  over), ``view_tiebreak`` (a reverse match's second key from the final spectator view),
  ``teams`` (partners, for rating pools), ``daily`` (the game's own daily puzzle instead of a
  game against the CPU);
* **analysis, puzzles, opening explorer** — ``analyst``, ``puzzles``/``puzzle_sets``,
  ``explorer``/``explorer_sets`` (the explorer's position keys, symmetries and book engine).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .jsontypes import JSONMapping, JSONObject

if TYPE_CHECKING:
    from .protocol import State

JSON = JSONObject  # the name older code imports from here


@dataclass(frozen=True)
class Thresholds:
    """How a game's evaluation values become winning chances, and lichess's quality bands."""

    scale: float
    """Evaluation units at which the winning chance is 1/(1+e⁻¹) ≈ 73 %."""
    win_value: float = math.inf
    """Values at or beyond this are exact wins (losses below its negative)."""
    draw_value: float = math.inf
    """Values from this up to ``win_value`` are exact draws (chance ½)."""
    good: float = 0.02
    inaccuracy: float = 0.10
    mistake: float = 0.20
    blunder: float = 0.30


@runtime_checkable
class Evaluator(Protocol):
    """Reads the state (perfect-information games: the state holds no more than a view)."""

    def move_values(self, state: State) -> dict[str, float]:
        """Every legal move's text → its value for the mover (higher is better)."""
        ...


@runtime_checkable
class ViewEvaluator(Protocol):
    """An evaluator that sees only the mover's views (``sees = "views"``)."""

    sees: str

    def values_from_views(self, views: Sequence[JSONMapping],
                          played: str | None = None) -> dict[str, float]:
        """Move text → value for the mover, from its views (oldest first, the last one is
        the position to move in). May leave out moves that are clearly not the best, but
        always values ``played`` when it is given."""
        ...


AnyEvaluator = Evaluator | ViewEvaluator


class Puzzle(Protocol):
    """A daily puzzle that is answered, not played (Algo's tsume-algo)."""

    @property
    def level(self) -> int: ...

    @property
    def questions(self) -> Sequence[Any]: ...

    def answer(self, question: Any) -> str: ...

    def to_json(self) -> JSON: ...


@dataclass(frozen=True)
class Daily:
    """A game's own daily challenge, instead of a seeded game against the CPU.

    ``kind="tsume"``: ``puzzle(weekday, seed)`` makes a question-and-answer puzzle (hardening
    through the week). ``kind="puzzle"``: a solo course with ``options``, to beat the score of
    bot ``target_level`` on the same seed."""

    kind: str
    puzzle: Callable[[int, int], Puzzle] | None = None
    name: Mapping[str, str] = field(default_factory=dict)
    """The puzzle's name in each language (``{"en": "Tsume-algo", "ja": "詰めアルゴ"}``)."""
    options: JSONMapping = field(default_factory=dict)
    target_level: str | None = None


@dataclass(frozen=True)
class AnalysisLine:
    """One of the best moves of a position at a depth (the analysis board's multi-PV)."""

    move: str
    value: float
    """For the side to move, in the game's evaluation units (``Thresholds.scale``)."""
    pv: tuple[str, ...]
    """The principal variation, ``move`` first, each move in the game's notation."""
    verdict: str | None = None
    """``"win"``, ``"loss"`` or ``"draw"`` when the value is exact (a solver or a search that
    reached only finished positions), else ``None``."""
    margin: int | None = None
    """With a verdict: the game's margin (Reversi's disc difference, the plies to the end)."""


@runtime_checkable
class Analyst(Protocol):
    """A perfect-information game's analysis engine (the analysis board, ``asobiba.analysis``):
    keeps its tables between calls on the same position, so deepening is cheap."""

    def lines(self, state: State, depth: int, count: int, deadline: float
              ) -> list[AnalysisLine] | None:
        """The best ``count`` legal moves of ``state`` searched ``depth`` plies, best first;
        ``None`` when ``deadline`` (a ``time.perf_counter`` reading) passed first."""
        ...

    def max_depth(self, state: State) -> int:
        """The depth beyond which deepening changes nothing (solved, or the game's end)."""
        ...

    def setup(self, board: object, turn: int, options: JSONMapping) -> State:
        """A position set up on the board editor: ``board`` in the form of the views'
        ``board`` field, ``turn`` the seat to move. An impossible position raises
        :class:`SetupError` with a reason code."""
        ...


class SetupError(ValueError):
    """A board from the editor that is no position of the game; ``reason`` is a code the
    page words (``shape``, ``cell``, ``turn``, ``centre_empty``, ``too_many_pieces``,
    ``no_pieces``, ``two_goals``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class GameProgression:
    """The optional hooks one game fills (see the module docstring)."""

    evaluator: Callable[[JSONMapping], AnyEvaluator | None] | None = None
    thresholds: Callable[[JSONMapping], Thresholds] | None = None
    tutorial: str | None = None
    """File name of the tutorial (JSON) in the game's package folder."""
    tutorial_functions: Mapping[str, Callable[..., object]] = field(default_factory=dict)
    ladder_levels: tuple[str, ...] | None = None
    ladder_options: JSONMapping = field(default_factory=dict)
    opening_plies: tuple[int, int] = (0, 0)
    view_tiebreak: Callable[[JSONMapping], tuple[float, ...]] | None = None
    teams: Callable[[JSONMapping, int], list[list[int]] | None] | None = None
    daily: Daily | None = None
    analyst: Callable[[JSONMapping], Analyst] | None = None
    """The analysis board's engine for ``options`` (perfect-information games)."""
    seat_analysis: Callable[[JSONMapping, Sequence[JSONMapping]], JSONObject] | None = None
    """Hidden-information games: what one seat can know, from its views only (oldest first,
    the last is the position analysed) and the options: a JSON answer the page draws."""
    package: str = ""
    """The game's package (set by :meth:`Game.progression`; where ``tutorial`` is found)."""
    puzzles: Callable[[JSONMapping], PuzzleJudge | None] | None = None
    """s10-puzzles: the engine that verifies mined puzzles for these options (``None``: the
    game has no puzzles)."""
    puzzle_sets: Mapping[str, JSONMapping] = field(default_factory=dict)
    """s10-puzzles: the game's puzzle sets, name → options (a set per board, say)."""
    explorer: Callable[[JSONMapping], ExplorerSpec] | None = None
    """s10-explorer2: the opening explorer's parts for these options (``None``: the game has
    no explorer)."""
    explorer_sets: Mapping[str, JSONMapping] = field(default_factory=dict)
    """s10-explorer2: the game's explorers, id (in URLs, at most 20 characters) → options."""


# --- s10-puzzles: the puzzle miner's hook (asobiba/puzzles, docs/puzzles.md) ---

@dataclass(frozen=True)
class Verdict:
    """What a game's puzzle judge says about one position: every legal move's value for the
    mover, and how far to trust them.

    ``exact``: the values are game-theoretic (a solver's); otherwise a search's, and a move is
    *clearly best* only by ``margin`` over the next one (docs/puzzles.md). A value
    ``>= win_value`` is a proven win (exact, or a forced win the search found)."""

    values: Mapping[str, float]
    exact: bool
    win_value: float
    margin: float = math.inf
    best_min: float = 0.0
    """Non-exact: the clearly-best move's value must also reach this (the mover stands well
    after it, not merely less badly)."""


@runtime_checkable
class PuzzleJudge(Protocol):
    """A game's engine for the puzzle miner (``GameProgression.puzzles(options)``)."""

    selfplay_levels: tuple[str, ...]
    """The bot levels self-play draws its seats from (``"random"``: random legal moves)."""

    def candidate(self, state: State) -> bool:
        """Cheap: is this position worth judging (phase, solver's reach)?"""
        ...

    def judge(self, state: State) -> Verdict | None:
        """The values of every legal move, or ``None`` when out of the engine's reach or
        unstable (a search whose best move changes with depth)."""
        ...

    def key(self, state: State) -> str:
        """The position (and what the rules remember of its history) as text: equal keys are
        one puzzle."""
        ...

    def themes(self, state: State, line: Sequence[str]) -> list[str]:
        """Theme tags of the puzzle at ``state`` whose solution is ``line`` (player, reply,
        player, ...)."""
        ...


# --- s10-explorer2: the opening explorer's hook (asobiba/explorer, docs/explorer.md) ---

Perm = tuple[int, ...]
"""A symmetry of a board: square ``i`` goes to square ``perm[i]``."""


@dataclass(frozen=True)
class ExplorerSpec:
    """What the opening explorer needs of a two-player perfect-information game for one set
    of options (``GameProgression.explorer(options)``): how a position is keyed up to the
    board's symmetries, how a move's text moves with a symmetry, and the engine its bundled
    book is scored with."""

    perms: tuple[Perm, ...]
    """The symmetries of the board that the rules respect (the identity among them)."""
    cells: Callable[[State], str]
    """One character per square (empty ``.``), in the squares' order of ``perms``."""
    extra: Callable[[State], str]
    """The rest of a position's key: the side to move, and whatever else decides the game
    from there (not the move history)."""
    move_map: Callable[[str, Perm], str]
    """A move's text (the game's own spelling) with its squares moved by a symmetry."""
    score: Callable[[State, int], tuple[float, float]]
    """The book's engine: (the value of a position that is not over for its side to move,
    searched the given plies; the engine's win bound — a value at or beyond it is decided)."""
    book_plies: int = 4
    """Plies of positions of the shipped book (``asobiba explorer book`` by default)."""
    book_depth: int = 4
    """Search plies per move of the shipped book."""
