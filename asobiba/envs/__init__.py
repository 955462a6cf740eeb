"""Learning environments for every asobiba game (optional extra: ``pip install 'asobiba[rl]'``).

* :func:`pettingzoo_env` — a PettingZoo AEC environment, every seat an agent
  (:func:`parallel_env` — the Parallel API, for the simultaneous Patapata);
* :func:`gym_env` — a Gymnasium single-agent environment against the game's CPU levels,
  also registered as ``asobiba/Reversi-v0`` … (see :data:`GYM_IDS`);
* :mod:`asobiba.envs.openspiel` — ``register()`` makes every game a pyspiel game;
* :func:`vector_env` — a Gymnasium vector environment of N self-play games (NumPy batches,
  every seat's reward in ``infos["rewards"]``); :class:`asobiba.envs.vector.VectorRollout`
  — N games stepped together for random playouts.

Actions are integers with masks, observations flat float32 vectors built from
``state.view(seat)`` only; each game's encoding lives in its own package
(``asobiba/games/<id>/encoding.py``). docs/python-api.md documents every field.
Nothing here is imported by the rest of asobiba, so the default install needs none of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ..core.jsontypes import OptionValue
from ..games import available, manifest

if TYPE_CHECKING:
    from pettingzoo import ParallelEnv

    from .aec import AsobibaAEC
    from .session import ObsDict
    from .single import AsobibaGym
    from .vector import AsobibaVectorEnv

def encoded_games() -> list[str]:
    """Every registered game whose manifest names an encoding (the games these bindings
    serve), in the registry's order."""
    return [gid for gid in available() if manifest(gid).encoding is not None]


class _GymIds(Mapping[str, str]):
    """Game id → Gymnasium id for every registered game with an encoding, read from the
    registry whenever it is asked (a game plugged in later has its id too): the manifests'
    ``gym_id``."""

    def __getitem__(self, game_id: str) -> str:
        if game_id not in encoded_games():
            raise KeyError(game_id)
        return manifest(game_id).gym_id

    def __iter__(self) -> Iterator[str]:
        return iter(encoded_games())

    def __len__(self) -> int:
        return len(encoded_games())


#: Gymnasium ids, one per registered game with an encoding (``gymnasium.make("asobiba/FlipFlop-v0",
#: opponent="5")``), derived from the registry.
GYM_IDS: Mapping[str, str] = _GymIds()


def pettingzoo_env(game_id: str, render_mode: str | None = None, illegal_action: str = "penalty",
                   **options: OptionValue) -> AsobibaAEC:
    """A PettingZoo AEC environment of ``game_id``; ``options`` are the game's options.
    ``illegal_action``: ``"penalty"`` (-1 for the offender, the episode ends) or
    ``"raise"``."""
    from .aec import pettingzoo_env as make

    return make(game_id, render_mode=render_mode, illegal_action=illegal_action, **options)


def parallel_env(game_id: str, render_mode: str | None = None, illegal_action: str = "penalty",
                 **options: OptionValue) -> ParallelEnv[str, ObsDict, int]:
    """A PettingZoo Parallel environment of a simultaneous game (Patapata)."""
    from .aec import parallel_env as make

    return make(game_id, render_mode=render_mode, illegal_action=illegal_action, **options)


def gym_env(game_id: str, opponent: str = "3", seat: int = 0, render_mode: str | None = None,
            illegal_action: str = "penalty", **options: OptionValue) -> AsobibaGym:
    """A Gymnasium environment: the agent plays ``seat``, the game's CPU level ``opponent``
    every other seat."""
    from .single import AsobibaGym

    return AsobibaGym(game_id, opponent=opponent, seat=seat, render_mode=render_mode,
                      illegal_action=illegal_action, **options)


def vector_env(game_id: str, num_envs: int, autoreset_mode: str = "NextStep",
               illegal_action: str = "raise", **options: OptionValue) -> AsobibaVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` self-play games of ``game_id``
    (:class:`asobiba.envs.vector.AsobibaVectorEnv`); ``autoreset_mode`` one of Gymnasium's
    ``NextStep``, ``SameStep``, ``Disabled``."""
    from .vector import AsobibaVectorEnv

    return AsobibaVectorEnv(game_id, num_envs, autoreset_mode=autoreset_mode,
                            illegal_action=illegal_action, **options)


def register_gym() -> None:
    """Register :data:`GYM_IDS` with Gymnasium (idempotent; done when this package is
    imported — call it again after plugging in a game — so ``gymnasium.make("asobiba.envs:asobiba/Reversi-v0")`` works too)."""
    import gymnasium

    for game_id, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="asobiba.envs.single:AsobibaGym",
                               kwargs={"game_id": game_id})


try:  # the rl extra may be missing: then only the error of the function called says so
    register_gym()
except ImportError:
    pass
