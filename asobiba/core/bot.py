"""The bot interface. A bot sits in a seat and sees what a person there would see.

The runner (``asobiba.play.runner``) hands a bot every view its seat receives, in order,
through :meth:`Bot.observe`, and asks for a move with :meth:`Bot.choose` when the seat must
act. A bot never receives a :class:`~asobiba.core.protocol.State`. Perfect-information bots
rebuild a state with ``game.state_from_view`` (a view then holds everything); hidden-
information bots keep their own memory of past views and sample what they cannot see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from .jsontypes import JSONMapping
from .rng import Rng

if TYPE_CHECKING:
    from .protocol import Move, State


class Bot(ABC):
    """Base class of all bots. ``seed`` makes a bot's choices reproducible."""

    name: str = "bot"
    level: str
    """The level name, on bots made by ``Game.make_bot`` that keep it (declared, not set
    here: read it with ``getattr(bot, "level", None)``)."""
    reads_state: ClassVar[bool] = False
    """True if the bot can choose from the state itself (:meth:`choose_state`). The runner
    uses it only in perfect-information games, where the state shows a seat nothing its
    view does not: the same information, without building the view."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Rng(seed, "bot", type(self).__name__)
        self.seat: int | None = None
        self.options: JSONMapping = {}

    def reset(self, seat: int, options: JSONMapping) -> None:
        """A new game starts; forget everything remembered about the last one."""
        self.seat = seat
        self.options = dict(options)

    def observe(self, view: JSONMapping) -> None:  # noqa: B027 - optional hook
        """Called with every view this seat receives (after each move). Default: forget."""

    @abstractmethod
    def choose(self, view: JSONMapping) -> str:
        """The move text to play; ``view["legal_moves"]`` lists the legal ones."""

    def choose_state(self, state: State) -> Move:
        """The move (an object of ``state.legal_moves()``) that :meth:`choose` would pick
        from this seat's view of ``state`` (only for ``reads_state`` bots, only in
        perfect-information games)."""
        raise NotImplementedError(f"{type(self).__name__} chooses from views only")


class RandomBot(Bot):
    """Plays a uniformly random legal move: the floor every other level must beat."""

    name = "random"
    reads_state = True

    def choose(self, view: JSONMapping) -> str:
        moves = view["legal_moves"]
        if not moves:
            raise ValueError("RandomBot asked to move with no legal move")
        return str(self.rng.choice(moves))

    def choose_state(self, state: State) -> Move:
        """The same draw as :meth:`choose` (the view lists the same moves in the same order)."""
        moves = state.legal_moves(self.seat)
        if not moves:
            raise ValueError("RandomBot asked to move with no legal move")
        return self.rng.choice(moves)
