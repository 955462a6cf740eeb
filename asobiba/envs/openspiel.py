"""Every asobiba game as an OpenSpiel Python game. Importing this module registers the
shipped games with pyspiel (``pyspiel.load_game("asobiba_reversi")``,
``"asobiba_algo(players=3,seeds=100)"``); :func:`register` adds a plugged-in game.

* **Parameters** are the game's options, typed so that OpenSpiel's own string form
  round-trips (``load_game(str(game)) == game``): integers and integer choices are ints,
  text choices strings, yes/no options bools. An option whose default is decided by the
  game (Algo ``hand``/``sets``, Memory Matrix ``start_pieces``/``white_any_time``) is an
  int where ``-1`` means "the game's default" (and ``0``/``1`` are no/yes for a yes/no
  option). A choice mixing text and numbers (Patapata ``course``: dice, 1, 2, 3) is an int:
  the numbers as themselves, the text choices ``0``, ``-2``, ``-3``… in order
  (``course=0`` is dice). Games with chance add ``seeds``.
* **Chance.** asobiba draws all chance from the seed when a game starts (the deal, the
  layout, Patapata's dice). The OpenSpiel game opens with one explicit chance node choosing
  the seed uniformly among ``seeds`` values; the rest of the game is then deterministic, and
  what a player does not see of the seed's consequences stays out of its information state.
* **Information states.** Built from ``view(player)`` only. The observation string is the
  current view as JSON; the information-state string is short and perfect-recall: in a
  perfect-information game the action history; otherwise the number of views the seat has
  had and a 128-bit BLAKE2b chain over them (each link hashes the previous link and the
  next view in a canonical form: the view as canonical JSON, or, where the game's state
  offers ``view_step_key`` — Algo — its short canonical form of the view given the one
  before, which tells the same view apart from every other without rendering the whole log
  at each step), so two histories the seat cannot tell apart give the same string, and two
  it can tell apart differ (barring a hash collision). The tensors are the current view's
  encoding (not perfect recall for Memory Matrix, whose views forget which colour a flipped
  piece showed — use the string where that matters).
* **Pickling and serialization**: games and states pickle, and
  ``pyspiel.serialize_game_and_state`` round-trips; a state's Python side is its game
  options, seed and actions, replayed on load.
* **Undo**: not available, for every game alike — not a limit of the games (their states
  are immutable, so restoring the node before is trivial) but of pyspiel: ``undo_action``
  is bound to C++ ``State::UndoAction`` (pyspiel.cc), whose default aborts, and the bridge
  for Python games (python_games.cc) forwards no ``UndoAction`` to Python, so C++ callers
  never reach a Python override; a Python override would only serve Python callers and
  could not pop the action history, which lives on the C++ side with no setter (calling
  ``State.__init__`` again leaves ``history()`` as it was). A state whose ``history()``
  disagrees with its position would break every OpenSpiel algorithm that reads it, so
  ``undo_action`` raises instead; use ``state.clone()`` or ``state.child(action)``, which
  share the immutable asobiba states and cost one node each.
* **Patapata** is simultaneous; here the seats still working on a task take turns in seat
  order, each seeing only what its view shows (others' sheets as the task was uncovered).
* Returns are the environments' rewards (``2 * points - 1``; solo Patapata: the score).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

try:  # the rl extra; without it, say so
    import numpy as np
    import pyspiel
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import Game, Move, Option, State
from ..core.errors import option_why
from ..core.jsontypes import JSONMapping, JSONObject, OptionValue
from ..games import get
from . import encoded_games
from .codec import Codec, codec_for
from .session import rewards_of

DEFAULT_SEEDS = 1000
DIGEST_BYTES = 16

ParamValue = int | str | bool
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


# ---- parameters ---------------------------------------------------------------------------
def _parsed_type(value: OptionValue) -> type:
    """The type OpenSpiel's string parser (GameParameterFromString) gives ``str(value)``."""
    if isinstance(value, bool):
        return bool
    if isinstance(value, int):
        return int
    text = str(value)
    if text in ("true", "True", "false", "False"):
        return bool
    if text and all(c in "+-0123456789" for c in text):
        return int
    if text and all(c in "+-0123456789." for c in text):
        return float
    return str


