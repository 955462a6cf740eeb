"""PettingZoo AEC environments for every asobiba game (``asobiba.envs.pettingzoo_env``).

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). An agent's observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` built from its seat's
``view`` only (fields per game: docs/python-api.md). Rewards come once, at the end, from the
outcome (``session.rewards_of``). Chance comes from the seed: ``reset(seed=s)`` starts the
game with seed ``s``, so a seeded episode replays exactly. In Patapata, a simultaneous game,
the seats that still have to act on the current task take turns in seat order.

An illegal action (one outside the mask) is handled as ``illegal_action`` says:

* ``"penalty"`` (the default, as PettingZoo's classic environments do): the move is not
  played, the offender gets -1 and every other agent 0, and the episode ends (every agent
  terminated, ``infos[offender]["illegal_action"] = True``). In a simultaneous game
  (Patapata) the seats still to act on the current task finish the cycle first (their
  actions are not played; an illegal one is penalised too), because PettingZoo's Parallel
  API ends episodes only at the end of a cycle;
* ``"raise"``: :class:`~asobiba.core.IllegalMoveError`, and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, SupportsInt

try:  # the rl extra; without it, say so
    import numpy as np
    from pettingzoo import AECEnv
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import IllegalMoveError
from ..core.jsontypes import JSONMapping, JSONObject, OptionValue
from .session import ObsDict, Session, rewards_of

if TYPE_CHECKING:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv


class AsobibaAEC(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "name": "asobiba", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None,
                 illegal_action: str = "penalty", **options: OptionValue) -> None:
        super().__init__()
        self.illegal_action = check_illegal_action(illegal_action)
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
        # penalty mode in a simultaneous game: who offended, and the seats still to act on
        # the task (in turn) before the episode ends
        self._offenders: list[int] = []
        self._rest_of_cycle: list[int] = []

    def observe(self, agent: str) -> ObsDict:
        return self.session.observe(self._seat[agent])

    def step(self, action: SupportsInt) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        seat = self._seat[agent]
        if self._offenders:  # finishing the cycle after an illegal action: nothing is played
            if action is None or session.codec.move_of(session.state, seat, int(action)) is None:
                self._offenders.append(seat)
            self._next_in_cycle()
            return
        try:
            if action is None:
                raise IllegalMoveError(f"{agent} must act here; None is not an action")
            session.step(int(action))  # an illegal action raises and changes nothing
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._offenders.append(seat)
            acting = list(session.state.acting_seats)
            self._rest_of_cycle = (acting[acting.index(seat) + 1:]
                                   if session.game.simultaneous and seat in acting else [])
            self._next_in_cycle()
            return
        self._cumulative_rewards[agent] = 0.0
        to_move = session.to_move
        if to_move is None:
            # the outcome once: Patapata scores every sheet to make one
            outcome = session.state.outcome
            assert outcome is not None
            for a, r in zip(self.possible_agents, rewards_of(outcome, session.num_seats)):
                if a in self.rewards:
                    self.rewards[a] = r
                    self.terminations[a] = True
            self.infos = {a: {"outcome": outcome.to_json()} for a in self.agents}
            self._accumulate_rewards()
        else:
            # rewards come only at the end: during play every entry stays 0, so the
            # per-step bookkeeping is just whose turn it is
            self.agent_selection = self.possible_agents[to_move]

    def _next_in_cycle(self) -> None:
        """After an illegal action: the next seat of the cycle, or the end of the episode
        with -1 for each offender and 0 for everyone else."""
        if self._rest_of_cycle:
            self.agent_selection = self.possible_agents[self._rest_of_cycle.pop(0)]
            return
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        for s in self._offenders:
            a = self.possible_agents[s]
            self.rewards[a] = -1.0
            self.infos[a] = {"illegal_action": True}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.session.state.render(None)
        return None

    def close(self) -> None:
        pass


ILLEGAL_ACTION_MODES = ("penalty", "raise")


def check_illegal_action(mode: str) -> str:
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                         f"not {mode!r}")
    return mode


def pettingzoo_env(game_id: str, render_mode: str | None = None, illegal_action: str = "penalty",
                   **options: OptionValue) -> AsobibaAEC:
    """A PettingZoo AEC environment of ``game_id`` with game ``options`` (or ``variant=``)."""
    return AsobibaAEC(game_id, render_mode=render_mode, illegal_action=illegal_action, **options)


def parallel_env(game_id: str, render_mode: str | None = None, illegal_action: str = "penalty",
                 **options: OptionValue) -> ParallelEnv[str, ObsDict, int]:
    """A PettingZoo Parallel environment, for the simultaneous games (Patapata): every seat
    acts on the current task at once."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = AsobibaAEC(game_id, render_mode=render_mode, illegal_action=illegal_action,
                     **options)
    if not env.session.game.simultaneous:
        raise ValueError(f"{game_id} is played in turns; use pettingzoo_env (AEC)")
    return aec_to_parallel(env)
