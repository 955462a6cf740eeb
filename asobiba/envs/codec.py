"""Integer actions and NumPy observations for one game — the part of every binding that
knows the game.

Each game brings its codec in its own package (``asobiba/games/<id>/encoding.py``, class
``Codec``), because the encoding follows the game's notation, move objects and view fields:
a change to the game updates its encoding in the same folder, and a new game plugs into
PettingZoo, Gymnasium and OpenSpiel by adding that one file. This module holds the shared
base; the environments in :mod:`asobiba.envs` name no game (but GYM_IDS, a table of ids).

Two paths, kept in agreement by tests (``tests/envs/test_codecs.py``):

* the **view path** — :meth:`Codec.observe`, :meth:`Codec.mask` and :meth:`Codec.action`
  read only what ``state.view(seat)`` holds, so an observation can never carry another
  seat's secrets. It is the reference: slow (a JSON-ready view, move texts) but plainly safe;
* the **state path** — :meth:`Codec.legal_actions` maps the state's own legal move objects
  to action numbers without formatting text, which is what makes an environment step cheap;
  :meth:`Codec.observe_state` and :meth:`Codec.mask_state` write the same observation and
  mask straight from the state (issue 30 item 2). A game's ``observe_state`` must read only
  what its ``view(seat)`` shows: ``tests/envs/test_codecs.py`` checks it equals the view
  path for every seat on random positions, and ``tests/envs/test_hidden.py`` runs its
  secret-changing tests through both paths.

Planes: :meth:`Codec.to_planes` turns flat observations into ``(C, H, W)`` planes for the
board games (fields with a ``plane`` shape are the board; every other value becomes one
constant plane), documented in docs/python-api.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

try:  # the rl extra; without it, say so
    import numpy as np
    from numpy.typing import ArrayLike, NDArray
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.envs") from _exc

from ..core import Game, Move, State
from ..core.jsontypes import JSONMapping
from ..games import manifest

if TYPE_CHECKING:
    from typing_extensions import TypeVar as _TypeVarWithDefault

    # the move type of a game's codec; the default is Any until every game's codec names
    # its own (memory_matrix, flipflop, algo still index their moves untyped)
    MoveT = _TypeVarWithDefault("MoveT", bound=Hashable, default=Any, covariant=True)
else:
    MoveT = TypeVar("MoveT", bound=Hashable, covariant=True)


@dataclass(frozen=True)
class Field:
    """One named slice of the flat observation vector (documented in docs/python-api.md)."""

    name: str
    size: int
    description: str
    low: float = 0.0
    high: float = 1.0
    planes: int = 0
    """How many (H, W) board planes this field is in the planes layout (its values in
    plane-major, row-major order); 0: each of its values is one constant plane."""


class Codec(Generic[MoveT]):
    """Base class: subclasses set :attr:`num_actions` and :attr:`fields` in ``__init__`` and
    fill :meth:`encode`, :meth:`action`, :meth:`move_of` and optionally
    :meth:`legal_actions`."""

    game: Game
    num_actions: int
    fields: tuple[Field, ...]
    #: the most plies a game of two seats can take (OpenSpiel's ``max_game_length``, scaled by
    #: the seat count); a game's codec sets its own bound
    max_game_length: int = 1000
    board_shape: tuple[int, int] | None = None
    """(H, W) of the planes layout, or None for a game without one (flat only)."""

    def __init__(self, game: Game, options: JSONMapping) -> None:
        self.game = game
        self.options = dict(options)
        self.num_seats = game.num_seats(self.options)

    # ---- a lean path for playouts (optional) ---------------------------------------------
    def listed_actions(self, state: State[MoveT]) -> list[int] | None:
        """The legal actions of the seat to move, ascending, when the codec can list them
        straight from the engine (OpenSpiel's playouts then build no action map: see
        asobiba.envs.openspiel); None (the default): use :meth:`legal_actions`."""
        return None

    def listed_move(self, state: State[MoveT], action: int) -> MoveT | None:
        """The move ``action`` stands for, for a codec with :meth:`listed_actions`; None
        when it is not legal here."""
        return None

    # ---- layout --------------------------------------------------------------------------
    @property
    def obs_size(self) -> int:
        fields = self.fields
        cached = self.__dict__.get("_obs_size")
        if cached is None or cached[0] is not fields:  # asked for at every observation
            cached = self.__dict__["_obs_size"] = (fields, sum(f.size for f in fields))
        return int(cached[1])

    def offsets(self) -> dict[str, slice]:
        out, at = {}, 0
        for f in self.fields:
            out[f.name] = slice(at, at + f.size)
            at += f.size
        return out

    def bounds(self) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        return low, high

    # ---- the view path (what an agent sees) ------------------------------------------------
    def observe(self, view: JSONMapping) -> NDArray[np.float32]:
        """The flat float32 observation of ``view`` (the viewing seat is ``view["seat"]``)."""
        out = np.zeros(self.obs_size, np.float32)
        parts = self.encode(view)
        for name, sl in self.offsets().items():
            value = parts.get(name)
            if value is not None:
                out[sl] = np.asarray(value, np.float32).reshape(-1)
        return out

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        """Field name -> values (any array-like of the field's size); missing fields are 0."""
        raise NotImplementedError

    def mask(self, view: JSONMapping) -> NDArray[np.int8]:
        """1 for each action that is one of the view's legal moves."""
        out = np.zeros(self.num_actions, np.int8)
        for text in view.get("legal_moves") or ():
            for a in self.actions_of(text, view):
                out[a] = 1
        return out

    def actions_of(self, text: str, view: JSONMapping) -> list[int]:
        """Every action that stands for this move text (usually one)."""
        a = self.action(text, view)
        return [] if a is None else [a]

    def action(self, text: str, view: JSONMapping) -> int | None:
        """The action number of a legal move's text, or None if the codec leaves it out."""
        raise NotImplementedError

    # ---- the state path ---------------------------------------------------------------------
    def observe_state(self, state: State[MoveT], seat: int) -> NDArray[np.float32]:
        """The same values as ``observe(state.view(seat))``, written straight from the state.

        The default goes through the view; games override it with an encoder that reads
        only what their view shows (tests compare the two on random positions, every seat)."""
        return self.observe(state.view(seat))

    def mask_state(self, state: State[MoveT], seat: int) -> NDArray[np.int8]:
        """The same values as ``mask(state.view(seat))``: the seat's own legal moves (which
        its view lists) as actions, from :meth:`legal_actions`, without move texts."""
        out = np.zeros(self.num_actions, np.int8)
        if seat in state.acting_seats:
            actions = list(self.legal_actions(state, seat))
            if actions:
                out[actions] = 1
        return out

    # ---- planes --------------------------------------------------------------------------
    @property
    def planes_shape(self) -> tuple[int, int, int] | None:
        """(C, H, W) of :meth:`to_planes`, or None when the game has no planes layout."""
        if self.board_shape is None:
            return None
        h, w = self.board_shape
        return (sum(f.planes or f.size for f in self.fields), h, w)

    def to_planes(self, obs: ArrayLike) -> NDArray[np.float32]:
        """Flat observation(s) ``(..., obs_size)`` as planes ``(..., C, H, W)``: a board
        field's values become its planes, every other value a constant plane, in field
        order (the layout in docs/python-api.md)."""
        if self.board_shape is None:
            raise ValueError(f"{self.game.id} has no planes layout; use the flat observation")
        h, w = self.board_shape
        flat = np.asarray(obs, np.float32)
        lead = flat.shape[:-1]
        parts = []
        for f, sl in zip(self.fields, self.offsets().values()):
            values = flat[..., sl]
            if f.planes:
                parts.append(values.reshape(*lead, f.planes, h, w))
            else:
                parts.append(np.broadcast_to(values[..., None, None], (*lead, f.size, h, w)))
        return np.ascontiguousarray(np.concatenate(parts, axis=-3))

    # ---- the state path (what the environment applies) -------------------------------------
    def legal_actions(self, state: State[MoveT], seat: int) -> dict[int, MoveT]:
        """Action number -> move object, for the seat's legal moves the codec covers.

        The default goes through the view path; games override it with a direct mapping of
        their move objects (tests check the two agree)."""
        view = state.view(seat)
        legal = state.legal_moves(seat)
        texts = legal.texts()
        out: dict[int, MoveT] = {}
        for move, text in zip(legal, texts):
            for a in self.actions_of(text, view):
                out.setdefault(a, move)
        return out

    @staticmethod
    def moves(state: State[MoveT], seat: int) -> Sequence[MoveT]:
        """The legal move objects of ``seat``, which must be acting (the environment knows
        it is). The codec is the game's own code, so it may call the game's own hook and
        skip the public wrapper's checks; typed loosely, each game has its own moves."""
        return state._legal(seat)

    def move_of(self, state: State[MoveT], seat: int, action: int) -> MoveT | None:
        """The legal move that ``action`` stands for, or None: what an environment step
        needs. The default looks it up in :meth:`legal_actions`; a game whose action
        decodes straight into a move object may override it (decode, then check the move
        is among the seat's legal moves), which saves building the whole map."""
        return self.legal_actions(state, seat).get(action)

    def move_text(self, state: State[MoveT], seat: int, action: int) -> str:
        """The move text of a legal ``action`` (for logs and the Gym ``info``)."""
        move = self.legal_actions(state, seat).get(action)
        if move is None:
            raise ValueError(f"action {action} is not legal for seat {seat} here")
        return state.move_text(move, seat)


def codec_for(game: Game, options: JSONMapping | None = None) -> Codec[Move]:
    """The codec of ``game`` for (validated) ``options``, from the game's own package."""
    opts = game.validate_options(options or {})
    found = manifest(game.id).load("encoding")
    if found is None:
        raise NotImplementedError(f"{game.id} has no action/observation encoding (its "
                                  "manifest names no encoding)")
    if not (isinstance(found, type) and issubclass(found, Codec)):
        raise TypeError(f"{game.id}: the manifest's encoding must name a Codec subclass")
    codec: Codec[Move] = found(game, opts)
    return codec


def bit_values(value: int, n: int) -> NDArray[np.uint8]:
    """Bits 0 … n-1 of ``value`` as 0/1 (bit 0 first): a bitboard as a board field."""
    raw = np.frombuffer((value & ((1 << n) - 1)).to_bytes((n + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little")


def one_hot(index: int | None, size: int) -> NDArray[np.float32]:
    out = np.zeros(size, np.float32)
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def planes(rows: Sequence[str], symbols: Sequence[str]) -> NDArray[np.float32]:
    """One 0/1 plane per symbol over a board given as text rows."""
    grid = np.array([list(r) for r in rows])
    return np.stack([(grid == s) for s in symbols]).astype(np.float32)


def markdown(game: Game, options: JSONMapping | None = None) -> str:
    """The encoding of ``game`` as a Markdown table (docs/python-api.md is checked
    against this, so the documentation cannot drift from the code)."""
    codec = codec_for(game, options)
    opts = ", ".join(f"{k}={v}" for k, v in (options or {}).items()) or "default options"
    shape = codec.planes_shape
    planes = (f" Planes: {shape[0]}×{shape[1]}×{shape[2]} (C, H, W); the channels column "
              "gives each field's planes." if shape else " No planes layout (flat only).")
    lines = [f"{codec.num_actions} actions, {codec.obs_size} observation values "
             f"({opts}).{planes}", ""]
    if shape:
        lines += ["| field | size | range | channels | meaning |", "|---|---|---|---|---|"]
    else:
        lines += ["| field | size | range | meaning |", "|---|---|---|---|"]
    at = channel = 0
    for f in codec.fields:
        cell = f"| `{f.name}` | {f.size} (at {at}) | {f.low:g}–{f.high:g} |"
        if shape:
            count = f.planes or f.size
            span = str(channel) if count == 1 else f"{channel}–{channel + count - 1}"
            cell += f" {span}{'' if f.planes else ' (constant)'} |"
            channel += count
        lines.append(f"{cell} {f.description} |")
        at += f.size
    return "\n".join(lines)


if __name__ == "__main__":  # python -m asobiba.envs.codec: every game's table
    from ..games import all_games

    for g in all_games():
        print(f"<!-- fields:{g.id} -->\n{markdown(g)}\n<!-- /fields -->\n")