@dataclass(frozen=True)
class _Param:
    """How one game option is an OpenSpiel parameter: its default and the maps both ways."""

    name: str
    default: ParamValue
    to_option: dict[ParamValue, OptionValue]  # empty: the value is the option as it is
    nullable: bool

    def option(self, value: ParamValue) -> tuple[bool, OptionValue]:
        """(given?, option value): a default sentinel means "leave it to the game"."""
        if self.nullable and value in (-1, ""):
            return False, None
        if self.to_option:
            if value not in self.to_option:
                allowed = ", ".join(f"{k} ({v})" if k != v else str(k)
                                    for k, v in self.to_option.items())
                from ..core import OptionError

                raise OptionError(f"option '{self.name}': {value!r} is not allowed; "
                                  f"allowed values: {allowed}", option=self.name,
                                  why=option_why("option.bad_value", option=self.name,
                                                 value=str(value), allowed=allowed))
            return True, self.to_option[value]
        return True, value

    def value(self, option: OptionValue) -> ParamValue:
        """The parameter value of a (validated) option value."""
        if option is None:
            return self.default
        for k, v in self.to_option.items():
            if v == option:
                return k
        assert isinstance(option, int | str | bool)
        return option


def _param(opt: Option) -> _Param:
    if opt.kind == "bool":
        if opt.nullable and opt.default is None:
            return _Param(opt.name, -1, {0: False, 1: True}, True)
        return _Param(opt.name, bool(opt.default), {}, False)
    if opt.kind == "int":
        default = -1 if opt.default is None else opt.default
        assert isinstance(default, int)
        return _Param(opt.name, default, {}, opt.default is None)
    if opt.kind == "choice":
        kinds = {_parsed_type(c) for c in opt.choices}
        if kinds == {str}:
            mapping: dict[ParamValue, OptionValue] = {str(c): c for c in opt.choices}
            sentinel: ParamValue = ""
        elif kinds == {int}:
            mapping = {int(str(c)): c for c in opt.choices}
            sentinel = -1
        else:  # text and numbers mixed: numbers as themselves, text 0, -2, -3, ...
            mapping, free = {}, 0
            for c in opt.choices:
                if _parsed_type(c) is int:
                    mapping[int(str(c))] = c
            for c in opt.choices:
                if _parsed_type(c) is not int:
                    while free in mapping or free == -1:
                        free -= 1
                    mapping[free] = c
            sentinel = -1
        if opt.default is None:
            return _Param(opt.name, sentinel, mapping, True)
        default = next(k for k, v in mapping.items() if v == opt.default)
        return _Param(opt.name, default, mapping, False)
    # free text
    return _Param(opt.name, "" if opt.default is None else str(opt.default), {},
                  opt.default is None)


def _params(game: Game) -> dict[str, _Param]:
    return {opt.name: _param(opt) for opt in game.options}


def _spec(game: Game) -> JSONObject:
    spec: JSONObject = {name: p.default for name, p in _params(game).items()}
    if game.chance:
        spec["seeds"] = DEFAULT_SEEDS
    return spec


def _options(game: Game, params: JSONMapping) -> JSONObject:
    out: JSONObject = {}
    for name, p in _params(game).items():
        if name in params:
            value = params[name]
            assert isinstance(value, int | str | bool)
            given, option = p.option(value)
            if given:
                out[name] = option
    return game.validate_options(out)


# ---- what a game instance fixes -----------------------------------------------------------
class _Spec:
    """What a game instance fixes (asobiba game, options, codec, seed count). Shared by all
    states: pyspiel clones Python states with ``copy.deepcopy``, and this never changes;
    pickled as (game id, options, seeds)."""

    def __init__(self, game: Game, options: JSONObject, seeds: int) -> None:
        self.game, self.options, self.seeds = game, options, seeds
        self.codec: Codec[Move] = codec_for(game, options)
        self.num_players = game.num_seats(options)
        self._root: _Node | None = None
        self.chance_outcomes = [(s, 1.0 / seeds) for s in range(seeds)]

    def root(self) -> _Node:
        """The start, shared by every state of this game (nodes are immutable): pyspiel
        builds a new initial state for every clone and every deserialized state."""
        if self._root is None:
            self._root = _Node.root(self)
        return self._root

    def __deepcopy__(self, memo: dict[int, object]) -> _Spec:
        return self

    def __reduce__(self) -> tuple[object, tuple[str, JSONObject, int]]:
        return _spec_of, (self.game.id, self.options, self.seeds)


