"""One game in progress behind an environment: the state, whose turn, the action -> move map,
rewards from the outcome. Shared by the PettingZoo, Gymnasium and vectorised environments;
it holds the state (with its secrets) and hands agents only :meth:`observe`, which reads
``state.view(seat)`` and nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

try:  # the rl extra; without it, say so
    import numpy as np
    from numpy.typing import NDArray
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import Game, IllegalMoveError, Move, Outcome, State
from ..core.jsontypes import JSONMapping
from ..games import get
from .codec import Codec, codec_for

if TYPE_CHECKING:
    from gymnasium import spaces as gym_spaces

ObsDict = dict[str, NDArray[np.float32] | NDArray[np.int8]]
"""An agent's observation: ``{"observation": float32 vector, "action_mask": int8 vector}``."""


def rewards_of(outcome: Outcome, num_seats: int) -> list[float]:
    """Rewards from an outcome: with two or more seats ``2 * points - 1`` (a win +1, a loss
    -1, a draw 0; in between by rank with more seats, always summing to 0); alone (Patapata
    solo) the game's own score, since there is nobody to rank against."""
    if num_seats == 1:
        return [float(outcome.scores[0])]
    return [2.0 * outcome.points(s) - 1.0 for s in range(num_seats)]


OBSERVATION_LAYOUTS = ("flat", "planes")


class Session:
    """A game for an environment. ``game_id`` and ``options`` as for ``Game.new_game``,
    except ``observation``: ``"flat"`` (the default, a vector) or ``"planes"`` (a
    ``(C, H, W)`` array, ``Codec.to_planes``, for the board games), which every environment
    takes among its keyword options."""

    def __init__(self, game_id: str | Game, options: JSONMapping | None = None) -> None:
        self.game: Game = get(game_id) if isinstance(game_id, str) else game_id
        game_options = dict(options or {})
        layout = str(game_options.pop("observation", "flat"))
        self.options = self.game.validate_options(game_options)
        self.codec: Codec[Move] = codec_for(self.game, self.options)
        if layout not in OBSERVATION_LAYOUTS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATION_LAYOUTS)}, "
                             f"not {layout!r}")
        if layout == "planes" and self.codec.planes_shape is None:
            raise ValueError(f"{self.game.id} has no planes layout (docs/python-api.md says "
                             "why); use observation='flat'")
        self.planes = layout == "planes"
        self.num_seats = self.game.num_seats(self.options)
        self.state: State = self.game.new_game(self.options, 0)
        self.seed = 0
        self._legal: dict[int, Move] | None = None
        self._seat: int | None = None

    # ---- lifecycle -----------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.seed = int(seed)
        self.state = self.game.new_game(self.options, self.seed)
        self._legal = None

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.is_over

    def legal(self) -> dict[int, Move]:
        """Action -> move for the seat to move (state path; never shown to an agent)."""
        if self._legal is None:
            seat = self._seat = self.state.to_move
            self._legal = {} if seat is None else self.codec.legal_actions(self.state, seat)
        return self._legal

    def step(self, action: int) -> None:
        """Apply the seat-to-move's ``action``; an illegal one raises and changes nothing."""
        seat = self._seat if self._legal is not None else self.state.to_move
        if seat is None:
            raise IllegalMoveError("the game is over; no more moves can be played")
        if self._legal is not None:  # the mask was asked for already: use it
            move = self._legal.get(int(action))
        else:
            move = self.codec.move_of(self.state, seat, int(action))
        if move is None:
            legal = sorted(self.legal())
            raise IllegalMoveError(
                f"action {action} is not legal for seat {seat} here; legal actions: "
                f"{legal[:20]}{' …' if len(legal) > 20 else ''}")
        self.state = self.state.child(move, seat)
        self._legal = None

    def move_text(self, action: int) -> str:
        seat = self.state.to_move
        move = self.legal()[int(action)]
        return self.state.move_text(move, seat)

    def rewards(self) -> list[float]:
        outcome = self.state.outcome
        return [0.0] * self.num_seats if outcome is None else rewards_of(outcome, self.num_seats)

    # ---- what a seat sees ----------------------------------------------------------------
    def observe(self, seat: int) -> ObsDict:
        """``{"observation": float32 vector, "action_mask": int8 vector}``: what
        ``state.view(seat)`` shows, written straight from the state by the game's codec
        (``Codec.observe_state``; tests hold it equal to :meth:`observe_view`)."""
        state, codec = self.state, self.codec
        if self._legal is not None and seat == self._seat:  # the step's map is the mask
            mask = np.zeros(codec.num_actions, np.int8)
            if self._legal:
                mask[list(self._legal)] = 1
        else:
            mask = codec.mask_state(state, seat)
        obs = codec.observe_state(state, seat)
        return {"observation": codec.to_planes(obs) if self.planes else obs,
                "action_mask": mask}

    def observe_view(self, seat: int) -> ObsDict:
        """The reference path: the same dict built from ``state.view(seat)`` itself."""
        view = self.state.view(seat)
        obs = self.codec.observe(view)
        return {"observation": self.codec.to_planes(obs) if self.planes else obs,
                "action_mask": self.codec.mask(view)}

    def spaces(self) -> tuple[gym_spaces.Space[ObsDict], gym_spaces.Discrete[np.int64]]:
        """(observation space, action space) as Gymnasium spaces."""
        from gymnasium import spaces

        low, high = self.codec.bounds()
        if self.planes:
            low, high = self.codec.to_planes(low), self.codec.to_planes(high)
        obs = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        })
        # gymnasium types a Dict space's samples loosely; they are ObsDicts
        return cast("gym_spaces.Space[ObsDict]", obs), spaces.Discrete(self.codec.num_actions)
