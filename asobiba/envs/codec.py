"""Integer actions and NumPy observations for one game — the part of every binding that
knows the game.

Each game brings its codec in its own package (``asobiba/games/<id>/encoding.py``, class
``Codec``), because the encoding follows the game's notation, move objects and view fields:
a change to the game updates its encoding in the same folder, and a new game plugs into
PettingZoo, Gymnasium and OpenSpiel by adding that one file. This module holds the shared
base; the environments in :mod:`asobiba.envs` name no game (but GYM_IDS, a table of ids).

Two paths, kept in agreement by tests (``tests/envs/test_codecs.py``):

* the **view path** — :meth:`Codec.observe` and :meth:`Codec.action` read only what
  ``state.view(seat)`` holds, so an observation can never carry another seat's secrets;
* the **state path** — :meth:`Codec.legal_actions` maps the state's own legal move objects
  to action numbers without formatting text, which is what makes an environment step cheap.
  It is used only by the environment itself to apply an action, never to build what an
  agent sees.
"""

from __future__ import annotations

import importlib
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
        return sum(f.size for f in self.fields)

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
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.encoding")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.encoding":
            raise NotImplementedError(
                f"{game.id} has no action/observation encoding ({package}.encoding)") from exc
        raise
    codec: Codec[Move] = module.Codec(game, opts)
    return codec


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
    lines = [f"{codec.num_actions} actions, {codec.obs_size} observation values "
             f"({opts}).", "",
             "| field | size | range | meaning |", "|---|---|---|---|"]
    at = 0
    for f in codec.fields:
        lines.append(f"| `{f.name}` | {f.size} (at {at}) | {f.low:g}–{f.high:g} | "
                     f"{f.description} |")
        at += f.size
    return "\n".join(lines)


if __name__ == "__main__":  # python -m asobiba.envs.codec: every game's table
    from ..games import all_games

    for g in all_games():
        print(f"<!-- fields:{g.id} -->\n{markdown(g)}\n<!-- /fields -->\n")