def _spec_of(game_id: str, options: JSONObject, seeds: int) -> _Spec:
    return _Spec(get(game_id), options, seeds)


class _Node:
    """One position: the asobiba state (``None`` before the seed is drawn), the node before
    it and the action that led here. Immutable apart from caches, so clones share nodes.
    Pickled as (spec, actions from the start), replayed on load."""

    __slots__ = ("spec", "parent", "action", "inner", "depth", "player", "_legal",
                 "_sorted", "_texts", "_keys", "_children")

    def __init__(self, spec: _Spec, parent: _Node | None, action: int | None,
                 inner: State | None) -> None:
        self.spec, self.parent, self.action, self.inner = spec, parent, action, inner
        # views each seat has had here (nodes since the seed was drawn)
        self.depth: int = 0 if inner is None else (1 if parent is None else parent.depth + 1)
        # OpenSpiel's player id here: chance before the seed, terminal once over
        if inner is None:
            self.player = int(pyspiel.PlayerId.CHANCE)
        else:
            seat = inner.to_move
            self.player = int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)
        self._legal: dict[int, Move] | None = None
        self._sorted: list[int] | None = None
        self._texts: dict[int, str] = {}  # seat -> view as canonical JSON
        self._keys: dict[int, bytes] = {}  # seat -> digest of the seat's views so far
        # the root keeps its seed children (at most ``seeds``): every episode of a sampling
        # algorithm starts there, and a deal costs more than the rest of a step
        self._children: dict[int, _Node] | None = None

    @staticmethod
    def root(spec: _Spec) -> _Node:
        if spec.game.chance:
            return _Node(spec, None, None, None)
        inner = spec.game.new_game(spec.options, 0)
        if spec.codec.listed_actions(inner) is not None:
            return _ListedNode(spec, None, None, inner)
        return _Node(spec, None, None, inner)

    def legal(self) -> dict[int, Move]:
        if self._legal is None:
            inner = self.inner
            assert inner is not None and inner.to_move is not None
            self._legal = self.spec.codec.legal_actions(inner, inner.to_move)
        return self._legal

    def sorted_actions(self) -> list[int]:
        if self._sorted is None:
            self._sorted = sorted(self.legal())
        return self._sorted

    def child(self, action: int) -> _Node:
        inner = self.inner
        if inner is None:
            if not 0 <= action < self.spec.seeds:
                raise pyspiel.SpielError(f"seed {action} is not among the {self.spec.seeds} "
                                         "chance outcomes")
            if self._children is None:
                self._children = {}
            node = self._children.get(action)
            if node is None:
                node = self._children[action] = _Node(
                    self.spec, self, action, self.spec.game.new_game(self.spec.options, action))
            return node
        move = self.legal().get(action)
        if move is None:
            raise pyspiel.SpielError(f"action {action} is not legal here; legal actions: "
                                     f"{self.sorted_actions()}")
        return _Node(self.spec, self, action, inner.child(move, inner.to_move))

    def actions(self) -> list[int]:
        out, node = [], self
        while node.parent is not None:
            assert node.action is not None
            out.append(node.action)
            node = node.parent
        return out[::-1]

    def view_text(self, seat: int) -> str:
        """The seat's view as canonical JSON, computed once per node and seat."""
        text = self._texts.get(seat)
        if text is None:
            assert self.inner is not None
            text = self._texts[seat] = json.dumps(
                self.inner.view(seat), sort_keys=True, ensure_ascii=False,
                separators=(",", ":"))
        return text

    def step_key(self, seat: int) -> bytes:
        """What the seat's view here adds to its views so far, as bytes: the view as
        canonical JSON, or, for a game whose state offers ``view_step_key`` (Algo), that
        game's short canonical form of the view given the one before (the same information,
        without rendering the whole log at every step)."""
        inner = self.inner
        fast = getattr(inner, "view_step_key", None)
        if fast is None:
            return self.view_text(seat).encode()
        parent = self.parent
        before = None if parent is None else parent.inner
        key: bytes = fast(seat, before)
        return b"\x00" + key

    def digest(self, seat: int) -> bytes:
        """BLAKE2b chain over the seat's views from the first one to this node's (b"" before
        the seed). Walks back to the nearest node that has it, without recursion."""
        pending, node = [], self
        while node.inner is not None and seat not in node._keys:
            pending.append(node)
            if node.parent is None:
                break
            node = node.parent
        key = node._keys.get(seat, b"") if node.inner is not None else b""
        for n in reversed(pending):
            key = n._keys[seat] = hashlib.blake2b(
                key + n.step_key(seat), digest_size=DIGEST_BYTES).digest()
        return key

    def views(self) -> int:
        """How many views each seat has had (nodes since the seed was drawn)."""
        return self.depth

    def __deepcopy__(self, memo: dict[int, object]) -> _Node:
        return self

    def __reduce__(self) -> tuple[object, tuple[_Spec, list[int]]]:
        return _replay, (self.spec, self.actions())


