"""N games stepped together, for self-play, rollouts and batched training loops.

:class:`AsobibaVectorEnv` (``asobiba.envs.vector_env(game_id, num_envs)``) is a Gymnasium
vector environment (``gymnasium.vector.VectorEnv``, the 1.x API) over N games of one game
id, every seat played by the caller (self-play):

* ``reset(seed=s)`` starts game ``i`` with seed ``s + i`` (a list gives one seed per game;
  ``None`` draws them); later games (autoreset) take seeds drawn from ``np_random``, which
  ``reset(seed=s)`` seeds, so a seeded run replays exactly;
* observations are batched NumPy arrays: ``{"observation": (N, size) float32,
  "action_mask": (N, actions) int8}``, game ``i``'s row being the view of the seat to move
  there (``infos["to_move"][i]``), built from ``state.view(seat)`` only as in the single
  environments; a finished game's row is the view of the seat that moved last, mask zero;
* ``step(actions)`` applies ``actions[i]`` for the seat to move in game ``i`` and returns
  ``(obs, rewards, terminations, truncations, infos)``: ``rewards[i]`` is the reward of the
  seat that acted (``infos["seat"][i]``); **every seat's reward** is in
  ``infos["rewards"]``, shape (N, seats) float32 (zero until a game ends; then the rewards
  of the PettingZoo environment: ``2 * points - 1``, solo Patapata its score). Truncations
  are always false: every game ends by its rules;
* autoreset: ``autoreset_mode`` is Gymnasium's ``AutoresetMode`` (``metadata``
  says which). ``NEXT_STEP`` (the default, as ``SyncVectorEnv``): the step after a game
  ends restarts it, its action ignored, reward 0, ``infos["seat"]`` -1. ``SAME_STEP``: a
  finished game restarts at once; its last observation is ``infos["final_obs"][i]`` and its
  rewards ``infos["final_info"]["rewards"][i]``. ``DISABLED``: restart finished games with
  ``reset(options={"reset_mask": mask})``; stepping a finished game raises;
* an illegal action (outside the mask): ``illegal_action="raise"`` (the default) raises
  :class:`~asobiba.core.IllegalMoveError` before any game moves; ``"penalty"`` ends that
  game unplayed with -1 for the offender and 0 for the others (``infos["illegal_action"]``).

Info arrays follow Gymnasium's convention: each key ``k`` has a boolean ``_k`` saying which
games it holds for. No process pool: the games are plain Python objects, and two cores are
better spent running two of these.

:class:`VectorRollout` is the older, leaner interface for random playouts (masks from the
state path, no observation unless asked): ``masks()``, ``step(actions)`` → (rewards of the
seat that moved, done flags), and ``seat_rewards`` with every seat's rewards of that step.
"""

from __future__ import annotations

from collections.abc import Sequence

