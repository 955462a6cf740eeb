"""ReverStarGo as the designer's app plays it: states, notation, ko, passes and the end.

See docs/rules/reverstargo.md for every rule with the seed sentence it comes from.
Seat 0 is Black (moves first), seat 1 is White. Passes are automatic (the app has no
voluntary pass), so a move's state may already contain the opponent's pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, NamedTuple, cast

from ...core import (
    AmbiguousMoveError,
    BotLevel,
    Game,
    MalformedMoveError,
    Outcome,
    State,
    Why,
    why,
)
from ...core.jsontypes import JSONMapping, JSONObject
from .board import INDEX, LABELS, N_CELLS, STONE_CELLS
from .rules import BLACK, COLOUR_LETTER, WHITE, CellOption, boards_after, cell_options, key
from .views import (
    Indicator,
    ReverStarGoBoard,
    ReverStarGoView,
    reverstargo_position,
)

MAX_ENTRIES = 81
"""The app's safety cap: the game ends after 81 record entries (moves plus passes)."""

PASS_CELL = -1
SEAT_NAMES = ("black", "white")
START_BLACK = sum(1 << INDEX[c] for c in ("A3", "A7", "AJ"))
START_WHITE = sum(1 << INDEX[c] for c in ("A1", "A5", "A9"))

NORMAL, EXCEPTION, OVER = "normal", "exception", "over"

Move = tuple[int, int]
"""``(cell, colour)``: the cell played and the colour put on the CP during the move."""

_MOVE_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9])\s*(?:\[\s*([A-Za-z黒白])\s*\])?\s*$")
_CALLS = {"b": BLACK, "black": BLACK, "黒": BLACK, "w": WHITE, "white": WHITE, "白": WHITE}


class Entry(NamedTuple):
    """One record entry, as the app's record lists them: a move or an automatic pass."""

    seat: int
    cell: int  # PASS_CELL for a pass
    colour: int  # the colour put on the CP (-1 for a pass)
    captured: int
    exception: bool = False

    @property
    def is_pass(self) -> bool:
        return self.cell == PASS_CELL


class Spot(NamedTuple):
    """A playable cell for the side to move, with ko applied."""

    option: CellOption
    ko: tuple[bool, bool]  # per colour: would recreate a position (only for valid colours)
    free: tuple[int, ...]  # colours allowed in normal play

    @property
    def blocked(self) -> bool:
        return not self.free


def board_text(black: int, white: int) -> str:
    """37 characters in cell order (CP first): ``B``, ``W`` or ``.``."""
    return "".join("B" if black >> i & 1 else "W" if white >> i & 1 else "."
                   for i in range(N_CELLS))


def parse_board_text(text: str) -> tuple[int, int]:
    if not isinstance(text, str) or len(text) != N_CELLS or set(text) - set("BW."):
        raise ValueError(f"a board is {N_CELLS} characters of B, W and '.'")
    black = sum(1 << i for i, ch in enumerate(text) if ch == "B")
    white = sum(1 << i for i, ch in enumerate(text) if ch == "W")
    if (black | white) & ~STONE_CELLS:
        raise ValueError("the CP never holds a stone between moves")
    return black, white


WHY: dict[str, str] = {
    # end reasons
    "reverstargo.cap": "the {n}-entry cap was reached",
    "reverstargo.full": "the board is full",
    "reverstargo.no_moves": "neither player can place a stone",
    "reverstargo.ko_twice": "ko: a second ko exception in a row ends the game",
    # malformed or ambiguous moves
    "reverstargo.notation": "this is not a ReverStarGo move: write a cell such as B2, with a "
                            "CP call in brackets where it matters, such as A5[W]",
    "reverstargo.no_cell": "{cell} is not a cell; cells are CP, A1…AJ, BQ…BJ, CQ…CJ, DQ…DX",
    "reverstargo.bad_call": "the CP call is [B] (Black) or [W] (White)",
    "reverstargo.needs_call": "{cell} needs a CP call (seed §5①): {cell}[B] and {cell}[W] "
                              "leave different positions",
    # a refused move's rule
    "reverstargo.no_pass": "there is no voluntary pass; a side with no playable cell passes "
                           "automatically",
    "reverstargo.cp": "the CP never holds a stone and can never be played",
    "reverstargo.occupied": "{cell} is already occupied",
    "reverstargo.flanks_nothing": "a stone on {cell} flanks nothing, whatever the CP is "
                                  "called; a stone may only go where it flanks opponent "
                                  "stones (seed §4①)",
    "reverstargo.call_flanks_nothing": "with the CP called {colour}, a stone on {cell} flanks "
                                       "nothing",
    "reverstargo.ko": "ko (seed §7①): {cell} with the CP called {colour} would recreate a "
                      "position that has already appeared",
}
"""The English of every code ReverStarGo emits (``colour`` is ``black``/``white``)."""


