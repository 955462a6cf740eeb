"""FlipFlop (Masahiro Nakajima, 2009): rook/bishop pieces that flip after every move.

3×3 with 3 pieces each or 5×5 with 5; all start on their owner's first row showing +.
A move slides a piece like a rook (+) or bishop (×) without jumping and flips it. Only a
piece standing on a goal square (the centre of either first row) can be captured. You win
when your piece on the opponent's goal survives the opponent's reply, or when the opponent
has no move after yours; the third occurrence of a position is a draw.
See docs/rules/flipflop.md for every rule with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ...core import BotLevel, Game, Option, OptionError, Outcome, State, Why, why
from ...core.errors import option_why
from ...core.jsontypes import JSONMapping, JSONObject
from . import board as bd
from .notation import NOTATION_WHY, FFMove, from_fen, move_text, parse_move, square_name, to_fen
from .views import FlipFlopBoard, FlipFlopView, flipflop_view

SEAT_NAMES = ("white", "black")
COLOUR = ("White", "Black")
WHY: dict[str, str] = {
    # end reasons (``reason:<code>`` in the front end's table)
    "flipflop.holds": "{colour}'s piece on {sq} was not taken back: {colour} holds the goal",
    "flipflop.no_move": "{colour} has no legal move",
    "flipflop.repetition": "the same position occurred for the third time",
    # a refused move's rule (``why:<code>``)
    "flipflop.not_own_piece": "there is no piece on {sq}; {colour} moves only its own pieces",
    "flipflop.opposing_piece": "there is an opposing piece on {sq}; {colour} moves only its own "
                               "pieces",
    "flipflop.wrong_face": "the piece on {sq} shows {face}; write the face it shows before moving",
    "flipflop.must_move": "a piece must move; passing is not allowed",
    "flipflop.own_piece_there": "{sq} holds your own piece",
    "flipflop.not_a_line": "{face}; {frm} to {to} is not such a line",
    "flipflop.not_on_goal": "the piece on {sq} cannot be captured: only pieces on the goal squares {g1} and {g2} can be taken",
    "flipflop.blocked": "the path from {frm} to {to} is blocked; pieces cannot jump",
    "flipflop.not_capture": "{sq} is empty, so this is not a capture: write {move}",
    "flipflop.is_capture": "{sq} holds an opposing piece: a capture is written with x, {move}",
    **NOTATION_WHY,
}
"""The English of every code FlipFlop emits (logs, CLI, records); arguments: ``colour`` is
``white``/``black``, ``face`` is ``rook``/``bishop``, squares are names like ``b3``."""
REPETITION_LIMIT = 3
"""The same position (board and side to move) for the third time is a draw."""


def board_size(options: JSONMapping) -> int:
    return 5 if options.get("board") == "5x5" else 3


class FlipFlopState(State[FFMove]):
    """A position plus the keys of every earlier position (for the repetition rule)."""

    __slots__ = ("n", "white", "black", "bishops", "turn", "history", "moves", "_options",
                 "_legal_cache", "_result", "key")

    def __init__(self, n: int, white: int, black: int, bishops: int, turn: int,
                 options: JSONMapping, history: tuple[int, ...] = (),
                 moves: tuple[str, ...] = ()) -> None:
        self.n = n
        self.white, self.black, self.bishops, self.turn = white, black, bishops, turn
        self._options = options
        self.history = history
        self.moves = moves
        self.key = bd.position_key(white, black, bishops, turn)
        self._legal_cache: tuple[FFMove, ...] | None = None  # computed on first use
        self._result: tuple[int | None, Why] | None = None

    def _settle(self) -> tuple[FFMove, ...]:
        """The legal moves, and whether the game is over (``_result``): computed once, on
        first use, so the states a search or playout never asks cost nothing."""
        if self._legal_cache is not None:
            return self._legal_cache
        n, white, black, bishops, turn = self.n, self.white, self.black, self.bishops, self.turn
        geo = bd.GEOMETRY[n]
        self._legal_cache = ()
        if bd.holds_goal(geo, white, black, turn):
            self._result = (turn, why(WHY, "flipflop.holds", colour=SEAT_NAMES[turn],
                                      sq=square_name(n, geo.goal_of(turn)),
                                      en={"colour": COLOUR[turn]}))
            return self._legal_cache
        pairs = bd.legal_moves(geo, white, black, bishops, turn)
        if not pairs:
            self._result = (1 - turn, why(WHY, "flipflop.no_move", colour=SEAT_NAMES[turn],
                                          en={"colour": COLOUR[turn]}))
            return self._legal_cache
        if self.history.count(self.key) + 1 >= REPETITION_LIMIT:
            self._result = (None, why(WHY, "flipflop.repetition"))
            return self._legal_cache
        occ = white | black
        self._legal_cache = tuple(
            FFMove(f, t, bool(bishops >> f & 1), bool(occ >> t & 1)) for f, t in pairs)
        return self._legal_cache

    @property
    def options(self) -> JSONMapping:
        return self._options

    @property
    def geometry(self) -> bd.Geometry:
        return bd.GEOMETRY[self.n]

    def tuple4(self) -> tuple[int, int, int, int]:
        return self.white, self.black, self.bishops, self.turn

    def repetitions(self) -> int:
        """How many times this position has occurred, this time included."""
        return self.history.count(self.key) + 1

    # ---- hooks ---------------------------------------------------------------------------
    def _acting(self) -> tuple[int, ...]:
        self._settle()
        return () if self._result is not None else (self.turn,)

    def _legal(self, seat: int) -> Sequence[FFMove]:
        return self._settle()

    def child(self, move: FFMove, seat: int | None = None) -> FlipFlopState:
        """The protocol's unchecked step (``move`` from :meth:`legal_moves`), typed as this
        game's state; the side to move is ``turn``."""
        return self._apply(move, self.turn if seat is None else seat)

    def _apply(self, move: FFMove, seat: int) -> FlipFlopState:
        w, b, x, t = bd.apply_move(self.white, self.black, self.bishops, self.turn,
                                   move.frm, move.to)
        return FlipFlopState(self.n, w, b, x, t, self._options, self.history + (self.key,),
                             self.moves + (move_text(self.n, move),))

    def _outcome(self) -> Outcome | None:
        self._settle()
        if self._result is None:
            return None
        winner, reason = self._result
        if winner is None:
            return Outcome.coded((0.5, 0.5), (1, 1), reason)
        scores = (1.0, 0.0) if winner == bd.WHITE else (0.0, 1.0)
        return Outcome.coded(scores, (1, 2) if winner == bd.WHITE else (2, 1), reason)

    def _move_text(self, move: FFMove, seat: int | None) -> str:
        return move_text(self.n, move)

    def _parse(self, text: str, seat: int) -> FFMove:
        return parse_move(self.n, text)

    def _why_illegal(self, move: FFMove, seat: int) -> Why:
        n, geo = self.n, self.geometry
        frm, to = square_name(n, move.frm), square_name(n, move.to)
        mine, theirs = (self.white, self.black) if seat == bd.WHITE else (self.black, self.white)
        if not mine >> move.frm & 1:
            code = "flipflop.opposing_piece" if theirs >> move.frm & 1 else "flipflop.not_own_piece"
            return why(WHY, code, sq=frm, colour=SEAT_NAMES[seat], en={"colour": COLOUR[seat]})
        bishop = bool(self.bishops >> move.frm & 1)
        face = "bishop" if bishop else "rook"
        if move.bishop != bishop:
            return why(WHY, "flipflop.wrong_face", sq=frm, face=face,
                       en={"face": "B (bishop, ×)" if bishop else "R (rook, +)"})
        if move.frm == move.to:
            return why(WHY, "flipflop.must_move")
        if mine >> move.to & 1:
            return why(WHY, "flipflop.own_piece_there", sq=to)
        line = bd.piece_moves(geo, move.frm, bishop, 0, 0)
        if move.to not in line:
            return why(WHY, "flipflop.not_a_line", face=face, frm=frm, to=to,
                       en={"face": "a bishop (×) moves only diagonally" if bishop
                           else "a rook (+) moves only orthogonally"})
        reach = bd.piece_moves(geo, move.frm, bishop, mine, theirs)
        if move.to not in reach:
            if theirs >> move.to & 1 and not bd.can_capture_on(geo, move.to):
                g1, g2 = (square_name(n, s) for s in geo.home_centre)
                return why(WHY, "flipflop.not_on_goal", sq=to, g1=g1, g2=g2)
            return why(WHY, "flipflop.blocked", frm=frm, to=to)
        if move.capture and not theirs >> move.to & 1:
            return why(WHY, "flipflop.not_capture", sq=to,
                       move=move_text(n, move._replace(capture=False)))
        if not move.capture and theirs >> move.to & 1:
            return why(WHY, "flipflop.is_capture", sq=to,
                       move=move_text(n, move._replace(capture=True)))
        return super()._why_illegal(move, seat)

    def fen(self) -> str:
        return to_fen(self.n, self.white, self.black, self.bishops, self.turn)

    def view(self, seat: int | None) -> FlipFlopView:
        return cast(FlipFlopView, super().view(seat))

    def _view(self, seat: int | None) -> FlipFlopBoard:
        return self.board_view()

    def board_view(self) -> FlipFlopBoard:
        """FlipFlop's own keys of every seat's view (the same for all: no secrets)."""
        self._settle()
        geo = self.geometry
        n = self.n
        threat = None
        defender_home = geo.home_centre[self.turn]
        attacker = self.black if self.turn == bd.WHITE else self.white
        if self._result is None and attacker >> defender_home & 1:
            threat = square_name(n, defender_home)
        return {
            "board_size": 5 if n == 5 else 3,
            "board": [self._row(r) for r in range(n - 1, -1, -1)],
            "position": self.fen(),
            "turn": "white" if self.turn == bd.WHITE else "black",
            "goals": {"white": square_name(n, geo.goal_of(bd.WHITE)),
                      "black": square_name(n, geo.goal_of(bd.BLACK))},
            "threat": threat,
            "repetitions": self.repetitions(),
            "history": [to_fen(n, *bd.unpack_key(k)) for k in self.history],
            "moves": list(self.moves),
            "last_move": self.moves[-1] if self.moves else None,
        }

    def _row(self, r: int) -> str:
        out = ""
        for f in range(self.n):
            bit = 1 << (r * self.n + f)
            ch = "." if not (self.white | self.black) & bit else (
                "B" if self.bishops & bit else "R")
            out += ch.lower() if self.black & bit else ch
        return out