class _ListedNode(_Node):
    """The lean path for a codec that lists its actions straight from the engine
    (``Codec.listed_actions``: Reversi's are its squares, 64 the forced pass): MCTS playouts
    call legal actions and apply an action at every ply, and this builds no action map."""

    __slots__ = ()

    def legal(self) -> dict[int, Move]:
        if self._legal is None:
            codec, inner = self.spec.codec, self.inner
            assert inner is not None
            self._legal = {a: codec.listed_move(inner, a) for a in self.sorted_actions()}
        return self._legal

    def sorted_actions(self) -> list[int]:
        actions = self._sorted
        if actions is None:
            assert self.inner is not None
            listed = self.spec.codec.listed_actions(self.inner)
            assert listed is not None
            actions = self._sorted = listed
        return actions

    def child(self, action: int) -> _Node:
        inner = self.inner
        assert inner is not None
        move = self.spec.codec.listed_move(inner, action)
        if move is None:
            raise pyspiel.SpielError(f"action {action} is not legal here; legal actions: "
                                     f"{self.sorted_actions()}")
        return _ListedNode(self.spec, self, action, inner.child(move))


def _replay(spec: _Spec, actions: list[int]) -> _Node:
    node = spec.root()
    for a in actions:
        node = node.child(a)
    return node


# ---- observers ------------------------------------------------------------------------------
class _Observer:
    """PyObserver: the codec's encoding of ``view(player)``; strings as described above."""

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        codec = spec.codec
        self.tensor = np.zeros(codec.obs_size, np.float32)
        self.dict = {f.name: self.tensor[sl] for f, sl in
                     zip(codec.fields, codec.offsets().values())}

    def set_from(self, state: AsobibaSpielState, player: int) -> None:
        inner = state.node.inner
        if inner is None:
            self.tensor[:] = 0
            return
        self.tensor[:] = self.spec.codec.observe_state(inner, player)

    def string_from(self, state: AsobibaSpielState, player: int) -> str:
        node = state.node
        if node.inner is None:
            return "(seed not drawn yet)"
        if not self.perfect_recall:
            return node.view_text(player)
        if self.spec.game.perfect_information:
            return "actions: " + " ".join(map(str, node.actions()))
        return (f"seat {player}, {node.views()} views, "
                f"chain {node.digest(player).hex()}")