class ReverStarGoState(State[Move]):
    """An immutable position with everything the rules need: the boards, captures, the ko
    history, whether the last move was a ko exception, and the record entries so far."""

    __slots__ = ("black", "white", "captured", "turn", "mode", "end", "history",
                 "seen", "previous", "last_exception", "entries", "_options", "_spots",
                 "_moves")

    def __init__(self, black: int, white: int, captured: tuple[int, int], turn: int,
                 history: tuple[int, ...], previous: int | None, last_exception: bool,
                 entries: tuple[Entry, ...], options: JSONMapping,
                 seen: frozenset[int] | None = None) -> None:
        self.black = black
        self.white = white
        self.captured = captured
        self.history = history
        self.seen = frozenset(history) if seen is None else seen
        self.previous = previous
        self.last_exception = last_exception
        self.entries = entries
        self._options = options
        self._moves: list[Move] | None = None
        self.turn, self.mode, self.end, self._spots = self._settle(turn)

    @property
    def reason(self) -> str:
        """Why the game ended, in English (``""`` while it goes on); ``end`` is the code."""
        return self.end.text if self.end is not None else ""

    # ---- the turn order: automatic passes, ko exceptions, the end -----------------------
    def is_ko(self, black: int, white: int) -> bool:
        """Would a move leaving this position break ko (seed §7①)? It is in the history,
        or it is the position just before the last move played."""
        k = key(black, white)
        return k in self.seen or k == self.previous

    def _spots_for(self, seat: int) -> list[Spot]:
        out = []
        for opt in cell_options(self.black, self.white, seat):
            ko = [False, False]
            for c in opt.valid:
                res = opt.by_colour[c]
                assert res is not None
                ko[c] = self.is_ko(*boards_after(self.black, self.white, seat, res))
            free = tuple(c for c in opt.valid if not ko[c])
            out.append(Spot(opt, (ko[0], ko[1]), free))
        return out

    def _settle(self, turn: int) -> tuple[int, str, Why | None, list[Spot]]:
        """Who acts now. ``turn`` is the side whose turn it is by alternation; a side with
        no playable cell passes automatically (the pass is a record entry)."""
        if len(self.entries) >= MAX_ENTRIES:
            return turn, OVER, why(WHY, "reverstargo.cap", n=MAX_ENTRIES), []
        spots = self._spots_for(turn)
        if not spots:
            other = self._spots_for(1 - turn)
            if not other:
                full = not (STONE_CELLS & ~(self.black | self.white))
                return turn, OVER, why(WHY, "reverstargo.full" if full
                                       else "reverstargo.no_moves"), []
            self.entries = self.entries + (Entry(turn, PASS_CELL, -1, 0),)
            if len(self.entries) >= MAX_ENTRIES:
                return turn, OVER, why(WHY, "reverstargo.cap", n=MAX_ENTRIES), []
            turn, spots = 1 - turn, other
        if all(s.blocked for s in spots):
            if self.last_exception:
                return turn, OVER, why(WHY, "reverstargo.ko_twice"), []
            return turn, EXCEPTION, None, spots
        return turn, NORMAL, None, spots

    # ---- protocol hooks ------------------------------------------------------------------
    @property
    def options(self) -> JSONMapping:
        return self._options

    def _acting(self) -> tuple[int, ...]:
        return () if self.mode == OVER else (self.turn,)

    def _legal(self, seat: int) -> Sequence[Move]:
        if self._moves is None:
            moves: list[Move] = []
            for spot in self._spots:
                opt = spot.option
                colours = opt.valid if self.mode == EXCEPTION else spot.free
                if opt.call_matters:
                    moves.extend((opt.cell, c) for c in colours)
                elif colours:
                    moves.append((opt.cell, opt.auto))
            self._moves = moves
        return self._moves

    def _apply(self, move: Move, seat: int) -> ReverStarGoState:
        cell, colour = move
        spot = self.spot(cell)
        assert spot is not None
        res = spot.option.by_colour[colour]
        assert res is not None
        black, white = boards_after(self.black, self.white, seat, res)
        captured = list(self.captured)
        captured[seat] += res.captured
        k = key(black, white)
        exception = self.mode == EXCEPTION
        history = self.history if k in self.seen else self.history + (k,)
        seen = self.seen if k in self.seen else self.seen | {k}
        entry = Entry(seat, cell, colour, res.captured, exception)
        return ReverStarGoState(black, white, (captured[0], captured[1]), 1 - seat, history,
                                key(self.black, self.white), exception,
                                self.entries + (entry,), self._options, seen)

    def score(self) -> tuple[int, int]:
        """Stones on the board plus stones captured (seed §6)."""
        return (self.black.bit_count() + self.captured[0],
                self.white.bit_count() + self.captured[1])

    def _outcome(self) -> Outcome | None:
        if self.mode != OVER:
            return None
        scores = self.score()
        # equal totals: more captured stones wins; still equal: a draw (seed §6)
        keys = [(scores[s], self.captured[s]) for s in (BLACK, WHITE)]
        return Outcome.from_scores(scores, self.end or "", keys)

    def _move_text(self, move: Move, seat: int | None) -> str:
        cell, colour = move
        if cell == PASS_CELL:
            return "--"
        spot = self.spot(cell)
        if spot is not None and spot.option.call_matters:
            return f"{LABELS[cell]}[{COLOUR_LETTER[colour]}]"
        return str(LABELS[cell])

    def _parse(self, text: str, seat: int) -> Move:
        t = text.strip()
        if t.lower() in ("--", "pass", "パス"):
            return (PASS_CELL, -1)
        m = _MOVE_RE.match(t)
        if not m:
            raise MalformedMoveError(
                f"{text!r} is not a ReverStarGo move: write a cell such as B2, with a CP "
                "call in brackets where it matters, such as A5[W]", move=text,
                why=why(WHY, "reverstargo.notation"))
        label = m.group(1).upper()
        if label not in INDEX:
            raise MalformedMoveError(
                f"{label} is not a cell; cells are CP, A1…AJ, BQ…BJ, CQ…CJ, DQ…DX", move=text,
                why=why(WHY, "reverstargo.no_cell", cell=label))
        cell = INDEX[label]
        call = None
        if m.group(2) is not None:
            call = _CALLS.get(m.group(2).lower())
            if call is None:
                raise MalformedMoveError(
                    f"{text!r}: the CP call is [B] (Black) or [W] (White)", move=text,
                    why=why(WHY, "reverstargo.bad_call"))
        spot = self.spot(cell)
        if spot is None:
            return (cell, BLACK if call is None else call)
        opt = spot.option
        allowed = opt.valid if self.mode == EXCEPTION else spot.free
        if call is None:
            if opt.call_matters and len(allowed) == 2:
                raise AmbiguousMoveError(
                    f"{label} needs a CP call (seed §5①): {label}[B] and {label}[W] leave "
                    "different positions", move=text,
                    why=why(WHY, "reverstargo.needs_call", cell=label))
            if opt.call_matters and len(allowed) == 1:
                return (cell, allowed[0])
            return (cell, opt.auto)
        if not opt.call_matters and call in opt.valid:
            return (cell, opt.auto)  # a call that changes nothing is normalised
        return (cell, call)

    def _why_illegal(self, move: Move, seat: int) -> Why:
        cell, colour = move
        if cell == PASS_CELL:
            return why(WHY, "reverstargo.no_pass")
        label = LABELS[cell]
        if cell == 0:
            return why(WHY, "reverstargo.cp")
        if (self.black | self.white) >> cell & 1:
            return why(WHY, "reverstargo.occupied", cell=label)
        spot = self.spot(cell)
        if spot is None:
            return why(WHY, "reverstargo.flanks_nothing", cell=label)
        name = SEAT_NAMES[colour]
        if spot.option.by_colour[colour] is None:
            return why(WHY, "reverstargo.call_flanks_nothing", cell=label, colour=name)
        return why(WHY, "reverstargo.ko", cell=label, colour=name)

    # ---- helpers for views, bots, the UI -------------------------------------------------
    def spot(self, cell: int) -> Spot | None:
        for s in self._spots:
            if s.option.cell == cell:
                return s
        return None

    def spots(self) -> list[Spot]:
        return list(self._spots)

    def indicators(self) -> dict[str, Indicator]:
        """The app's move indicators for the side to move (seed §7⑤): ``playable``,
        ``one-colour`` (a ko restricts one call colour), ``ko-blocked``, and
        ``exception`` (every cell is ko-blocked; any may be played)."""
        out: dict[str, Indicator] = {}
        mark: Literal["playable", "one-colour", "ko-blocked", "exception"]
        for s in self._spots:
            opt = s.option
            if self.mode == EXCEPTION:
                mark, colours = "exception", opt.valid
            elif s.blocked:
                mark, colours = "ko-blocked", ()
            elif opt.call_matters and len(s.free) == 1:
                mark, colours = "one-colour", s.free
            else:
                mark, colours = "playable", s.free
            out[LABELS[opt.cell]] = {
                "mark": mark,
                "call": opt.call_matters,
                "colours": [COLOUR_LETTER[c] for c in colours],
                "auto": COLOUR_LETTER[opt.auto],
            }
        return out

    def entry_text(self, entry: Entry) -> str:
        if entry.is_pass:
            return "--"
        return f"{LABELS[entry.cell]}[{COLOUR_LETTER[entry.colour]}]"

    def view(self, seat: int | None) -> ReverStarGoView:
        return cast(ReverStarGoView, super().view(seat))

    def _view(self, seat: int | None) -> ReverStarGoBoard:
        return {
            "board": board_text(self.black, self.white),
            "turn": SEAT_NAMES[self.turn],
            "mode": self.mode,
            "captured": list(self.captured),
            "score": list(self.score()),
            "indicators": self.indicators() if self.mode != OVER else {},
            "entries": [
                {"seat": e.seat, "cell": None if e.is_pass else LABELS[e.cell],
                 "call": None if e.is_pass else COLOUR_LETTER[e.colour],
                 "captured": e.captured, "exception": e.exception}
                for e in self.entries
            ],
            "history": [board_text(k & STONE_CELLS, k >> N_CELLS) for k in self.history],
            "previous": (None if self.previous is None
                         else board_text(self.previous & STONE_CELLS,
                                         self.previous >> N_CELLS)),
            "last_exception": self.last_exception,
            "reason": self.reason,
        }