def _levels() -> tuple[BotLevel, ...]:
    about = {
        "1": ("Level 1", "random moves, but wins at once when it can and retakes its goal",
              "レベル1"),
        "2": ("Level 2", "one ply with a very noisy evaluation (5×5: material only)",
              "レベル2"),
        "3": ("Level 3", "two-ply alpha-beta with a noisy evaluation", "レベル3"),
        "4": ("Level 4", "alpha-beta, 3 plies with heavy noise on 3×3, 4 plies on 5×5",
              "レベル4"),
        "5": ("Level 5", "3×3: perfect play from the solved table; 5×5: iterative deepening "
              "alpha-beta with a transposition table, 1.8 s per move", "レベル5"),
        "6": ("Level 6", "5×5: level 5's search, clock and endgame tables with an evaluation "
              "learned by self-play (docs/learning.md), needs NumPy; 3×3: perfect play as "
              "level 5", "レベル6"),
    }
    return tuple(BotLevel(level, title, description, title_ja)
                 for level, (title, description, title_ja) in about.items())


class FlipFlop(Game):
    id = "flipflop"
    title_en = "FlipFlop"
    title_ja = "フリップフロップ"
    summary = ("Rook/bishop pieces flip after every move; capture only on the goal squares; "
               "win by holding the opponent's goal for a turn. 3×3 or 5×5.")
    summary_ja = "駒は動くたびに＋（飛車）と×（角行）が裏返る。取れるのはゴールの駒だけ。相手のゴールを守り切れば勝ち。3×3と5×5。"
    rules_version = 1
    options = (
        Option("board", "3x3", choices=("3x3", "5x5"),
               description="board size: 3×3 with 3 pieces each, or 5×5 with 5",
               description_ja="盤の大きさ: 3x3 (各3駒) または 5x5 (各5駒)"),
    )
    variants = {"3x3": {"board": "3x3"}, "5x5": {"board": "5x5"}}
    min_seats = max_seats = 2
    perfect_information = True
    default_level = "2"  # level 1 is nearly random; 2 plays for the goal, still noisy
    bot_levels = _levels()

    def _initial(self, options: JSONObject, seed: int) -> FlipFlopState:
        n = board_size(options)
        return FlipFlopState(n, *bd.start_position(n), options)

    def from_position(self, fen: str, options: JSONMapping | None = None, *,
                      history: Sequence[str] = (), moves: Sequence[str] = ()) -> FlipFlopState:
        """A state from a position string and the earlier positions (for repetition)."""
        try:
            n, w, b, x, t = from_fen(fen)
            keys = []
            for h in history:
                hn, *rest = from_fen(h)
                if hn != n:
                    raise ValueError(f"history position {h!r} is not on a {n}×{n} board")
                keys.append(bd.position_key(*rest))
        except ValueError as exc:
            raise OptionError(str(exc), option="position",
                              why=option_why("option.position", option="position",
                                             position=fen)) from None
        if w & b:
            raise OptionError(f"position {fen!r} puts two pieces on one square",
                              option="position",
                              why=option_why("option.position", option="position", position=fen))
        return FlipFlopState(n, w, b, x, t, {"board": f"{n}x{n}"}, tuple(keys), tuple(moves))

    def state_from_view(self, view: JSONMapping) -> FlipFlopState:
        """A state from a view, or from a hand-made one (a tutorial's start) holding at least
        FlipFlopBoard's ``position`` (and ``history``/``moves`` when repetition matters)."""
        position = view.get("position")
        if not isinstance(position, str):
            raise OptionError("a FlipFlop view holds its 'position' string", option="view",
                              why=option_why("option.view", game="flipflop", keys="position"))
        return self.from_position(position, history=view.get("history", ()),
                                  moves=view.get("moves", ()))

    def render_view(self, view: JSONMapping) -> str:
        view = flipflop_view(view)
        n = view["board_size"]
        marks = {"R": "W+", "B": "W×", "r": "b+", "b": "b×", ".": " ·"}
        goals = {view["goals"]["white"], view["goals"]["black"]}
        header = "    " + "  ".join(bd.FILES[:n])
        lines = [header]
        for i, row in enumerate(view["board"]):
            rank = n - i
            cells = []
            for f, ch in enumerate(row):
                name = bd.FILES[f] + str(rank)
                mark = marks[ch]
                if ch == "." and name in goals:
                    mark = " ◎"
                cells.append(mark)
            lines.append(f"{rank} " + " ".join(cells) + f"  {rank}")
        lines.append(header)
        outcome = view["outcome"]
        status = f"to move: {view['turn']}" if outcome is None else (
            "game over: " + outcome["reason"])
        if view.get("last_move"):
            status += f"   last: {view['last_move']}"
        if view.get("threat"):
            status += f"   {view['threat']} must be taken back!"
        lines.append(status)
        return "\n".join(lines)

    def warm_caches(self) -> None:
        """Build what a bot process keeps between moves — the 3×3 solved table (about
        0.7 s of CPU), the 5×5 endgame tables with their 5-piece layer (about 1 s of CPU
        and 60 MB) and, where it was built, the 6-piece layer (mapped; its rank directory
        about 1 s and 180 MB), and level 6's learned tables — once, when the process starts, so that
        no move waits on them (a level-5 move that read the layer itself took 17–24 s at a
        load of 22)."""
        from . import tables
        from .solver3 import table

        table()
        tab = tables.load()
        if isinstance(tab, tables.TableSet):
            for count in range(tab.base.pieces + 1, tab.pieces + 1):
                tab.layer(count)
        try:  # level 6's learned tables and their byte tables (0.4 s of CPU, NumPy's import
            # included), when the learned extra is there; without it the level says so itself
            from .learned import shipped
        except ImportError:
            return
        shipped().value_planes((0, 0, 0, 0))


GAME = FlipFlop()
FlipFlopState.game = GAME
