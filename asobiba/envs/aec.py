"""PettingZoo AEC environments for every asobiba game (``asobiba.envs.pettingzoo_env``).

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). An agent's observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` built from its seat's
``view`` only (fields per game: docs/python-api.md). Rewards come once, at the end, from the
outcome (``session.rewards_of``). Chance comes from the seed: ``reset(seed=s)`` starts the
game with seed ``s``, so a seeded episode replays exactly. In Patapata, a simultaneous game,
the seats that still have to act on the current task take turns in seat order.

An illegal action raises :class:`~asobiba.core.IllegalMoveError` and changes nothing (sample
with the mask); the Gymnasium wrapper instead turns it into a loss, as RL libraries expect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, SupportsInt

import numpy as np
from pettingzoo import AECEnv

from ..core.jsontypes import JSONMapping, JSONObject, OptionValue
from .session import ObsDict, Session

if TYPE_CHECKING:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv


class AsobibaAEC(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "name": "asobiba", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, **options: OptionValue) -> None:
        super().__init__()
        self.session = Session(game_id, options)
        # a simultaneous game (Patapata) gives every seat exactly one action per task, in
        # seat order, and no seat sees another's until the task ends: safe as Parallel
        self.metadata = {**self.metadata, "name": f"asobiba_{self.session.game.id}",
                         "is_parallelizable": self.session.game.simultaneous}
        self.render_mode = render_mode
        n = self.session.num_seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = self.session.spaces()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.agents: list[str] = []

    @property
    def game_options(self) -> JSONMapping:
        return self.session.options

    def observation_space(self, agent: str) -> spaces.Space[ObsDict]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete[np.int64]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: JSONObject | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.session.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, JSONObject] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.session.to_move or 0]

    def observe(self, agent: str) -> ObsDict:
        return self.session.observe(self._seat[agent])

    def step(self, action: SupportsInt) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        session.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        to_move = session.to_move
        if to_move is None:
            for a, r in zip(self.possible_agents, session.rewards()):
                if a in self.rewards:
                    self.rewards[a] = r
                    self.terminations[a] = True
            self.infos = {a: {"outcome": session.state.outcome.to_json()}  # type: ignore[union-attr]
                          for a in self.agents}
            self._accumulate_rewards()
        else:
            # rewards come only at the end: during play every entry stays 0, so the
            # per-step bookkeeping is just whose turn it is
            self.agent_selection = self.possible_agents[to_move]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.session.state.render(None)
        return None

    def close(self) -> None:
        pass


def pettingzoo_env(game_id: str, render_mode: str | None = None, **options: OptionValue) -> AsobibaAEC:
    """A PettingZoo AEC environment of ``game_id`` with game ``options`` (or ``variant=``)."""
    return AsobibaAEC(game_id, render_mode=render_mode, **options)


def parallel_env(game_id: str, render_mode: str | None = None,
                 **options: OptionValue) -> ParallelEnv[str, ObsDict, int]:
    """A PettingZoo Parallel environment, for the simultaneous games (Patapata): every seat
    acts on the current task at once."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = AsobibaAEC(game_id, render_mode=render_mode, **options)
    if not env.session.game.simultaneous:
        raise ValueError(f"{game_id} is played in turns; use pettingzoo_env (AEC)")
    return aec_to_parallel(env)
