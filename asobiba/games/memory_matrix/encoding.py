"""Memory Matrix for the learning environments (asobiba.envs).

Action ``2 * (width * row + column) + side`` places a piece on that cell (row 0 = rank 1,
column 0 = file a) colour side up (``side`` 0) or white side up (``side`` 1); the last action
(``2 * width * height``) is the pass. The board size follows the ``shape``/``mask`` options.

Only the view is encoded: a white-side-up piece is a plain ``W`` — whose colour it hides is
exactly what the game keeps secret — except in the seat's own ``memory_aid`` when that
learning aid is switched on.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, one_hot
from .game import config_for
from .palette import LETTERS
from .rules import PASS
from .state import MemoryMatrixState

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
            Field("holes", k, "1 where the shape has no cell (row-major, row 0 = rank 1)"),
            Field("empty", k, "1 on empty cells"),
            Field("neutral", k, "1 on neutral pieces"),
            Field("white", k, "1 on pieces lying white side up (their colour unseen)"),
            Field("colour_up", c * k, "per colour (palette order B R Y G …): its face-up pieces"),
            Field("remembered", c * k,
                  "per colour: own white-side-up pieces named by the memory_aid option (else 0)"),
            Field("my_colours", c, "1 for each colour the viewing seat plays"),
            Field("to_move_colour", c, "one-hot: the colour to move"),
            Field("in_hand", c, "pieces in hand per colour / cells"),
            Field("showing", c, "pieces showing per colour / cells"),
            Field("white_any_time", 1, "1 if white-side moves are always allowed"),
        )

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
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
