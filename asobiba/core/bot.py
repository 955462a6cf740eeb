"""The bot interface. A bot sits in a seat and sees what a person there would see.

The runner (``asobiba.play.runner``) hands a bot every view its seat receives, in order,
through :meth:`Bot.observe`, and asks for a move with :meth:`Bot.choose` when the seat must
act. A bot never receives a :class:`~asobiba.core.protocol.State`. Perfect-information bots
rebuild a state with ``game.state_from_view`` (a view then holds everything); hidden-
information bots keep their own memory of past views and sample what they cannot see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from .rng import Rng


class Bot(ABC):
    """Base class of all bots. ``seed`` makes a bot's choices reproducible."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Rng(seed, "bot", type(self).__name__)
        self.seat: int | None = None
        self.options: Mapping[str, Any] = {}

    def reset(self, seat: int, options: Mapping[str, Any]) -> None:
        """A new game starts; forget everything remembered about the last one."""
        self.seat = seat
        self.options = dict(options)

    def observe(self, view: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Called with every view this seat receives (after each move). Default: forget."""

    @abstractmethod
    def choose(self, view: Mapping[str, Any]) -> str:
        """The move text to play; ``view["legal_moves"]`` lists the legal ones."""


class RandomBot(Bot):
    """Plays a uniformly random legal move: the floor every other level must beat."""

    name = "random"

    def choose(self, view: Mapping[str, Any]) -> str:
        moves = view["legal_moves"]
        if not moves:
            raise ValueError("RandomBot asked to move with no legal move")
        return str(self.rng.choice(moves))
