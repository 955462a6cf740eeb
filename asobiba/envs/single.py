"""Gymnasium single-agent environments: the agent plays one seat, the game's CPU levels the
others (``asobiba.envs.gym_env`` or ``gymnasium.make("asobiba/Reversi-v0", opponent="3")``).

Observations and actions are those of the PettingZoo environment (one seat's view only).
The opponents are real asobiba bots fed their own seats' views, as in every asobiba game.
An action outside the mask is handled as ``illegal_action`` says: ``"penalty"`` (the
default, the usual RL convention and PettingZoo classic's) ends the episode with reward -1
and ``info["illegal_action"] = True``, the game unchanged; ``"raise"`` raises
:class:`~asobiba.core.IllegalMoveError` and changes nothing.
"""

from __future__ import annotations

from typing import SupportsInt

try:  # the rl extra; without it, say so
    import gymnasium
    import numpy as np
    from numpy.typing import NDArray
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import Bot, Game, RandomBot
from ..core.jsontypes import JSONObject, OptionValue
from ..core.rng import derive_seed
from .session import ObsDict, Session


def resolve_level(game: Game, level: str) -> str:
    """A level name the game knows: its own name, ``random``, or (for games whose levels
    are words) a 1-based position in its list, so ``opponent="3"`` works for every game."""
    names = game.level_names()
    level = str(level)
    if level in names or level == "random":
        return level
    if level.isdigit() and 1 <= int(level) <= len(names):
        return str(names[int(level) - 1])
    raise ValueError(f"{game.id} has no CPU level {level!r}; levels: {', '.join(names)}, random")


class AsobibaGym(gymnasium.Env[ObsDict, SupportsInt]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, opponent: str = "3", seat: int = 0,
                 render_mode: str | None = None, illegal_action: str = "penalty",
                 **options: OptionValue) -> None:
        from .aec import check_illegal_action

        self.illegal_action = check_illegal_action(illegal_action)
        self.session = Session(game_id, options)
        n = self.session.num_seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} does not exist; seats are 0..{n - 1}")
        self.seat = seat
        self.level = resolve_level(self.session.game, opponent)
        self.render_mode = render_mode
        self.observation_space, self.action_space = self.session.spaces()
        self._bots: dict[int, Bot] = {}
        self._seeds = np.random.default_rng()

    def _make_bot(self, s: int, seed: int) -> Bot:
        bot_seed = derive_seed(seed, "gym-opponent", s) & 0x7FFFFFFF
        if self.level == "random" and "random" not in self.session.game.level_names():
            return RandomBot(bot_seed)
        bot: Bot = self.session.game.make_bot(self.level, seed=bot_seed)
        return bot

    def _others_move(self) -> None:
        """Bots move until it is the agent's turn or the game ends; every bot sees every
        view of its own seat, in order."""
        state = self.session
        while not state.over and state.to_move != self.seat:
            s = state.to_move
            assert s is not None
            text = self._bots[s].choose(state.state.view(s))
            state.state = state.state.play(text, s)
            state._legal = None
            for other, bot in self._bots.items():
                bot.observe(state.state.view(other))

    def reset(self, *, seed: int | None = None,
              options: JSONObject | None = None) -> tuple[ObsDict, JSONObject]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.session.reset(game_seed)
        self._bots = {s: self._make_bot(s, game_seed)
                      for s in range(self.session.num_seats) if s != self.seat}
        for s, bot in self._bots.items():
            bot.reset(s, self.session.options)
            bot.observe(self.session.state.view(s))
        self._others_move()
        return self.session.observe(self.seat), {"seed": game_seed}

    def step(self, action: SupportsInt) -> tuple[ObsDict, float, bool, bool, JSONObject]:
        s = self.session
        if s.over:
            raise RuntimeError("the episode is over; call reset()")
        if int(action) not in s.legal():
            if self.illegal_action == "raise":
                s.step(int(action))  # raises IllegalMoveError, changes nothing
            return s.observe(self.seat), -1.0, True, False, {"illegal_action": True}
        s.step(int(action))
        for other, bot in self._bots.items():
            bot.observe(s.state.view(other))
        self._others_move()
        info: JSONObject = {}
        reward = 0.0
        if s.over:
            reward = s.rewards()[self.seat]
            info["outcome"] = s.state.outcome.to_json()  # type: ignore[union-attr]
        return s.observe(self.seat), reward, s.over, False, info

    def action_masks(self) -> NDArray[np.float32] | NDArray[np.int8]:
        """The current mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self.session.observe(self.seat)["action_mask"]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.session.state.render(self.seat)
        return None