def _entry_from_json(e: JSONMapping) -> Entry:
    if e.get("cell") is None:
        return Entry(int(e["seat"]), PASS_CELL, -1, 0)
    return Entry(int(e["seat"]), INDEX[e["cell"]], COLOUR_LETTER.index(e["call"]),
                 int(e["captured"]), bool(e.get("exception", False)))


class ReverStarGo(Game):
    id = "reverstargo"
    title_en = "ReverStarGo"
    title_ja = "リバースターゴ"
    summary = ("Reversi flips meet Go captures on a 37-cell star, with a Core Point that "
               "takes whichever colour you call and a superko rule.")
    summary_ja = "リバーシの「挟んで返す」と囲碁の「囲んで取る」を、37マスの星形の盤で。中央のコアポイントはコールした色になり、同形反復は禁止。"
    rules_version = 1
    min_seats = max_seats = 2
    perfect_information = True
    default_level = "entry"  # the seed's app opens with Lv.1 only
    bot_levels = (
        BotLevel("entry", "Lv.1 Entry", "a random move from the worst half by flips + "
                 "captures (meant to lose)", "Lv.1 入門"),
        BotLevel("beginner", "Lv.2 Beginner", "a uniformly random move", "Lv.2 初級"),
        BotLevel("intermediate", "Lv.3 Intermediate", "random from the best 60% by flips "
                 "+ captures", "Lv.3 中級"),
        BotLevel("advanced", "Lv.4 Advanced", "the most flips + captures", "Lv.4 上級"),
        BotLevel("formidable", "Lv.5 Formidable", "most 3 × (flips + captures) + cell "
                 "value, minus the opponent's best reply in that measure", "Lv.5 強敵"),
        BotLevel("max", "MAX", "our alpha-beta with a transposition table", "MAX"),
        BotLevel("final", "FINAL", "our deepest search: iterative deepening within 2 s, "
                 "exact endgame", "FINAL"),
        BotLevel("learned", "LEARNED", "FINAL's search within 2 s with an evaluation learned "
                 "by self-play (docs/learning.md); needs NumPy", "LEARNED（学習）"),
    )

    def _initial(self, options: JSONObject, seed: int) -> ReverStarGoState:
        return ReverStarGoState(START_BLACK, START_WHITE, (0, 0), BLACK, (), None, False,
                                (), options)

    def state_from_view(self, view: JSONMapping) -> ReverStarGoState:
        """Rebuild the exact state (ko history included) from any seat's view."""
        view = reverstargo_position(view)
        black, white = parse_board_text(view["board"])
        history = tuple(key(*parse_board_text(h)) for h in view["history"])
        prev = view.get("previous")
        previous = None if prev is None else key(*parse_board_text(prev))
        entries = tuple(_entry_from_json(e) for e in view["entries"])
        # the turn before automatic passes: the side after the last move entry
        moves = [e for e in entries if not e.is_pass]
        turn = BLACK if not moves else 1 - moves[-1].seat
        entries_before = entries
        if entries and entries[-1].is_pass:
            entries_before = entries[:-1]
        cap = view["captured"]
        state = ReverStarGoState(black, white, (int(cap[0]), int(cap[1])), turn, history,
                                 previous, bool(view["last_exception"]), entries_before, {})
        return state

    def render_view(self, view: JSONMapping) -> str:
        from .render import render

        return render(view)


