"""The protocol State: notation, views (what each seat may see) and the full record."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from ...core.errors import IllegalMoveError, MalformedMoveError, Why, why
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.protocol import Outcome, State
from . import rules
from .palette import EMPTY, HOLE, LETTERS, NEUTRAL, PALETTE, WHITE
from .rules import PASS, Config, Pos
from .views import LastMoveView, MemoryMatrixBoard, MemoryMatrixView

DEAD_BOARD = "no piece shows a colour: nothing can flip any more"
"""The end reason of a dead board (``rules.is_dead``), in English."""

WHY: dict[str, str] = {
    # end reasons
    "memory_matrix.full": "the board is full",
    "memory_matrix.dead": DEAD_BOARD,
    "memory_matrix.no_colour_moves": "no colour left can move (adults' rule)",
    # malformed moves
    "memory_matrix.notation": "this is not a move: write a cell like 'd3' (colour side up), "
                              "'d3w' (white side up) or 'pass'",
    "memory_matrix.no_cell": "{cell} is not a cell of this board (off the edge or a hole)",
    # a refused move's rule (``colour`` is the colour's English name, e.g. ``blue``)
    "memory_matrix.no_pass": "there is no passing (rule: a colour that cannot sandwich plays "
                             "white; 'パスするのではなく、裏面（白）で参加する')",
    "memory_matrix.must_move": "{colour} still has a piece face up, so it must move (rule: "
                               "lost colour)",
    "memory_matrix.must_pass": "{colour} has no piece face up, so under the adults' rule it "
                               "must pass",
    "memory_matrix.occupied": "{cell} is already occupied",
    "memory_matrix.no_sandwich": "a {colour} piece must sandwich at least one run of pieces "
                                 "that ends at the nearest {colour} piece (rule: colour move)",
    "memory_matrix.white_too_early": "{colour} can still sandwich with its colour, and a white "
                                     "piece may be placed only when no colour move exists "
                                     "(rule: white move)",
    "memory_matrix.white_no_sandwich": "a white piece must sandwich a run of coloured pieces "
                                       "up to the nearest white piece; it may go anywhere only "
                                       "when no sandwich at all is possible (rule: white move)",
}
"""The English of every code Memory Matrix emits."""

_MOVE = re.compile(r"^([a-z])([0-9]{1,2})(w?)$")


class LastMove:
    """What everyone saw happen on the last turn (the only history a view repeats)."""

    __slots__ = ("colour", "move", "flips")

    def __init__(self, colour: int, move: int, flips: int) -> None:
        self.colour = colour
        self.move = move
        self.flips = flips


class MemoryMatrixState(State[int]):
    __slots__ = ("cfg", "pos", "last", "ply", "_options", "_legal_cache", "_checked")

    def __init__(self, cfg: Config, pos: Pos, options: JSONMapping,
                 last: LastMove | None = None, ply: int = 0) -> None:
        self.cfg = cfg
        self.pos = pos
        self.last = last
        self.ply = ply
        self._options = options
        self._legal_cache: list[int] | None = None
        self._checked: tuple[int, int] | None = None
        """(move, its flips) of the last move :meth:`check_move` found legal."""

    @property
    def options(self) -> JSONMapping:
        return self._options

    # ---- rules hooks -------------------------------------------------------------------
    def _acting(self) -> tuple[int, ...]:
        turn = self.pos.turn
        return () if turn < 0 else self.cfg.acting[turn]

    def _legal(self, seat: int) -> Sequence[int]:
        if self._legal_cache is None:
            self._legal_cache = rules.legal_moves(self.cfg, self.pos)
        return self._legal_cache

    def check_move(self, move: int) -> bool:
        """Whether ``move`` is legal here, checked for that move alone
        (``rules.legal_flips``); its flips are kept for the :meth:`child` that follows (the
        learning environments' step)."""
        flips = rules.legal_flips(self.cfg, self.pos, move)
        if flips is None:
            return False
        self._checked = (move, flips)
        return True

    def _apply(self, move: int, seat: int) -> MemoryMatrixState:
        checked = self._checked
        flips = checked[1] if checked is not None and checked[0] == move else None
        pos, flips = rules.apply(self.cfg, self.pos, move, flips)
        return MemoryMatrixState(self.cfg, pos, self._options,
                                 LastMove(self.pos.turn, move, flips), self.ply + 1)

    def _outcome(self) -> Outcome | None:
        if self.pos.turn >= 0:
            return None
        if self.pos.occ == self.cfg.geometry.valid:
            reason = why(WHY, "memory_matrix.full")
        elif self.cfg.dead_board_ends and rules.is_dead(self.pos.up):
            reason = why(WHY, "memory_matrix.dead")
        else:
            reason = why(WHY, "memory_matrix.no_colour_moves")
        return Outcome.from_scores(rules.scores(self.cfg, self.pos), reason)

    # ---- notation ----------------------------------------------------------------------
    def _move_text(self, move: int, seat: int | None) -> str:
        if move == PASS:
            return "pass"
        return self.cfg.geometry.name(move >> 1) + ("w" if move & 1 else "")

    def _parse(self, text: str, seat: int) -> int:
        wanted = text.strip().lower()
        if wanted == "pass":
            return PASS
        match = _MOVE.match(wanted)
        if not match:
            raise MalformedMoveError(
                f"{text.strip()!r} is not a move: write a cell like 'd3' (colour side up), "
                "'d3w' (white side up) or 'pass'", move=text,
                why=why(WHY, "memory_matrix.notation"))
        cell = self.cfg.geometry.index_of.get(match.group(1) + match.group(2))
        if cell is None:
            raise IllegalMoveError(f"{match.group(1)}{match.group(2)} is not a cell of this "
                                   "board (off the edge or a hole)", move=text,
                                   why=why(WHY, "memory_matrix.no_cell",
                                           cell=match.group(1) + match.group(2)))
        return cell << 1 | (1 if match.group(3) else 0)

    def _why_illegal(self, move: int, seat: int) -> Why:
        pos, cfg, geo = self.pos, self.cfg, self.cfg.geometry
        colour = pos.turn
        name = PALETTE[colour][1]
        if move == PASS:
            if not cfg.lost_colour_passes:
                return why(WHY, "memory_matrix.no_pass")
            return why(WHY, "memory_matrix.must_move", colour=name)
        if cfg.lost_colour_passes and not pos.showing(colour):
            return why(WHY, "memory_matrix.must_pass", colour=name)
        cell, white = move >> 1, move & 1
        if (1 << cell) & pos.occ:
            return why(WHY, "memory_matrix.occupied", cell=geo.name(cell))
        coloured = rules.colour_move_cells(geo, pos, colour)
        if not white:
            return why(WHY, "memory_matrix.no_sandwich", colour=name)
        if coloured and not cfg.white_any_time:
            return why(WHY, "memory_matrix.white_too_early", colour=name)
        return why(WHY, "memory_matrix.white_no_sandwich")

    # ---- views -------------------------------------------------------------------------
    def board_rows(self) -> list[str]:
        """What everyone sees: colour letters, ``W`` for white, ``.`` empty, ``-`` hole."""
        geo, pos = self.cfg.geometry, self.pos
        white = pos.white()
        out = []
        for r in range(geo.height):
            row = []
            for c in range(geo.width):
                i = r * geo.stride + c
                bit = 1 << i
                if not bit & geo.valid:
                    row.append(HOLE)
                elif not bit & pos.occ:
                    row.append(EMPTY)
                elif bit & white:
                    row.append(WHITE)
                else:
                    row.append(LETTERS[self._ident_of(bit)])
            out.append("".join(row))
        return out

    def _ident_of(self, bit: int) -> int:
        for colour, ident in enumerate(self.pos.ident):
            if ident & bit:
                return colour
        return -1

    def _last_view(self) -> LastMoveView | None:
        last = self.last
        if last is None:
            return None
        geo, pos = self.cfg.geometry, self.pos
        flipped = rules.cells_of(last.flips)
        up = {geo.name(i): LETTERS[self._ident_of(1 << i)] for i in flipped
              if (1 << i) & pos.up}
        out: LastMoveView = {
            "seat": self.cfg.seat_of(last.colour),
            "colour": LETTERS[last.colour],
            "move": self._move_text(last.move, None),
            "pass": last.move == PASS,
            "cell": None if last.move == PASS else geo.name(last.move >> 1),
            "white": last.move != PASS and bool(last.move & 1),
            "flipped": [geo.name(i) for i in flipped],
            "flipped_up": up,
        }
        return out

    def view(self, seat: int | None) -> MemoryMatrixView:
        return cast(MemoryMatrixView, super().view(seat))

    def _view(self, seat: int | None) -> MemoryMatrixBoard:
        cfg, pos, geo = self.cfg, self.pos, self.cfg.geometry
        shown = rules.counts(cfg, pos)
        data: MemoryMatrixBoard = {
            "width": geo.width,
            "height": geo.height,
            "board": self.board_rows(),
            "colours": [
                {"letter": LETTERS[c], "name": PALETTE[c][1], "name_ja": PALETTE[c][2],
                 "seat": cfg.seat_of(c), "showing": shown[c], "in_hand": pos.hand[c]}
                for c in range(cfg.colours)
            ],
            "to_move_colour": LETTERS[pos.turn] if pos.turn >= 0 else None,
            "scores": rules.scores(cfg, pos),
            "neutral_pieces": pos.neutral.bit_count(),
            "white_any_time": cfg.white_any_time,
            "lost_colour": "pass" if cfg.lost_colour_passes else "white",
            "ply": self.ply,
            "last_move": self._last_view(),
        }
        if seat is not None and self._options.get("memory_aid"):
            mine = 0
            for c in cfg.colours_of(seat):
                mine |= pos.ident[c]
            data["memory_aid"] = {geo.name(i): LETTERS[self._ident_of(1 << i)]
                                  for i in rules.cells_of(mine & pos.white())}
        return data

    def under_rows(self) -> list[str]:
        """Every piece's colour, secrets included: upper case face up, lower case white side
        up, ``*`` neutral (for finished-game replays and hand-made test positions)."""
        geo, pos = self.cfg.geometry, self.pos
        out = []
        for r in range(geo.height):
            row = []
            for c in range(geo.width):
                bit = 1 << (r * geo.stride + c)
                if not bit & geo.valid:
                    row.append(HOLE)
                elif not bit & pos.occ:
                    row.append(EMPTY)
                elif bit & pos.neutral:
                    row.append(NEUTRAL)
                else:
                    letter = LETTERS[self._ident_of(bit)]
                    row.append(letter if bit & pos.up else letter.lower())
            out.append("".join(row))
        return out

    def _full(self) -> JSONObject:
        data: JSONObject = dict(self._view(None))
        data["under"] = self.under_rows()
        data["hand"] = list(self.pos.hand)
        return data