try:  # the rl extra; without it, say so
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
    from numpy.typing import NDArray
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import IllegalMoveError
from ..core.jsontypes import OptionValue
from .aec import check_illegal_action
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
        self.num_seats = self.sessions[0].num_seats
        self.seat_rewards = np.zeros((num_envs, self.num_seats), np.float32)
        """Every seat's rewards at the last step (row ``i`` non-zero where game ``i`` ended)."""

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
        return np.stack([s.codec.observe(s.state.view(None)) if s.to_move is None
                         else s.codec.observe_state(s.state, s.to_move) for s in self.sessions])

    def step(self, actions: Sequence[int]) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Apply ``actions[i]`` in game ``i``. Returns (rewards of the seat that moved,
        done flags); every seat's rewards are in :attr:`seat_rewards`. Finished games
        restart at once."""
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} games")
        for i, (s, a) in enumerate(zip(self.sessions, actions)):
            if int(a) not in s.legal():  # check all first: a bad action changes nothing
                raise IllegalMoveError(f"game {i}: action {a} is not legal for seat "
                                       f"{s.to_move} here")
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        seat_rewards = self.seat_rewards = np.zeros((self.num_envs, self.num_seats), np.float32)
        for i, (s, a) in enumerate(zip(self.sessions, actions)):
            seat = s.to_move
            s.step(int(a))
            self.steps += 1
            if s.over:
                seat_rewards[i] = s.rewards()
                rewards[i] = seat_rewards[i, seat]
                dones[i] = True
                self.episodes += 1
                self._restart(s)
        return rewards, dones

    def random_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """One uniformly random legal action per game (the state path, no views)."""
        return np.array([rng.choice(list(s.legal())) for s in self.sessions])


VecObs = dict[str, NDArray[np.float32] | NDArray[np.int8]]
"""Batched observations: ``{"observation": (N, size) float32, "action_mask": (N, A) int8}``."""


Arr = NDArray[np.float32] | NDArray[np.bool_]


class AsobibaVectorEnv(gymnasium.vector.VectorEnv[VecObs, NDArray[np.int64], Arr]):
    """N self-play games of ``game_id`` as one Gymnasium vector environment (module
    docstring). ``options`` are the game's options."""

    metadata: dict[str, object] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game_id: str, num_envs: int,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
                 illegal_action: str = "raise", **options: OptionValue) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.illegal_action = check_illegal_action(illegal_action)
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.sessions = [Session(game_id, options) for _ in range(num_envs)]
        first = self.sessions[0]
        self.codec = first.codec
        self.num_envs = num_envs
        self.num_seats = first.num_seats
        self.single_observation_space, self.single_action_space = first.spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._done = np.zeros(num_envs, bool)  # game i finished (awaiting a restart)
        self._last_seat = np.full(num_envs, -1, np.int64)  # seat whose view a finished row shows
        self._ready = False

    # ---- helpers ---------------------------------------------------------------------------
    def _row(self, i: int, obs: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        """Fill row ``i`` (the seat to move's view, or the last mover's once over); returns
        the seat to move (-1 when over)."""
        s = self.sessions[i]
        seat = s.to_move
        if seat is None or self._done[i]:
            view_seat = int(self._last_seat[i]) if self._last_seat[i] >= 0 else 0
            obs[i] = self.codec.observe_state(s.state, view_seat)
            mask[i] = 0
            return -1
        obs[i] = self.codec.observe_state(s.state, seat)
        mask[i, list(s.legal())] = 1
        return int(seat)

    def _observe(self) -> tuple[VecObs, NDArray[np.int64]]:
        obs = np.zeros((self.num_envs, self.codec.obs_size), np.float32)
        mask = np.zeros((self.num_envs, self.codec.num_actions), np.int8)
        to_move = np.array([self._row(i, obs, mask) for i in range(self.num_envs)], np.int64)
        return {"observation": obs, "action_mask": mask}, to_move

    def _restart(self, i: int, seed: int | None) -> None:
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31 - 1))
        self.sessions[i].reset(seed)
        self._done[i] = False
        self._last_seat[i] = -1

    def _infos(self, to_move: NDArray[np.int64], **arrays: Arr | NDArray[np.int64]) -> dict[str, object]:
        infos: dict[str, object] = {"to_move": to_move, "seeds": np.array(
            [s.seed for s in self.sessions], np.int64)}
        infos.update(arrays)
        for k in list(infos):
            infos["_" + k] = np.ones(self.num_envs, bool)
        return infos

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, object] | None = None) -> tuple[VecObs, dict[str, object]]:
        """Start every game (or, with ``options={"reset_mask": bool array}``, the masked
        ones). ``seed``: an int gives games seeds ``seed``, ``seed + 1``, …; a list one seed
        per game; ``None`` draws them from ``np_random``."""
        if isinstance(seed, int):
            super().reset(seed=seed)
            seeds: list[int | None] = [seed + i for i in range(self.num_envs)]
        elif seed is None:
            super().reset()
            seeds = [None] * self.num_envs
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} games")
            super().reset(seed=next((x for x in seed if x is not None), None))
            seeds = list(seed)
        mask = np.ones(self.num_envs, bool)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError("options['reset_mask'] must be a bool array of shape "
                                 f"({self.num_envs},) with at least one True")
            if not self._ready:
                raise ValueError("reset() without a reset_mask first")
        for i in np.flatnonzero(mask).tolist():
            self._restart(i, seeds[i])
        self._ready = True
        obs, to_move = self._observe()
        return obs, self._infos(to_move)

    def step(self, actions: NDArray[np.int64] | list[int]
             ) -> tuple[VecObs, Arr, Arr, Arr, dict[str, object]]:
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"{acts.size} actions for {self.num_envs} games")
        n = self.num_envs
        if self.autoreset_mode == AutoresetMode.DISABLED and self._done.any():
            raise RuntimeError(f"games {np.flatnonzero(self._done).tolist()} are over: "
                               "reset(options={'reset_mask': mask}) restarts them")
        illegal = np.zeros(n, bool)
        for i, (s, a) in enumerate(zip(self.sessions, acts)):
            if not self._done[i] and int(a) not in s.legal():
                if self.illegal_action == "raise":  # check all first: nothing half-applied
                    raise IllegalMoveError(f"game {i}: action {a} is not legal for seat "
                                           f"{s.to_move} here")
                illegal[i] = True
        rewards = np.zeros(n, np.float32)
        seat_rewards = np.zeros((n, self.num_seats), np.float32)
        terminated = np.zeros(n, bool)
        acted = np.full(n, -1, np.int64)
        restart = []
        for i, (s, a) in enumerate(zip(self.sessions, acts)):
            if self._done[i]:  # NEXT_STEP: this step restarts the game
                restart.append(i)
                continue
            seat = s.to_move
            assert seat is not None
            acted[i] = seat
            if illegal[i]:
                seat_rewards[i, seat] = -1.0
            else:
                s.step(int(a))
                if s.over:
                    seat_rewards[i] = s.rewards()
            if illegal[i] or s.over:
                rewards[i] = seat_rewards[i, seat]
                terminated[i] = True
                self._done[i] = True
                self._last_seat[i] = seat
        for i in restart:
            self._restart(i, None)
        extra: dict[str, Arr | NDArray[np.int64]] = {"seat": acted, "rewards": seat_rewards}
        if self.illegal_action == "penalty":
            extra["illegal_action"] = illegal
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            final_obs, _ = self._observe()
            finals = np.full(n, None, dtype=object)
            for i in np.flatnonzero(terminated).tolist():
                finals[i] = {k: v[i] for k, v in final_obs.items()}
                self._restart(i, None)
            obs, to_move = self._observe()
            infos = self._infos(to_move, **extra)
            infos["final_obs"], infos["_final_obs"] = finals, terminated.copy()
            infos["final_info"] = {"rewards": seat_rewards.copy(), "_rewards": terminated.copy()}
            infos["_final_info"] = terminated.copy()
        else:
            obs, to_move = self._observe()
            infos = self._infos(to_move, **extra)
        return obs, rewards, terminated, np.zeros(n, bool), infos

    def action_masks(self) -> NDArray[np.int8]:
        """(N, actions) masks of the seats to move (the name MaskablePPO looks for)."""
        mask = np.zeros((self.num_envs, self.codec.num_actions), np.int8)
        for i, s in enumerate(self.sessions):
            if not self._done[i] and not s.over:
                mask[i, list(s.legal())] = 1
        return mask

    def close_extras(self, **kwargs: object) -> None:
        pass

