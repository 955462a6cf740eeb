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
  game against the CPU).
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
    package: str = ""
    """The game's package (set by :meth:`Game.progression`; where ``tutorial`` is found)."""
