"""The Algo position: rows of cards, the pile, whose turn and what they must decide.

A turn is split into decisions, each a move in text (see docs/rules/algo.md):
``pass!`` → (partner) ``show N`` → ``use N`` → ``attack B3=7`` … → ``stay``; ``place N``
puts a card where its owner chooses when the joker rule leaves a choice. Drawing from the
pile is part of the state transition: the pile order is fixed by the seed at the deal.
"""

from __future__ import annotations

import itertools
import marshal
import re
from collections.abc import Sequence
from typing import TypedDict, Unpack, cast

from ...core import MalformedMoveError, Outcome, State, Why, why
from ...core.jsontypes import JSONMapping, JSONObject
from .cards import (
    COLOUR_LETTERS,
    JOKER_NUMBER,
    card_name,
    insert_positions,
)
from .views import (
    AlgoBoard,
    AlgoView,
    HandView,
    LogEvent,
    PlacingView,
    RulesView,
    SlotView,
)

SETUP, PASS, SHOW, USE, ATTACK, PLACE, OVER = (
    "setup", "pass", "show", "use", "attack", "place", "over")
SEAT_LETTERS = "ABCDEFGHIJKL"
WHY: dict[str, str] = {
    # end reasons (``pair`` is two seat letters joined by +, ``seat`` one letter)
    "algo.pair": "pair {a}+{b} turned up both enemy rows",
    "algo.last": "{seat} has the last face-down card",
    # malformed moves
    "algo.notation": "this is not an Algo move; write e.g. 'attack B3=7', 'stay', 'pass!', "
                     "'show 2', 'use 2' or 'place 3'",
    "algo.one_position": "{kind} takes one position",
    # a refused move's rule (``step`` is the phase: setup, pass, show, use, attack, place)
    "algo.own_row": "you attack another player's row, not your own",
    "algo.partner": "in pair play you attack only the two enemies, never your partner",
    "algo.out": "player {seat} is out: every card is face up",
    "algo.row_length": "row {seat} has only {n} cards",
    "algo.face_up": "that card is already face up; attack a face-down card",
    "algo.number_range": "numbers run from 0 to 11",
    "algo.stay_early": "you may stay only after at least one hit this turn",
    "algo.not_face_down": "position {pos} is not one of the face-down cards of the row",
    "algo.joker_places": "give one final position (1..{n}) for each of your jokers, all "
                         "different",
    "algo.order": "that place breaks the order: non-joker cards stay in ascending order "
                  "(black before white on equal numbers)",
    "algo.wrong_step": "this is the {step} step; another kind of move is expected",
}
"""The English of every code Algo emits."""
_PHASE_NUMBER = {p: i for i, p in enumerate((SETUP, PASS, SHOW, USE, ATTACK, PLACE, OVER))}

Slot = tuple[int, int, bool]          # (slot id, card key, face up)
Row = tuple[Slot, ...]
AlgoMove = tuple[str, *tuple[int, ...]]
LogEntry = tuple[str, int, *tuple[int, ...]]
"""A public event as the state keeps it: its kind, then seats, ids, positions, numbers and
flags (``("attack", seat, target, pos, sid, value, hit)``, ``("insert", seat, sid, pos, up,
card or -1)``, ``("draw", seat, colour)``, ``("show"|"use", seat, sid)``, ``("pass"|"stay"|
"out", seat)``); ``_log_view`` turns it into the view's words."""
# ("attack", target seat, position 0-based, number) | ("stay",) | ("pass",)
# | ("show", position) | ("use", position) | ("place", position)

_ATTACK_RE = re.compile(r"^attack\s+([a-l])\s*(\d{1,2})\s*=\s*(\d{1,2})$")
_POS_RE = re.compile(r"^(show|use|place)\s+(\d{1,2}(?:\s+\d{1,2})*)$")


def seat_letter(seat: int) -> str:
    return SEAT_LETTERS[seat]


