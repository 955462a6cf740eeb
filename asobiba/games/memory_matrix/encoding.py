"""Memory Matrix for the learning environments (asobiba.envs).

Action ``2 * (width * row + column) + side`` places a piece on that cell (row 0 = rank 1,
column 0 = file a) colour side up (``side`` 0) or white side up (``side`` 1); the last action
(``2 * width * height``) is the pass. The board size follows the ``shape``/``mask`` options.

Only the view is encoded: a white-side-up piece is a plain ``W`` — whose colour it hides is
exactly what the game keeps secret — except in the seat's own ``memory_aid`` when that
learning aid is switched on.

``observe_state`` reads the position's bitboards the same way: the colour of a piece counts
only where it lies colour side up (``ident & up``), and ``remembered`` only the seat's own
white-side-up pieces, only with ``memory_aid`` on — exactly what ``view(seat)`` shows.
Planes: ``(C, height, width)``: holes, empty, neutral, white, a plane per colour face up and
per colour remembered, then one constant plane per other value.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, bit_values, one_hot
from .game import config_for
from .palette import LETTERS
from .rules import PASS
from .state import MemoryMatrixState
from .views import memory_matrix_view

_SYMBOLS = ("-", ".", "*", "W")


class Codec(_Base[int]):
    max_game_length = 400  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        cfg = config_for(self.options)
        geo = cfg.geometry
        self.width, self.height, self.stride = geo.width, geo.height, geo.stride
        self.cells = geo.width * geo.height
        self.colours = cfg.colours
        self.count = geo.count
        self.pass_action = 2 * self.cells
        self.num_actions = self.pass_action + 1
        # move int -> action, for the environment's step
        self._action_of: dict[int, int] = {PASS: self.pass_action}
        for cell in geo.cells:
            r, col = divmod(cell, geo.stride)
            for side in (0, 1):
                self._action_of[cell << 1 | side] = 2 * (geo.width * r + col) + side
        self._move_of = {a: m for m, a in self._action_of.items()}
        c, k = self.colours, self.cells
        self.fields = (
            Field("holes", k, "1 where the shape has no cell (row-major, row 0 = rank 1)", planes=1),
            Field("empty", k, "1 on empty cells", planes=1),
            Field("neutral", k, "1 on neutral pieces", planes=1),
            Field("white", k, "1 on pieces lying white side up (their colour unseen)", planes=1),
            Field("colour_up", c * k, "per colour (palette order B R Y G …): its face-up pieces",
                  planes=c),
            Field("remembered", c * k,
                  "per colour: own white-side-up pieces named by the memory_aid option (else 0)",
                  planes=c),
            Field("my_colours", c, "1 for each colour the viewing seat plays"),
            Field("to_move_colour", c, "one-hot: the colour to move"),
            Field("in_hand", c, "pieces in hand per colour / cells"),
            Field("showing", c, "pieces showing per colour / cells"),
            Field("white_any_time", 1, "1 if white-side moves are always allowed"),
        )
        self.board_shape = (self.height, self.width)
        self.cfg = cfg
        self.valid = geo.valid
        # bit r*stride+c of a bitboard is index r*width+c of a field: one padding column
        assert geo.stride == geo.width + 1
        self._aid = bool(self.options.get("memory_aid"))
        self._templates: dict[int, NDArray[np.float32]] = {}

    def observe_state(self, state: State[int], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, MemoryMatrixState):
            return super().observe_state(state, seat)
        cfg, pos = self.cfg, state.pos
        c, k = self.colours, self.cells
        nbits = self.height * (self.width + 1)
        valid, occ, up = self.valid, pos.occ, pos.up
        white = occ & ~up
        shown = occ & up
        boards = [valid & ~occ, 0, white]  # empty, neutral (never shown apart), white
        # a face-up piece reads as the first colour whose identity holds it (board_rows)
        taken = 0
        for ident in pos.ident[:c]:
            boards.append(shown & ident & ~taken)
            taken |= ident
        if self._aid:
            mine = 0
            for col in cfg.colours_of(seat):
                mine |= pos.ident[col]
            mine &= white
            taken = 0
            for ident in pos.ident[:c]:
                boards.append(mine & ident & ~taken)
                taken |= ident
        packed = 0
        for i, b in enumerate(boards):
            packed |= (b & ((1 << nbits) - 1)) << (i * nbits)
        nb, h, w = len(boards), self.height, self.width
        bits = bit_values(packed, nb * nbits).reshape(nb, h, w + 1)
        out = self._template(seat).copy()  # holes, my_colours, white_any_time
        out[k:(nb + 1) * k].reshape(nb, h, w)[...] = bits[:, :, :w]  # no padding column
        at = (4 + 2 * c) * k
        count = self.count
        out[at + 2 * c:at + 4 * c] = [x / count for x in pos.hand[:c]] + [
            (ident & up).bit_count() / count for ident in pos.ident[:c]]
        if pos.turn >= 0:
            out[at + c + pos.turn] = 1
        return out

    def _template(self, seat: int) -> NDArray[np.float32]:
        """What is the same in every observation of ``seat``: the holes, its colours, the
        white_any_time rule."""
        cached = self._templates.get(seat)
        if cached is None:
            c, k = self.colours, self.cells
            cached = np.zeros(self.obs_size, np.float32)
            valid = self.valid
            cached[:k] = [0.0 if valid >> (r * (self.width + 1) + col) & 1 else 1.0
                          for r in range(self.height) for col in range(self.width)]
            at = (4 + 2 * c) * k
            cached[at:at + c] = [self.cfg.seat_of(i) == seat for i in range(c)]
            cached[at + 4 * c] = bool(self.cfg.white_any_time)
            self._templates[seat] = cached
        return cached

    def mask_state(self, state: State[int], seat: int) -> NDArray[np.int8]:
        out = np.zeros(self.num_actions, np.int8)
        if seat in state.acting_seats:
            table = self._action_of
            out[[table[m] for m in self.moves(state, seat)]] = 1
        return out

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        view = memory_matrix_view(view)
        grid = np.array([list(r) for r in view["board"]])
        c = self.colours
        colours = view["colours"]
        remembered = np.zeros((c, self.height, self.width), np.float32)
        for name, letter in (view.get("memory_aid") or {}).items():
            r, col = int(name[1:]) - 1, ord(name[0]) - 97
            remembered[LETTERS.index(letter), r, col] = 1
        to_move = view["to_move_colour"]
        return {
            "holes": grid == "-", "empty": grid == ".", "neutral": grid == "*",
            "white": grid == "W",
            "colour_up": np.stack([grid == LETTERS[i] for i in range(c)]),
            "remembered": remembered,
            "my_colours": [colours[i]["seat"] == view["seat"] for i in range(c)],
            "to_move_colour": one_hot(None if to_move is None else LETTERS.index(to_move), c),
            "in_hand": [colours[i]["in_hand"] / self.count for i in range(c)],
            "showing": [colours[i]["showing"] / self.count for i in range(c)],
            "white_any_time": [bool(view["white_any_time"])],
        }

    def action(self, text: str, view: JSONMapping) -> int | None:
        if text == "pass":
            return self.pass_action
        white = text.endswith("w")
        name = text[:-1] if white else text
        r, col = int(name[1:]) - 1, ord(name[0]) - 97
        return 2 * (self.width * r + col) + white

    def legal_actions(self, state: State[int], seat: int) -> dict[int, int]:
        table = self._action_of
        return {table[m]: m for m in self.moves(state, seat)}

    def move_of(self, state: State[int], seat: int, action: int) -> int | None:
        """Decode, then check that one move by its own rays (``rules.legal_flips``) instead
        of listing every legal move, keeping its flips for the step's ``child``: the
        environment step's fast path."""
        move = self._move_of.get(action)
        if move is None or not isinstance(state, MemoryMatrixState):
            return None
        return move if state.check_move(move) else None
