"""Every asobiba game as an OpenSpiel Python game: ``asobiba.envs.openspiel.register()`` then
``pyspiel.load_game("asobiba_reversi")`` (or ``"asobiba_algo(players=3,seeds=100)"``).

* Parameters are the game's options (an option whose default depends on others is given
  as ``""`` / ``-1``, meaning "the game's default"), plus ``seeds`` for games with chance.
* **Chance.** asobiba draws all chance from the seed when a game starts (the deal, the
  layout, Patapata's dice). The OpenSpiel game opens with one explicit chance node choosing
  the seed uniformly among ``seeds`` values; the rest of the game is then deterministic, and
  what a player does not see of the seed's consequences stays out of its information state.
* **Imperfect information.** Observation strings and tensors are built from
  ``view(player)`` only, with the same encoding as the PettingZoo environments. The
  information-state string is the player's sequence of views since the start (perfect
  recall by construction); the information-state tensor is the current view's encoding
  (not perfect recall for Memory Matrix, whose views forget which colour a flipped piece
  showed — use the string where that matters).
* **Patapata** is simultaneous; here the seats still working on a task take turns in seat
  order, each seeing only what its view shows (others' sheets as the task was uncovered).
* Returns are the environments' rewards (``2 * points - 1``; solo Patapata: the score).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pyspiel

from ..core import Game, Move, State
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import GAME_IDS, get
from .codec import Codec, codec_for
from .session import rewards_of

DEFAULT_SEEDS = 1000
MAX_GAME_LENGTH = {"reversi": 130, "flipflop": 1000, "reverstargo": 200,
                   "memory_matrix": 400, "algo": 2000, "patapata": 12 * 8}


def _spec(game: Game) -> JSONObject:
    spec: JSONObject = {}
    for opt in game.options:
        default = opt.default
        if default is None:
            default = -1 if opt.kind == "int" else ""
        elif opt.kind == "choice":
            default = str(default)
        spec[opt.name] = default
    if game.chance:
        spec["seeds"] = DEFAULT_SEEDS
    return spec


def _options(game: Game, params: JSONObject) -> JSONObject:
    out: JSONObject = {}
    for opt in game.options:
        if opt.name not in params:
            continue
        value = params[opt.name]
        if value in ("", -1) and opt.default is None:
            continue
        out[opt.name] = value
    return game.validate_options(out)


class _Observer:
    """PyObserver: the codec's encoding of ``view(player)``."""

    def __init__(self, codec: Codec[Move], perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.obs_size, np.float32)
        self.dict = {f.name: self.tensor[sl] for f, sl in
                     zip(codec.fields, codec.offsets().values())}

    def set_from(self, state: AsobibaSpielState, player: int) -> None:
        if state.inner is None:
            self.tensor[:] = 0
            return
        self.tensor[:] = self.codec.observe(state.inner.view(player))

    def string_from(self, state: AsobibaSpielState, player: int) -> str:
        if state.inner is None:
            return "(seed not drawn yet)"
        if self.perfect_recall:
            return "\n".join(_cached_text(s, texts, player)
                             for s, texts in zip(state.history, state.node.texts))
        return _cached_text(state.inner, state.node.texts[-1], player)


def _cached_text(state: State, texts: dict[int, str], player: int) -> str:
    """A view's text, computed once per state and seat (states are immutable)."""
    text = texts.get(player)
    if text is None:
        text = texts[player] = _view_text(state, player)
    return text