class _Changes(TypedDict, total=False):
    """The fields a successor state may change (``AlgoState._copy``)."""

    rows: tuple[Row, ...]
    pile: tuple[int, ...]
    pile_pos: int
    turn: int
    phase: str
    hand: int
    held: int
    hits: int
    out: tuple[int, ...]
    fails: tuple[int, ...]
    seen: tuple[frozenset[int], ...]
    chips: tuple[int, ...]
    log: tuple[LogEntry, ...]
    next_id: int
    placing: tuple[int, int, bool] | None
    setup: tuple[tuple[int, ...], ...]
    bonus: tuple[int, ...]


_COPIED = ("_o", "n", *_Changes.__annotations__)


class AlgoState(State[AlgoMove]):
    """An immutable Algo position. Never mutate a field after construction."""

    __slots__ = ("_o", "n", "rows", "pile", "pile_pos", "turn", "phase", "hand", "held",
                 "hits", "out", "fails", "seen", "chips", "log", "next_id", "placing",
                 "setup", "bonus", "_legal_cache")

    def __init__(self, options: JSONMapping, rows: tuple[Row, ...],
                 pile: tuple[int, ...], pile_pos: int, turn: int, phase: str,
                 hand: int = -1, held: int = -1, hits: int = 0, out: tuple[int, ...] = (),
                 fails: tuple[int, ...] = (), seen: tuple[frozenset[int], ...] = (),
                 chips: tuple[int, ...] = (), log: tuple[LogEntry, ...] = (),
                 next_id: int = 0, placing: tuple[int, int, bool] | None = None,
                 setup: tuple[tuple[int, ...], ...] = (),
                 bonus: tuple[int, ...] = ()) -> None:
        self._o = options
        self.n = len(rows)
        self.rows = rows
        self.pile = pile
        self.pile_pos = pile_pos
        self.turn = turn
        self.phase = phase
        self.hand = hand          # drawn card being used to attack, -1 if none
        self.held = held          # slot id of an own card used to attack, -1 if none
        self.hits = hits          # hits made this turn (``stay`` needs at least one)
        self.out = out            # seats in the order they went out
        self.fails = fails        # per slot id: bitmask of numbers named there and missed
        self.seen = seen or tuple(frozenset() for _ in rows)
        self.chips = chips or (0,) * len(rows)
        self.bonus = bonus or (0,) * len(rows)   # chips for hits made with a 6: secret
        # until the end, since paying them at once would show the attack card is a 6
        self.log = log
        self.next_id = next_id
        self.placing = placing    # (seat, card, face up) waiting for ``place N``
        self.setup = setup or tuple(() for _ in rows)
        self._legal_cache: list[AlgoMove] | None = None

    def _copy(self, **changes: Unpack[_Changes]) -> AlgoState:
        # every field of _COPIED, written out: search and the OpenSpiel bridge copy a state
        # several times a move, and a getattr/setattr loop costs twice as much
        st = object.__new__(AlgoState)
        st._o, st.n, st.rows, st.pile, st.pile_pos = (
            self._o, self.n, self.rows, self.pile, self.pile_pos)
        st.turn, st.phase, st.hand, st.held, st.hits = (
            self.turn, self.phase, self.hand, self.held, self.hits)
        st.out, st.fails, st.seen, st.chips, st.log = (
            self.out, self.fails, self.seen, self.chips, self.log)
        st.next_id, st.placing, st.setup, st.bonus = (
            self.next_id, self.placing, self.setup, self.bonus)
        st._legal_cache = None
        for name, value in changes.items():
            setattr(st, name, value)
        return st

    # ---- facts ---------------------------------------------------------------------------
    @property
    def options(self) -> JSONMapping:
        return self._o

    @property
    def colours(self) -> int:
        return int(self._o["colours"])

    @property
    def jokers(self) -> bool:
        return bool(self._o["jokers"])

    @property
    def pair(self) -> bool:
        return bool(self._o["mode"] == "pair")

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def enemies(self, seat: int) -> list[int]:
        """Seats ``seat`` may attack: everyone else, or in pair play the two enemies."""
        if self.pair:
            return [(seat + 1) % 4, (seat + 3) % 4]
        return [s for s in range(self.n) if s != seat]

    def is_out(self, seat: int) -> bool:
        """A player whose every card is face up is out (and skipped)."""
        return seat in self.out

    def row_keys(self, seat: int) -> list[int]:
        return [k for _, k, _ in self.rows[seat]]

    def slot_of(self, sid: int) -> tuple[int, int]:
        for seat, row in enumerate(self.rows):
            for pos, slot in enumerate(row):
                if slot[0] == sid:
                    return seat, pos
        raise KeyError(sid)

    def attack_card(self) -> int:
        if self.hand >= 0:
            return self.hand
        seat, pos = self.slot_of(self.held)
        return self.rows[seat][pos][1]

    def pile_left(self) -> int:
        return len(self.pile) - self.pile_pos

    # ---- protocol hooks --------------------------------------------------------------------
    def _acting(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == SHOW:
            return (self.partner(self.turn),)
        if self.phase == PLACE and self.placing is not None:
            return (self.placing[0],)
        return (self.turn,)

    def _legal(self, seat: int) -> Sequence[AlgoMove]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return self._legal_cache

    def _compute_legal(self) -> list[AlgoMove]:
        if self.phase == PASS:
            return [("pass",)]
        if self.phase == SHOW:
            row = self.rows[self.partner(self.turn)]
            return [("show", p) for p, s in enumerate(row) if not s[2]]
        if self.phase == USE:
            return [("use", p) for p, s in enumerate(self.rows[self.turn]) if not s[2]]
        if self.phase == SETUP:
            return setup_moves(len(self.rows[self.turn]), self.setup[self.turn])
        if self.phase == PLACE:
            assert self.placing is not None
            seat, card, _ = self.placing
            return [("place", p) for p in insert_positions(
                self.row_keys(seat), card, self.colours, self.jokers)]
        moves: list[AlgoMove] = []
        for target in self.enemies(self.turn):
            if self.is_out(target):
                continue
            for pos, slot in enumerate(self.rows[target]):
                if not slot[2]:
                    moves.extend(_attacks(target, pos))
        if self.hits:
            moves.append(("stay",))
        return moves

    def _move_text(self, move: AlgoMove, seat: int | None) -> str:
        kind, *args = move
        if kind == "attack":
            return f"attack {seat_letter(args[0])}{args[1] + 1}={args[2]}"
        if kind in ("show", "use", "place"):
            return f"{kind} " + " ".join(str(p + 1) for p in args)
        return {"pass": "pass!", "ready": "ready"}.get(kind, "stay")

    def _parse(self, text: str, seat: int) -> AlgoMove:
        t = " ".join(text.strip().lower().split())
        if t in ("stay", "ステイ"):
            return ("stay",)
        if t in ("pass!", "pass", "パス！", "パス"):
            return ("pass",)
        if t == "ready":
            return ("ready",)
        m = _ATTACK_RE.match(t)
        if m:
            target = SEAT_LETTERS.lower().index(m.group(1))
            return ("attack", target, int(m.group(2)) - 1, int(m.group(3)))
        m = _POS_RE.match(t)
        if m:
            numbers = tuple(int(x) - 1 for x in m.group(2).split())
            if m.group(1) != "place" and len(numbers) > 1:
                    raise MalformedMoveError(f"{text!r}: {m.group(1)} takes one position",
                                         move=text,
                                         why=why(WHY, "algo.one_position", kind=m.group(1)))
            return (m.group(1), *numbers)
        raise MalformedMoveError(
            f"{text!r} is not an Algo move; write e.g. 'attack B3=7', 'stay', 'pass!', "
            "'show 2', 'use 2' or 'place 3'", move=text, why=why(WHY, "algo.notation"))

    def _why_illegal(self, move: AlgoMove, seat: int) -> Why:
        kind = move[0]
        if kind == "attack" and self.phase == ATTACK:
            target, pos, value = move[1:][:3]
            if target >= self.n or target == seat:
                return why(WHY, "algo.own_row")
            if target not in self.enemies(seat):
                return why(WHY, "algo.partner")
            if self.is_out(target):
                return why(WHY, "algo.out", seat=seat_letter(target))
            if pos >= len(self.rows[target]) or pos < 0:
                return why(WHY, "algo.row_length", seat=seat_letter(target),
                           n=len(self.rows[target]))
            if self.rows[target][pos][2]:
                return why(WHY, "algo.face_up")
            if not 0 <= value < 12:
                return why(WHY, "algo.number_range")
        if kind == "stay" and self.phase == ATTACK:
            return why(WHY, "algo.stay_early")
        if kind in ("show", "use") and self.phase in (SHOW, USE):
            return why(WHY, "algo.not_face_down", pos=move[1:][0] + 1)
        if kind == "place" and self.phase == SETUP:
            return why(WHY, "algo.joker_places", n=len(self.rows[seat]) + len(self.setup[seat]))
        if kind == "place" and self.phase == PLACE:
            return why(WHY, "algo.order")
        return why(WHY, "algo.wrong_step", step=self.phase)

    # ---- applying ---------------------------------------------------------------------------
    def _apply(self, move: AlgoMove, seat: int) -> AlgoState:
        kind, *args = move
        if kind == "pass":
            return self._copy(phase=SHOW, log=self.log + (("pass", seat),))
        if kind == "show":
            partner = self.partner(self.turn)
            sid = self.rows[partner][args[0]][0]
            seen = list(self.seen)
            seen[self.turn] = seen[self.turn] | {sid}
            return self._copy(phase=USE, seen=tuple(seen),
                              log=self.log + (("show", partner, sid),))
        if kind == "use":
            sid = self.rows[seat][args[0]][0]
            return self._copy(phase=ATTACK, held=sid, log=self.log + (("use", seat, sid),))
        if kind == "ready" or (kind == "place" and self.phase == SETUP):
            return self._arrange(tuple(args))
        if kind == "place":
            assert self.placing is not None
            owner, card, up = self.placing
            return self._insert(owner, card, up, args[0])._end_turn()
        if kind == "stay":
            return self._copy(log=self.log + (("stay", seat),))._put_back(up=False)
        return self._attack(seat, args[0], args[1], args[2])

    def _attack(self, seat: int, target: int, pos: int, value: int) -> AlgoState:
        sid, card, _ = self.rows[target][pos]
        hit = card // self.colours == value
        entry = ("attack", seat, target, pos, sid, value, hit)
        if not hit:
            fails = list(self.fails)
            fails[sid] |= 1 << value
            st = self._copy(fails=tuple(fails), log=self.log + (entry,))
            return st._put_back(up=True)
        rows = list(self.rows)
        rows[target] = _turn_up(rows[target], pos)
        chips = list(self.chips)
        chips[seat] += 10
        bonus = list(self.bonus)
        bonus[seat] += 10 if self.attack_card() // self.colours == JOKER_NUMBER else 0
        st = self._copy(rows=tuple(rows), chips=tuple(chips), bonus=tuple(bonus),
                        hits=self.hits + 1,
                        log=self.log + (entry,))
        st = st._mark_out(target)
        if st._winners() is not None:
            return st._finish()
        return st

    def _put_back(self, up: bool) -> AlgoState:
        """End of the attack: the drawn card joins the row (face up after a miss), or the
        own attack card goes back (turned up after a miss)."""
        seat = self.turn
        if self.hand >= 0:
            card = self.hand
            places = insert_positions(self.row_keys(seat), card, self.colours, self.jokers)
            st = self._copy(hand=-1)
            if len(places) == 1 and not self.jokers:
                return st._insert(seat, card, up, places[0])._end_turn()
            # with jokers every placement is a decision, so that a choice (which would
            # betray a joker nearby) looks the same as no choice
            return st._copy(phase=PLACE, placing=(seat, card, up))
        st = self
        if up:
            rows = list(self.rows)
            s, pos = self.slot_of(self.held)
            rows[s] = _turn_up(rows[s], pos)
            st = self._copy(rows=tuple(rows))._mark_out(seat)
        st = st._copy(held=-1)
        if st._winners() is not None:
            return st._finish()
        return st._end_turn()

    def _insert(self, seat: int, card: int, up: bool, pos: int) -> AlgoState:
        rows = list(self.rows)
        sid = self.next_id
        rows[seat] = rows[seat][:pos] + ((sid, card, up),) + rows[seat][pos:]
        entry = ("insert", seat, sid, pos, up, card if up else -1)
        return self._copy(rows=tuple(rows), next_id=sid + 1, fails=self.fails + (0,),
                          placing=None, log=self.log + (entry,))

    def _arrange(self, positions: tuple[int, ...]) -> AlgoState:
        """A seat lays out its dealt row, its jokers at the chosen final positions."""
        seat = self.turn
        jokers = self.setup[seat]
        normal = iter(self.rows[seat])
        by_pos = dict(zip(positions, jokers, strict=True))
        row = []
        next_id = self.next_id
        for p in range(len(self.rows[seat]) + len(jokers)):
            if p in by_pos:
                row.append((next_id, by_pos[p], False))
                next_id += 1
            else:
                row.append(next(normal))
        rows = list(self.rows)
        rows[seat] = tuple(row)
        setup = list(self.setup)
        setup[seat] = ()
        st = self._copy(rows=tuple(rows), setup=tuple(setup), next_id=next_id,
                        fails=self.fails + (0,) * (next_id - self.next_id))
        nxt = (seat + 1) % self.n
        if nxt == int(self._o["first"]) % self.n:
            return st._renumber()._copy(turn=nxt)._begin_turn()
        return st._copy(turn=nxt)

    def _renumber(self) -> AlgoState:
        """Fresh card ids in table order once every row is laid out, so that no id tells
        which card was placed as a joker."""
        rows = []
        sid = 0
        for row in self.rows:
            new = []
            for _, k, up in row:
                new.append((sid, k, up))
                sid += 1
            rows.append(tuple(new))
        return self._copy(rows=tuple(rows), fails=(0,) * sid, next_id=sid)

    def _next_setup(self, first: int) -> AlgoState:
        """With the joker rule every seat, in turn from the first player, lays out its row
        (``ready``, or ``place N …`` for its jokers); otherwise play starts at once."""
        if self.jokers:
            return self._copy(phase=SETUP, turn=first)
        return self._copy(turn=first)._begin_turn()

    def _mark_out(self, seat: int) -> AlgoState:
        if seat in self.out or any(not s[2] for s in self.rows[seat]):
            return self
        return self._copy(out=self.out + (seat,), log=self.log + (("out", seat),))

    def _end_turn(self) -> AlgoState:
        if self._winners() is not None:
            return self._finish()
        nxt = self.turn
        for _ in range(self.n):
            nxt = (nxt + 1) % self.n
            if not self.is_out(nxt):
                break
        return self._copy(turn=nxt, hits=0, held=-1, hand=-1)._begin_turn()

    def _begin_turn(self) -> AlgoState:
        seat = self.turn
        if self.pair:
            if not self.is_out(self.partner(seat)):
                return self._copy(phase=PASS)
            return self._copy(phase=USE)
        if self.pile_pos < len(self.pile):
            card = self.pile[self.pile_pos]
            return self._copy(phase=ATTACK, hand=card, pile_pos=self.pile_pos + 1,
                              log=self.log + (("draw", seat, card % self.colours),))
        return self._copy(phase=USE)

    def _winners(self) -> tuple[int, ...] | None:
        """Basic game: the last player with a face-down card. Pair play: the pair that
        first turns up both enemies' rows."""
        if self.pair:
            for team in ((0, 2), (1, 3)):
                other = tuple(s for s in range(4) if s not in team)
                if all(self.is_out(s) for s in other):
                    return team
            return None
        alive = [s for s in range(self.n) if not self.is_out(s)]
        return tuple(alive) if len(alive) <= 1 else None

    def _finish(self) -> AlgoState:
        st = self
        if st.hand >= 0:   # the game ended on a hit: the drawn card is kept face down
            places = insert_positions(st.row_keys(st.turn), st.hand, st.colours, st.jokers)
            st = st._copy(hand=-1)._insert(st.turn, st.hand, False, places[0])
        return st._copy(phase=OVER, held=-1, placing=None)

    def survivor_chips(self, seat: int) -> int:
        """10 per face-down card, 10 more if a 6 is still face down (chip scoring)."""
        down = [k for _, k, up in self.rows[seat] if not up]
        bonus = 10 if any(k // self.colours == JOKER_NUMBER for k in down) else 0
        return 10 * len(down) + bonus

    def _outcome(self) -> Outcome | None:
        winners = self._winners()
        if self.phase != OVER or winners is None:
            return None
        chips = [c + b + (self.survivor_chips(s) if s in winners else 0)
                 for s, (c, b) in enumerate(zip(self.chips, self.bonus, strict=True))]
        if self.pair:
            keys = [1 if s in winners else 0 for s in range(self.n)]
            a, b = (list(map(seat_letter, winners)) + ["-", "-"])[:2]
            reason = why(WHY, "algo.pair", a=a, b=b)
        else:
            keys = [self.n if s in winners else self.out.index(s) for s in range(self.n)]
            reason = why(WHY, "algo.last", seat=seat_letter(winners[0]) if winners else "-")
        scores = chips if self._o["chips"] else [float(k) for k in keys]
        return Outcome.from_scores(scores, reason, keys=keys)

    # ---- views -----------------------------------------------------------------------------
    def knows(self, seat: int | None, owner: int, sid: int, up: bool) -> bool:
        """Whether ``seat`` (None: a spectator) may see the number of card ``sid``: a card
        face up, its owner's own card, a card shown to it — and every card once the game is
        over (the table turns every row face up at the end: docs/rules/algo.md, "End")."""
        return (up or self.phase == OVER
                or (seat is not None and (seat == owner or sid in self.seen[seat])))

    def _slot_view(self, seat: int | None, owner: int, slot: Slot) -> SlotView:
        sid, card, up = slot
        out: SlotView = {"id": sid, "colour": COLOUR_LETTERS[card % self.colours],
                               "up": up}
        if self.knows(seat, owner, sid, up):
            out["number"] = card // self.colours
        if seat is not None and sid in self.seen[seat]:
            out["seen"] = True
        if self.phase == OVER and not up:
            out["revealed"] = True  # face down when the game ended, shown to all after it
        if self.fails[sid]:
            out["not"] = [v for v in range(12) if self.fails[sid] >> v & 1]
        if sid == self.held:
            out["held"] = True
        return out

    def view(self, seat: int | None) -> AlgoView:
        return cast(AlgoView, super().view(seat))

    def _view(self, seat: int | None) -> AlgoBoard:
        c = self.colours
        pile = self.pile[self.pile_pos:]
        rules = cast(RulesView, {k: self._o[k] for k in ("mode", "colours", "sets", "jokers",
                                                           "chips")})
        view: AlgoBoard = {
            "rules": rules,
            "phase": self.phase,
            "turn": self.turn,
            "rows": [[self._slot_view(seat, owner, s) for s in row]
                     if self.phase != SETUP or owner == seat else []
                     for owner, row in enumerate(self.rows)],
            "pile": {"size": len(pile),
                     "colours": {COLOUR_LETTERS[x]: sum(1 for k in pile if k % c == x)
                                 for x in range(c)}},
            "hand": None,
            "placing": None,
            "hits": self.hits,
            "out": list(self.out),
            "chips": list(self.chips) if self.phase != OVER else [
                c + b for c, b in zip(self.chips, self.bonus, strict=True)],
            "log": [self._log_view(e) for e in self.log],
        }
        if self.phase == OVER:
            # the rest of the pile is shown too: nothing stays secret after the game
            view["pile"]["cards"] = [card_name(k, c) for k in pile]
        if self.hand >= 0:
            hand: HandView = {"colour": COLOUR_LETTERS[self.hand % c]}
            if seat == self.turn or self.phase == OVER:
                hand["number"] = self.hand // c
            view["hand"] = hand
        if self.placing is not None:
            owner, card, up = self.placing
            placing: PlacingView = {"seat": owner, "colour": COLOUR_LETTERS[card % c], "up": up}
            if up or seat == owner or self.phase == OVER:
                placing["number"] = card // c
            view["placing"] = placing
        if seat is not None and self.setup[seat]:
            view["my_setup"] = [card_name(k, c) for k in self.setup[seat]]
        if seat is not None and self._o.get("aid"):
            from .infer import infer_view  # computed from this very view: nothing extra leaks

            view["aid"] = infer_view(view).to_json()
        return view

    def view_key(self, seat: int, log_from: int = 0) -> bytes:
        """``view(seat)`` as short canonical bytes, its log only from entry ``log_from`` on —
        for the OpenSpiel information state, which chains one key per step with the log
        entries added since the step before (the log only grows). Built from the same facts
        as :meth:`_view` and nothing else, so two states give the same key exactly when their
        views are equal (log entries before ``log_from`` aside): a number appears only where
        the view shows it (else ``-1 - colour``), the pile only as its colour counts (and its
        cards once the game is over), the chips as the view gives them; the numbers missed
        on a card (``not``) and the card held to attack are public once the rows are laid
        out. ``rules``, ``game``, ``seats`` are fixed by the game and ``seat`` by the caller;
        ``to_move``, the legal moves, the outcome and ``aid`` follow from the rest of the
        view. tests/algo/test_views.py checks the equivalence on random play of every
        variant. Ints, bools, None and tuples only, in marshal's format 2 (no
        back-references), so equal contents give equal bytes."""
        c = self.colours
        over = self.phase == OVER
        setup = self.phase == SETUP
        seen = self.seen[seat]
        rows: list[tuple[tuple[int, int, bool], ...] | None] = []
        for owner, row in enumerate(self.rows):
            if owner == seat or over:
                rows.append(row)
            elif setup:
                rows.append(None)
            elif seen:
                rows.append(tuple((sid, card if up or sid in seen else -1 - card % c, up)
                                  for sid, card, up in row))
            else:
                rows.append(tuple((sid, card if up else -1 - card % c, up)
                                  for sid, card, up in row))
        hand = None if self.hand < 0 else (
            self.hand if seat == self.turn or over else -1 - self.hand % c)
        placing = None
        if self.placing is not None:
            owner, card, up = self.placing
            placing = (owner, card if (up or seat == owner or over) else -1 - card % c, up)
        chips = self.chips if not over else tuple(
            a + b for a, b in zip(self.chips, self.bonus, strict=True))
        log = tuple(_log_key(e, c) for e in self.log[log_from:]) if log_from < len(
            self.log) else ()
        return marshal.dumps((_PHASE_NUMBER[self.phase], self.turn, self.hits, self.out,
                              chips, _pile_colours(self.pile, c)[self.pile_pos],
                              self.pile[self.pile_pos:] if over else None, hand, placing,
                              self.setup[seat], None if setup else self.fails, self.held,
                              tuple(sorted(seen)), tuple(rows), log), 2)

    def view_step_key(self, seat: int, before: AlgoState | None) -> bytes:
        """Short canonical bytes that, after ``before``'s (the state one step earlier, or
        ``None`` at the first), tell ``view(seat)`` exactly: :meth:`view_key` with the log
        entries added since ``before`` (the log only grows)."""
        return self.view_key(seat, 0 if before is None else len(before.log))

    def _log_view(self, e: LogEntry) -> LogEvent:
        """The event in the view's words (``hit``/``up`` are kept as the bools the log
        holds; ``LogEntry`` types them as the ints they also are)."""
        kind, seat, *x = e
        out: JSONObject
        if kind == "attack":          # target, pos, sid, value, hit
            out = {"event": "attack", "seat": seat, "target": x[0], "pos": x[1] + 1,
                   "id": x[2], "name": x[3], "hit": x[4]}
        elif kind == "insert":        # sid, pos, up, card or -1
            out = {"event": "insert", "seat": seat, "id": x[0], "pos": x[1] + 1, "up": x[2]}
            if x[2]:
                out["number"] = x[3] // self.colours
        elif kind == "draw":          # colour
            out = {"event": "draw", "seat": seat, "colour": COLOUR_LETTERS[x[0]]}
        elif kind in ("use", "show"):  # sid
            out = {"event": kind, "seat": seat, "id": x[0]}
        else:
            out = {"event": kind, "seat": seat}
        return cast(LogEvent, out)

    def _full(self) -> JSONObject:
        c = self.colours
        data: JSONObject = dict(self._view(None))
        data["rows_full"] = [[card_name(k, c) + ("" if up else "*") for _, k, up in row]
                             for row in self.rows]
        data["pile_full"] = [card_name(k, c) for k in self.pile[self.pile_pos:]]
        if self.hand >= 0:
            data["hand_full"] = card_name(self.hand, c)
        return data


_PILE_COLOURS: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}


_ATTACKS: dict[tuple[int, int], tuple[AlgoMove, ...]] = {}


def _attacks(target: int, pos: int) -> tuple[AlgoMove, ...]:
    """The twelve attacks on one card, made once (moves are immutable tuples)."""
    out = _ATTACKS.get((target, pos))
    if out is None:
        out = _ATTACKS[(target, pos)] = tuple(("attack", target, pos, v) for v in range(12))
    return out


_EVENT_NUMBER = {k: i for i, k in enumerate(
    ("attack", "insert", "draw", "show", "use", "pass", "stay", "out"))}


def _log_key(e: LogEntry, colours: int) -> tuple[int, ...]:
    """A log entry as its view shows it (``_log_view``), in numbers: an insert shows the
    card's number only, and only face up."""
    kind, *rest = e
    if kind == "insert":  # seat, sid, pos, up, card or -1
        seat, sid, pos, up, card = rest
        return (1, seat, sid, pos, up, card // colours if up else -1)
    return (_EVENT_NUMBER[kind], *rest)


def _pile_colours(pile: tuple[int, ...], colours: int) -> list[tuple[int, ...]]:
    """Per pile position, the colour counts of the cards still in the pile (what a view
    shows of the pile), worked out once per deal and kept for a few thousand deals."""
    out = _PILE_COLOURS.get((pile, colours))
    if out is None:
        if len(_PILE_COLOURS) >= 4096:
            _PILE_COLOURS.clear()
        counts = [0] * colours
        out = [tuple(counts)]
        for k in reversed(pile):
            counts[k % colours] += 1
            out.append(tuple(counts))
        out.reverse()
        _PILE_COLOURS[(pile, colours)] = out
    return out


def _turn_up(row: Row, pos: int) -> Row:
    sid, card, _ = row[pos]
    return row[:pos] + ((sid, card, True),) + row[pos + 1:]


def setup_moves(normal: int, jokers: tuple[int, ...]) -> list[AlgoMove]:
    """``ready`` without jokers; else every choice of distinct final positions for the
    jokers (identical jokers, from two sets, in increasing positions only)."""
    if not jokers:
        return [("ready",)]
    size = normal + len(jokers)
    out: list[AlgoMove] = []
    for combo in itertools.permutations(range(size), len(jokers)):
        if all(combo[i] < combo[i + 1] for i in range(len(jokers) - 1)
               if jokers[i] == jokers[i + 1]):
            out.append(("place", *combo))
    return out