# ---- game and state --------------------------------------------------------------------------
class AsobibaSpielGame(pyspiel.Game):  # type: ignore[misc]
    game: Game
    game_type: pyspiel.GameType

    def __init__(self, params: JSONObject | None = None) -> None:
        game = self.game
        params = {**_spec(game), **(params or {})}
        options = _options(game, params)
        seeds = params.get("seeds", 1)
        assert isinstance(seeds, int)
        if game.chance and seeds < 1:
            from ..core import OptionError

            raise OptionError(f"seeds must be at least 1, not {seeds}", option="seeds",
                              why=option_why("option.at_least", option="seeds", min=1, value=seeds))
        spec = _Spec(game, options, seeds)
        n = spec.num_players
        solo = n == 1
        zero_sum = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.num_actions,
            max_chance_outcomes=seeds if game.chance else 0,
            num_players=n,
            min_utility=0.0 if solo else -1.0,
            max_utility=200.0 if solo else 1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=spec.codec.max_game_length * max(1, n // 2),
        )
        # pybind11: the base must be initialised before Python attributes are set
        super().__init__(self.game_type, info, params)
        self._spec = spec

    @property
    def spec(self) -> _Spec:
        """What this instance fixes. An unpickled game is rebuilt by pyspiel on the C++ side
        without this Python attribute: then it is made again from the parameters."""
        spec: _Spec | None = self.__dict__.get("_spec")
        if spec is None:
            params = self.get_parameters()
            seeds = params.get("seeds", 1)
            assert isinstance(seeds, int)
            spec = self._spec = _Spec(self.game, _options(self.game, params), seeds)
        return spec

    def new_initial_state(self) -> AsobibaSpielState:
        return AsobibaSpielState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: JSONMapping | None = None) -> _Observer | None:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        if iig_obs_type is None:
            return _Observer(self.spec, False)
        if (iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            return _Observer(self.spec, bool(iig_obs_type.perfect_recall))
        return None  # public-only or private-only factored observations: not provided


class AsobibaSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: AsobibaSpielGame) -> None:
        super().__init__(game)
        self.node = game.spec.root()

    @property
    def inner(self) -> State | None:
        """The asobiba state (``None`` before the seed is drawn). Secrets included: for
        the environment and debugging, never for a player."""
        return self.node.inner

    def current_player(self) -> int:
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.node.sorted_actions())

    # Python-side reads: a call from Python finds these before pyspiel's C++ methods, which
    # would call back into Python two or three times (current player, terminal, legal
    # actions) and convert the list both ways. Same answers as the C++ State methods
    # (tests/envs/test_openspiel_fast.py compares them); C++ callers still use the hooks above.
    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self.node
        inner = node.inner
        if inner is None:  # the chance node: the seeds, whichever player is asked about
            return list(range(node.spec.seeds))
        seat = inner.to_move
        if seat is None:
            return []
        if player is not None and player != seat:
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        return list(node.sorted_actions())

    def is_chance_node(self) -> bool:
        return self.node.inner is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.node.spec.chance_outcomes)

    def _apply_action(self, action: int) -> None:
        self.node = self.node.child(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self.node
        if player == pyspiel.PlayerId.CHANCE or node.inner is None:
            return f"seed {action}"
        move = node.legal().get(int(action)) if player == node.inner.to_move else None
        return f"action {action}" if move is None else node.inner.move_text(move, player)

    def is_terminal(self) -> bool:
        return self.node.player == _TERMINAL

    def returns(self) -> list[float]:
        spec = self.node.spec
        inner = self.node.inner
        if inner is None or inner.outcome is None:
            return [0.0] * spec.num_players
        return rewards_of(inner.outcome, spec.num_players)

    def undo_action(self, player: int, action: int) -> None:
        raise NotImplementedError(
            "undo_action is not available for OpenSpiel Python games: pyspiel keeps the "
            "action history on the C++ side and gives Python no way to shorten it; use "
            "state.clone() before applying, or state.child(action)")

    def __str__(self) -> str:
        inner = self.node.inner
        if inner is None:
            return "(seed not drawn yet)"
        return json.dumps(inner.to_json(), sort_keys=True, ensure_ascii=False)


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
    """Register every registered asobiba game with an encoding (or ``game_ids``) with
    pyspiel; idempotent;
    returns the short names (``asobiba_<id>``). Importing this module registers the games
    registered by then; call it again after plugging in a game."""
    names = []
    for gid in (encoded_games() if game_ids is None else game_ids):
        game = get(gid)
        name = f"asobiba_{gid}"
        if gid not in _REGISTERED:
            gtype = _game_type(game)
            cls_name = f"Asobiba_{gid}"
            cls = type(cls_name, (AsobibaSpielGame,), {
                "game": game, "game_type": gtype, "__module__": __name__,
                "__qualname__": cls_name})
            # pickle finds a game's class by module and name
            globals()[cls_name] = cls
            pyspiel.register_game(gtype, cls)
            _REGISTERED[gid] = cls
        names.append(name)
    return names


register()