def _view_text(state: State, player: int) -> str:
    return json.dumps(state.view(player), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


class _Spec:
    """What a game instance fixes (asobiba game, options, codec, seed count). Shared by all
    states: pyspiel clones Python states with ``copy.deepcopy``, and this never changes."""

    def __init__(self, game: Game, options: JSONObject, codec: Codec[Move], seeds: int) -> None:
        self.game, self.options, self.codec, self.seeds = game, options, codec, seeds
        self.num_players = game.num_seats(options)

    def __deepcopy__(self, memo: dict[int, object]) -> _Spec:
        return self


class _Node:
    """The asobiba state and the states before it. Immutable, so clones share it."""

    __slots__ = ("inner", "history", "texts")

    def __init__(self, inner: State | None, history: tuple[State, ...],
                 texts: tuple[dict[int, str], ...] = ()) -> None:
        self.inner, self.history = inner, history
        self.texts = texts  # per state of the history: seat -> view text, filled lazily

    def __deepcopy__(self, memo: dict[int, object]) -> _Node:
        return self


class AsobibaSpielGame(pyspiel.Game):  # type: ignore[misc]
    game: Game
    game_type: pyspiel.GameType

    def __init__(self, params: JSONObject | None = None) -> None:
        game = self.game
        params = {**_spec(game), **(params or {})}
        options = _options(game, params)
        codec = codec_for(game, options)
        seeds = int(params.get("seeds", 1))
        n = game.num_seats(options)
        solo = n == 1
        zero_sum = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=seeds if game.chance else 0,
            num_players=n,
            min_utility=0.0 if solo else -1.0,
            max_utility=200.0 if solo else 1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=MAX_GAME_LENGTH.get(game.id, 1000) * max(1, n // 2),
        )
        # pybind11: the base must be initialised before Python attributes are set
        super().__init__(self.game_type, info, params)
        self.spec = _Spec(game, options, codec, seeds)

    def new_initial_state(self) -> AsobibaSpielState:
        return AsobibaSpielState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: JSONMapping | None = None) -> _Observer:
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        return _Observer(self.spec.codec, perfect_recall)


class AsobibaSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: AsobibaSpielGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        self.node = _Node(None, ())
        if not self.spec.game.chance:
            self._start(0)

    @property
    def inner(self) -> State | None:
        return self.node.inner

    @property
    def history(self) -> tuple[State, ...]:
        return self.node.history

    def _start(self, seed: int) -> None:
        inner = self.spec.game.new_game(self.spec.options, seed)
        self.node = _Node(inner, (inner,), ({},))

    def current_player(self) -> int:
        inner = self.node.inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if inner.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(inner.to_move)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.node.inner is not None
        return sorted(self.spec.codec.legal_actions(self.node.inner, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.spec.seeds
        return [(s, p) for s in range(self.spec.seeds)]

    def _apply_action(self, action: int) -> None:
        inner = self.node.inner
        if inner is None:
            self._start(int(action))
            return
        seat = inner.to_move
        assert seat is not None
        move = self.spec.codec.legal_actions(inner, seat)[int(action)]
        child = inner.child(move, seat)
        self.node = _Node(child, self.node.history + (child,), self.node.texts + ({},))

    def _action_to_string(self, player: int, action: int) -> str:
        inner = self.node.inner
        if player == pyspiel.PlayerId.CHANCE or inner is None:
            return f"seed {action}"
        move = self.spec.codec.legal_actions(inner, player).get(int(action))
        return f"action {action}" if move is None else inner.move_text(move, player)

    def is_terminal(self) -> bool:
        return self.node.inner is not None and self.node.inner.is_over

    def returns(self) -> list[float]:
        n = self.spec.num_players
        inner = self.node.inner
        if inner is None or not inner.is_over:
            return [0.0] * n
        return rewards_of(inner.outcome, n)  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.node.inner is None:
            return "(seed not drawn yet)"
        return json.dumps(self.node.inner.to_json(), sort_keys=True, ensure_ascii=False)


def _game_type(game: Game) -> pyspiel.GameType:
    solo_possible = game.min_seats == 1
    return pyspiel.GameType(
        short_name=f"asobiba_{game.id}",
        long_name=f"asobiba {game.title_en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if game.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if game.perfect_information
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if solo_possible
                 else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_seats,
        min_num_players=game.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_spec(game),
    )


_REGISTERED: dict[str, type[AsobibaSpielGame]] = {}


def register(game_ids: Sequence[str] | None = None) -> list[str]:
    """Register the shipped asobiba games (or ``game_ids``, e.g. a plugged-in game) with
    pyspiel; idempotent; returns the short names (``asobiba_<id>``)."""
    names = []
    for gid in (GAME_IDS if game_ids is None else game_ids):
        game = get(gid)
        name = f"asobiba_{gid}"
        if gid not in _REGISTERED:
            gtype = _game_type(game)
            cls = type(f"Asobiba_{gid}", (AsobibaSpielGame,), {"game": game, "game_type": gtype})
            pyspiel.register_game(gtype, cls)
            _REGISTERED[gid] = cls
        names.append(name)
    return names