GAME = ReverStarGo()
ReverStarGoState.game = GAME


def start() -> ReverStarGoState:
    """The start position, typed as this game's state."""
    return cast(ReverStarGoState, GAME.new_game())


def advance(state: ReverStarGoState, move: str | Move, seat: int | None = None
            ) -> ReverStarGoState:
    """``state.play`` (checked), typed as this game's state."""
    return cast(ReverStarGoState, state.play(move, seat))


def replay(moves: Sequence[str]) -> list[ReverStarGoState]:
    return [cast(ReverStarGoState, s) for s in GAME.replay(moves)]


def position(black: Sequence[str] = (), white: Sequence[str] = (), turn: int = BLACK,
             captured: tuple[int, int] = (0, 0), history: Sequence[str] = (),
             previous: str | None = None, last_exception: bool = False,
             entries: int = 0) -> ReverStarGoState:
    """A position set up by hand (tests, puzzles): stones by label; ``history`` and
    ``previous`` as 37-character board texts; ``entries`` dummy record entries already
    played (for the 81-entry cap)."""
    b = sum(1 << INDEX[c] for c in black)
    w = sum(1 << INDEX[c] for c in white)
    if b & w or (b | w) & ~STONE_CELLS:
        raise ValueError("a cell holds two stones, or a stone is on the CP")
    hist = tuple(key(*parse_board_text(h)) for h in history)
    prev = None if previous is None else key(*parse_board_text(previous))
    filler = tuple(Entry(i % 2, PASS_CELL, -1, 0) for i in range(entries))
    return ReverStarGoState(b, w, captured, turn, hist, prev, last_exception, filler, {})
