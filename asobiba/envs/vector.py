"""N games stepped together, for rollouts and batched training loops.

:class:`VectorRollout` keeps N independent games of one game id (seeds ``seed``,
``seed + 1``, …; a finished game restarts with the next unused seed). ``masks()`` gives the
(N, actions) legal-action masks of the seats to move, ``step(actions)`` applies one action
in every game, ``observations()`` the (N, size) observations of the seats to move (built
from their views, as in the single environments). No process pool: the games are plain
Python objects, and two cores are better spent running two of these.
"""

from __future__ import annotations

from collections.abc import Sequence

try:  # the rl extra; without it, say so
    import numpy as np
    from numpy.typing import NDArray
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import IllegalMoveError
from ..core.jsontypes import OptionValue
from .session import Session


class VectorRollout:
    def __init__(self, game_id: str, num_envs: int, seed: int = 0, **options: OptionValue) -> None:
        self.sessions = [Session(game_id, options) for _ in range(num_envs)]
        self.codec = self.sessions[0].codec
        self.num_envs = num_envs
        self._next_seed = seed
        for s in self.sessions:
            self._restart(s)
        self.episodes = 0
        self.steps = 0

    def _restart(self, session: Session) -> None:
        session.reset(self._next_seed)
        self._next_seed += 1

    def to_move(self) -> NDArray[np.int64] | NDArray[np.object_]:
        return np.array([s.to_move for s in self.sessions])

    def masks(self) -> NDArray[np.int8]:
        out = np.zeros((self.num_envs, self.codec.num_actions), np.int8)
        for i, s in enumerate(self.sessions):
            out[i, list(s.legal())] = 1
        return out

    def observations(self) -> NDArray[np.float32]:
        return np.stack([s.codec.observe(s.state.view(s.to_move)) for s in self.sessions])

    def step(self, actions: Sequence[int]) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Apply ``actions[i]`` in game ``i``. Returns (rewards of the seat that moved,
        done flags); finished games restart at once."""
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} games")
        for i, (s, a) in enumerate(zip(self.sessions, actions)):
            if int(a) not in s.legal():  # check all first: a bad action changes nothing
                raise IllegalMoveError(f"game {i}: action {a} is not legal for seat "
                                       f"{s.to_move} here")
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        for i, (s, a) in enumerate(zip(self.sessions, actions)):
            seat = s.to_move
            s.step(int(a))
            self.steps += 1
            if s.over:
                rewards[i] = s.rewards()[seat]  # type: ignore[index]
                dones[i] = True
                self.episodes += 1
                self._restart(s)
        return rewards, dones

    def random_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """One uniformly random legal action per game (the state path, no views)."""
        return np.array([rng.choice(list(s.legal())) for s in self.sessions])
