"""Algo for the learning environments (asobiba.envs).

Seats are seat-relative (offset ``k`` = the seat ``k`` places after the viewer), so one policy
plays every seat. With ``P`` the longest a row can grow (the hand plus the whole pile) the
actions are, in order:

* ``attack``: ``(k * P + position) * 12 + number`` — name ``number`` for the face-down card at
  ``position`` (0-based, left to right) of the row ``k`` seats on;
* ``stay``, ``pass!``, ``ready``;
* ``show p`` (P actions), ``use p`` (P), ``place p`` after an attack (P + 1);
* joker set-up ``place p1 … pj``: one block per joker count ``j``, the positions read as a
  base-``hand`` number.

Only the view is encoded: a face-down card's number appears only where the view shows it
(the viewer's own row, a card a partner showed, a card turned up).

``observe_state`` writes the same values from the state, asking ``AlgoState.knows`` — the
rule the view itself uses — before it writes any number; the drawn card's number only for
the seat whose turn it is, the card waiting for ``place`` only when face up or its owner's,
everything once the game is over, as the view. Flat only: the rows are sequences whose
length changes, not a board.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...core import Game, OptionError, State
from ...core.errors import option_why
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.views import own_seat
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, one_hot
from .cards import COLOUR_LETTERS, NUMBERS, card_name
from .state import OVER, SEAT_LETTERS, SETUP, AlgoMove, AlgoState
from .views import algo_view

PHASES = ("setup", "pass", "show", "use", "attack", "place", "over")
MAX_SETUP_ACTIONS = 200_000


class Codec(_Base[AlgoMove]):
    max_game_length = 2000  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        o = self.options
        n, c, s, hand = int(o["players"]), int(o["colours"]), int(o["sets"]), int(o["hand"])
        self.n, self.c, self.hand = n, c, hand
        self.deck = NUMBERS * c * s
        self.P = hand if o["mode"] == "pair" else self.deck - (n - 1) * hand
        P = self.P
        self.a_stay = n * P * NUMBERS
        self.a_pass, self.a_ready = self.a_stay + 1, self.a_stay + 2
        self.a_show = self.a_stay + 3
        self.a_use = self.a_show + P
        self.a_place = self.a_use + P
        self.a_setup = self.a_place + P + 1
        # joker set-up blocks: j jokers in hand -> hand**j actions
        self.setup_base: dict[int, int] = {}
        at = self.a_setup
        if o["jokers"]:
            for j in range(1, min(hand, c * s) + 1):
                self.setup_base[j] = at
                at += hand ** j
        if at - self.a_setup > MAX_SETUP_ACTIONS:
            raise OptionError(
                f"the Algo encoding cannot number the joker set-up of a hand of {hand} with up "
                f"to {min(hand, c * s)} jokers ({at - self.a_setup} actions); use a smaller "
                "'hand' or fewer 'sets'/'colours' with jokers", option="jokers",
                              why=option_why("option.too_many_actions", option="jokers",
                                             n=at - self.a_setup, max=MAX_SETUP_ACTIONS))
        self.num_actions = at
        slot = 1 + c + 1 + NUMBERS + 1 + NUMBERS + 1
        self.slot_size = slot
        self.fields = (
            Field("rows", n * P * slot,
                  f"per seat offset k (0 = viewer), per position < {P}: present, colour one-hot, "
                  "face up, number one-hot (only if the view shows it), seen, numbers already "
                  "named there and missed, held as attack card"),
            Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
            Field("turn", n, "one-hot seat offset of the player whose turn it is"),
            Field("hand", 1 + c + NUMBERS,
                  "the drawn attack card: present, colour, number (only for its holder)"),
            Field("placing", 1 + n + c + 1 + NUMBERS,
                  "card waiting for 'place': present, owner offset, colour, face up, number"),
            Field("pile", 1 + c, "cards left in the pile and per colour, / deck size"),
            Field("hits", 1, "hits made this turn / deck size"),
            Field("out", n, "1 per seat offset that is out"),
            Field("chips", n, "chips per seat offset / 1000"),
            Field("my_setup", c, "jokers still to place during set-up, per colour / sets"),
        )

    def _off(self, seat: int, view_seat: int) -> int:
        return int((seat - view_seat) % self.n)

    def encode(self, view: JSONMapping) -> JSONObject:
        view = algo_view(view)
        n, c, P, me = self.n, self.c, self.P, own_seat(view)
        rows = np.zeros((n, P, self.slot_size), np.float32)
        for owner, row in enumerate(view["rows"]):
            k = self._off(owner, me)
            for pos, slot in enumerate(row[:P]):
                v = rows[k, pos]
                v[0] = 1
                v[1 + COLOUR_LETTERS.index(slot["colour"])] = 1
                v[1 + c] = slot["up"]
                if "number" in slot:
                    v[2 + c + slot["number"]] = 1
                v[2 + c + NUMBERS] = bool(slot.get("seen"))
                for x in slot.get("not", ()):
                    v[3 + c + NUMBERS + x] = 1
                v[3 + c + 2 * NUMBERS] = bool(slot.get("held"))
        hand = np.zeros(1 + c + NUMBERS, np.float32)
        if view["hand"]:
            hand[0] = 1
            hand[1 + COLOUR_LETTERS.index(view["hand"]["colour"])] = 1
            if "number" in view["hand"]:
                hand[1 + c + view["hand"]["number"]] = 1
        placing = np.zeros(1 + n + c + 1 + NUMBERS, np.float32)
        if view["placing"]:
            p = view["placing"]
            placing[0] = 1
            placing[1 + self._off(p["seat"], me)] = 1
            placing[1 + n + COLOUR_LETTERS.index(p["colour"])] = 1
            placing[1 + n + c] = p["up"]
            if "number" in p:
                placing[2 + n + c + p["number"]] = 1
        pile = view["pile"]
        out = np.zeros(n, np.float32)
        for s in view["out"]:
            out[self._off(s, me)] = 1
        chips = np.zeros(n, np.float32)
        for s, x in enumerate(view["chips"]):
            chips[self._off(s, me)] = x / 1000
        setup = np.zeros(c, np.float32)
        for name in view.get("my_setup", ()):
            setup[COLOUR_LETTERS.index(name[0])] += 1 / self.options["sets"]
        return {
            "rows": rows,
            "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
            "turn": one_hot(self._off(view["turn"], me), n),
            "hand": hand, "placing": placing,
            "pile": [pile["size"] / self.deck]
            + [pile["colours"].get(COLOUR_LETTERS[x], 0) / self.deck for x in range(c)],
            "hits": [view["hits"] / self.deck], "out": out, "chips": chips,
            "my_setup": setup,
        }

    def observe_state(self, state: State[AlgoMove], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, AlgoState):
            return super().observe_state(state, seat)
        n, c, P, slot = self.n, self.c, self.P, self.slot_size
        phase = state.phase
        over = phase == OVER
        out = np.zeros(self.obs_size, np.float32)
        ones: list[int] = []
        seen = state.seen[seat]
        fails, held = state.fails, state.held
        for owner, row in enumerate(state.rows):
            if phase == SETUP and owner != seat:  # the view shows no other row in set-up
                continue
            k = (owner - seat) % n
            for pos, (sid, card, up) in enumerate(row[:P]):
                base = (k * P + pos) * slot
                ones.append(base)
                ones.append(base + 1 + card % c)
                if up:
                    ones.append(base + 1 + c)
                if state.knows(seat, owner, sid, up):
                    ones.append(base + 2 + c + card // c)
                if sid in seen:
                    ones.append(base + 2 + c + NUMBERS)
                f = fails[sid]
                if f:
                    ones.extend(base + 3 + c + NUMBERS + x for x in range(12) if f >> x & 1)
                if sid == held:
                    ones.append(base + 3 + c + 2 * NUMBERS)
        at = n * P * slot
        ones.append(at + PHASES.index(phase))
        at += len(PHASES)
        ones.append(at + (state.turn - seat) % n)
        at += n
        if state.hand >= 0:
            ones.append(at)
            ones.append(at + 1 + state.hand % c)
            if seat == state.turn or over:
                ones.append(at + 1 + c + state.hand // c)
        at += 1 + c + NUMBERS
        if state.placing is not None:
            owner, card, up = state.placing
            ones.append(at)
            ones.append(at + 1 + (owner - seat) % n)
            ones.append(at + 1 + n + card % c)
            if up:
                ones.append(at + 1 + n + c)
            if up or seat == owner or over:
                ones.append(at + 2 + n + c + card // c)
        at += 1 + n + c + 1 + NUMBERS
        out[ones] = 1
        pile = state.pile[state.pile_pos:]
        out[at] = len(pile) / self.deck
        for x in range(c):
            out[at + 1 + x] = sum(1 for k in pile if k % c == x) / self.deck
        at += 1 + c
        out[at] = state.hits / self.deck
        at += 1
        for s in state.out:
            out[at + (s - seat) % n] = 1
        at += n
        chips = state.chips if not over else [
            x + b for x, b in zip(state.chips, state.bonus, strict=True)]
        for s, x in enumerate(chips):
            out[at + (s - seat) % n] = x / 1000
        at += n
        if state.setup[seat]:
            setup = np.zeros(c, np.float32)  # summed as the view path sums it
            for k in state.setup[seat]:
                setup[COLOUR_LETTERS.index(card_name(k, c)[0])] += 1 / self.options["sets"]
            out[at:at + c] = setup
        return out

    def mask_state(self, state: State[AlgoMove], seat: int) -> NDArray[np.int8]:
        """In the attack phase the legal moves are, per face-down card of each enemy still
        in, the twelve numbers (``AlgoState._compute_legal``), then ``stay`` after a hit:
        whole blocks of 12 actions, set as blocks here instead of decoding some hundred
        move tuples one by one (tests hold this equal to the view path's mask)."""
        if not isinstance(state, AlgoState) or state.phase != "attack":
            return super().mask_state(state, seat)
        out = np.zeros(self.num_actions, np.int8)
        if seat != state.turn:
            return out
        n, P = self.n, self.P
        for target in state.enemies(seat):
            if state.is_out(target):
                continue
            k = (target - seat) % n
            for pos, slot in enumerate(state.rows[target][:P]):
                if not slot[2]:
                    base = (k * P + pos) * NUMBERS
                    out[base:base + NUMBERS] = 1
        if state.hits:
            out[self.a_stay] = 1
        return out

    # ---- actions -------------------------------------------------------------------------
    def _number(self, move: AlgoMove, seat: int, phase: str) -> int | None:
        kind, *args = move
        if kind == "attack":
            target, pos, value = args
            if pos >= self.P:
                return None
            return int((self._off(target, seat) * self.P + pos) * NUMBERS + value)
        if kind == "stay":
            return int(self.a_stay)
        if kind == "pass":
            return int(self.a_pass)
        if kind == "ready":
            return int(self.a_ready)
        if kind == "show":
            return int(self.a_show + args[0])
        if kind == "use":
            return int(self.a_use + args[0])
        if kind == "place" and phase == "place":
            return int(self.a_place + args[0])
        if kind == "place":
            positions = args
            base = self.setup_base.get(len(positions))
            if base is None:
                return None
            return int(base + sum(p * self.hand ** i for i, p in enumerate(positions)))
        return None

    def action(self, text: str, view: JSONMapping) -> int | None:
        view = algo_view(view)
        t = text.split()
        kind = t[0]
        if kind == "attack":
            target = SEAT_LETTERS.index(t[1][0].upper())
            pos, value = t[1][1:].split("=")
            move: AlgoMove = ("attack", target, int(pos) - 1, int(value))
        elif kind in ("show", "use", "place"):
            move = (kind, *(int(x) - 1 for x in t[1:]))
        else:
            move = ({"pass!": "pass"}.get(kind, kind),)
        return self._number(move, own_seat(view), view["phase"])

    def legal_actions(self, state: State[AlgoMove], seat: int) -> dict[int, AlgoMove]:
        phase = state.phase  # type: ignore[attr-defined]
        out = {}
        if phase == "attack":  # the common case, numbered inline as in _number
            n, P, stay = self.n, self.P, int(self.a_stay)
            for m in self.moves(state, seat):
                if m[0] == "attack":
                    target, pos, value = m[1:]
                    if pos < P:
                        out[(((target - seat) % n) * P + pos) * NUMBERS + value] = m
                else:
                    out[stay] = m
            return out
        for m in self.moves(state, seat):
            a = self._number(m, seat, phase)
            if a is not None:
                out[a] = m
        return out
