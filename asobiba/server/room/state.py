"""A live room's state: the game cache (states rebuilt from the stored moves), the seats'
views, what the table shows (``public``) and the update messages built from it. The flows
that change it live beside it, one concern each (moves, clock, offers, presence, bots,
persistence, bus); this module only reads."""

from __future__ import annotations

import asyncio
import hmac
from typing import cast

from ...core import Game, MoveEntry, Record, SeatInfo, State
from ...core.jsontypes import JSONObject
from ...progression.matches import Match
from .. import clock as clocks
from ..db import MoveData, RoomData, SetData, utcnow
from ..wire import dumps
from . import clock as room_clock
from . import presence, sets
from .conn import Conn
from .keys import hash_key
from .notes import Note


class Room:
    """A live room. States are rebuilt by replaying the stored moves, so the store is the
    truth and this object is a cache of it plus the connections."""

    def __init__(self, data: RoomData, game: Game, cpu_seed: int) -> None:
        self.id = data.id
        self.data = data
        self.cpu_seed = cpu_seed
        """What seeds the CPU's choices in this room (:func:`cpu_seed`): secret until the
        game is over, then in its record (``extra.cpu_seed``) so its moves can be checked."""
        self.game = game
        self.seats = data.seats
        self.moves: list[MoveData] = list(data.moves)
        start = game.new_game(data.options, data.seed)
        self.options = dict(start.options)
        self.states: list[State] = [start]
        for m in self.moves:
            self.states.append(self.states[-1].play(m.text, m.seat))
        self.status = data.status
        self.result = data.result
        self.rematch_id = data.rematch_id
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.version = 0
        self.history = 0
        """Counts the times moves were taken back or replaced (undo, a reload that differs):
        a connection sent moves before that gets the whole list again."""
        self.undo: JSONObject | None = None
        self.rematch_offers: set[int] = set()
        self.away_since: dict[int, float] = {}
        self.joined: set[int] = set()
        """Person's seats that have had a connection at least once (.presence.joined)."""
        self.claim_after = 60.0
        """Seconds a joined seat must be gone before it may be claimed against (the hub's
        fair-play policy; set when the room is built)."""
        """Person's seat -> since when no connection holds it (server.fairplay)."""
        self.rematch_hashes: dict[int, str] = {}
        """Rematch seat -> hash of the key its offering holder will get there: fixed at the
        offer, so the rematch no longer depends on the offerer staying connected."""
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.notes: list[Note] = []
        """What the table was told besides moves, as codes (:mod:`.notes`)."""
        self.flag_task: asyncio.Task[None] | None = None
        self._views: dict[int, list[JSONObject]] = {}
        self._views_epoch = 0  # the ``history`` count ``_views`` was made at
        self.match_set: SetData | None = data.match_set
        self.set_index = data.set_index
        self.next_offers: set[int] = set()

    # ---- derived facts -------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    @property
    def can_undo(self) -> bool:
        """Undo only in casual games where taking a move back reveals nothing new."""
        return (self.data.casual and self.game.perfect_information and not self.game.chance)

    def online(self) -> set[int]:
        """The seats with a connection to any process: this one, or another heard from
        lately (:func:`..shared.online`)."""
        from ..shared import online as online_anywhere

        return online_anywhere(self)

    def check_key(self, seat: int, key: str) -> bool:
        if not (0 <= seat < len(self.seats)):
            return False
        stored = self.seats[seat].key_hash
        return stored is not None and hmac.compare_digest(stored, hash_key(key))

    def views_for(self, seat: int) -> list[JSONObject]:
        """Every view ``seat`` has received, in order (what a bot in it has observed)."""
        if self._views_epoch != self.history:  # moves taken back or replaced since
            self._views.clear()
            self._views_epoch = self.history
        cache = self._views.setdefault(seat, [])
        del cache[len(self.states):]
        for st in self.states[len(cache):]:
            cache.append(cast(JSONObject, st.view(seat)))
        return list(cache)

    def clock_running(self) -> int | None:
        acting = self.state.acting_seats
        return acting[0] if self.status == "active" and len(acting) == 1 else None

    def clock_view(self) -> JSONObject | None:
        if not self.data.clock:
            return None
        return clocks.view(self.data.clock, len(self.seats), self.data.created, self.moves,
                           self.clock_running(), room_clock.clock_now())

    # ---- the set (reverse match / best-of-N) this room is a game of (.sets) -------------
    def set_match(self) -> Match | None:
        return sets.set_match(self)

    def set_over(self) -> bool:
        return sets.set_over(self)

    def next_room(self) -> str | None:
        return sets.next_room(self)

    def set_after(self, final: State, result: JSONObject, forfeit: int | None = None
                  ) -> JSONObject | None:
        return sets.set_after(self, final, result, forfeit)

    def set_view(self) -> JSONObject | None:
        return sets.set_view(self)

    def natural_result(self, state: State) -> JSONObject | None:
        outcome = state.outcome
        return outcome.to_json() if outcome else None

    def record(self, extra: JSONObject | None = None) -> Record:
        state = self.state
        # the seed the CPU actually used (rooms with a CPU seat), so its moves can be checked
        cpu: JSONObject = ({"cpu_seed": self.cpu_seed}
                           if any(s.kind == "bot" for s in self.seats) else {})
        return Record(
            game=self.game.id, options=dict(self.options), seed=self.data.seed,
            moves=tuple(MoveEntry(m.seat, m.text) for m in self.moves),
            seats=tuple(SeatInfo(s.kind, s.name, s.level) for s in self.seats),
            result=state.outcome, rules_version=self.game.rules_version,
            started=self.data.created, finished=utcnow(),
            # the time control the game was played under (the record keeps it)
            extra={"room": self.id, **cpu,
                   **({"clock": dict(self.data.clock)} if self.data.clock else {}),
                   **(extra or {})},
        )

    def public_moves(self, start: int = 0) -> list[list[int | str | None]]:
        """The move list everyone may see, from ply ``start`` on: each move's seat, and its
        text only in games of perfect information."""
        if self.game.perfect_information:
            return [[m.seat, m.text] for m in self.moves[start:]]
        return [[m.seat, None] for m in self.moves[start:]]

    def public(self, with_moves: bool = True) -> JSONObject:
        """What everyone at the table may know about the room (never the seed or keys).
        ``with_moves=False``: without the move list (an update adds the part it needs)."""
        online = self.online()  # connected here or at another process
        perfect = self.game.perfect_information
        out: JSONObject = {
            "id": self.id,
            "game": self.game.id,
            "title": {"en": self.game.title_en, "ja": self.game.title_ja},
            "options": self.options,
            "perfect_information": perfect,
            "simultaneous": self.game.simultaneous,
            "casual": self.data.casual,
            "hotseat": self.data.hotseat,
            "status": self.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name,
                       "online": s.kind == "bot" or s.seat in online} for s in self.seats],
            "ply": len(self.moves),
            "moves": None,
            "result": self.result,
            "can_undo": self.can_undo and self.status == "active",
            "undo": self.undo,
            "rematch": {"offers": sorted(self.rematch_offers), "room": self.rematch_id},
            "thinking": sorted(self.bot_tasks),
            "notes": self.notes[-5:],
            "claims": presence.claims(self),
            "clock": self.clock_view(),
            "spectators": sum(1 for c in self.conns if not c.keys),
            "set": self.set_view(),
            "table": self.table_view(),
        }
        if with_moves:
            out["moves"] = self.public_moves()
        return out

    def table_view(self) -> JSONObject:
        """Abort and draw offers (asobiba.server.table, kept out of the room core)."""
        from ..table import public

        return public(self)

    def seat_views(self, seats: list[int]) -> list[JSONObject]:
        """The current view of each of ``seats`` (a spectator's, ``view(None)``, if none):
        all an update may show of the position."""
        return [{"seat": s, "view": self.state.view(s)} for s in seats] or [
            {"seat": None, "view": self.state.view(None)}]

    def message_for(self, conn: Conn, public: JSONObject | None = None,
                    moves_from: int | None = None) -> JSONObject:
        """The update for ``conn``: the room and the views of the seats it holds. With
        ``moves_from``, ``room.moves`` holds only the moves from that ply on (the client
        has the ones before; ``room.moves_from`` says where they start)."""
        seats = sorted(conn.seats)
        views = self.seat_views(seats)
        room = public if public is not None else self.public(with_moves=False)
        if moves_from is None:
            room = {**room, "moves": self.public_moves()}
        else:
            room = {**room, "moves": self.public_moves(moves_from), "moves_from": moves_from}
        return {"type": "update", "room": room, "you": seats, "views": views}

    def update_text(self, conn: Conn, public: JSONObject, moves_from: int | None,
                    room_texts: dict[int | None, str], ack: int | str | None = None) -> str:
        """:meth:`message_for` as JSON text (with ``"ack"`` when given), the room part
        serialised once per broadcast for every connection with the same ``moves_from``
        (``room_texts`` keeps them): in a room of two players, that part — most of an
        update — was serialised twice per move."""
        room = room_texts.get(moves_from)
        if room is None:
            part = {**public, "moves": self.public_moves(moves_from or 0)}
            if moves_from is not None:
                part["moves_from"] = moves_from
            room = room_texts[moves_from] = dumps(part)
        seats = sorted(conn.seats)
        views = self.seat_views(seats)
        tail = "" if ack is None else f',"ack":{dumps(ack)}'
        return (f'{{"type":"update","room":{room},"you":{dumps(seats)},'
                f'"views":{dumps(views)}{tail}}}')

    def delta_start(self, conn: Conn) -> int | None:
        """Where ``conn``'s next update may start its move list (None: send it whole), and
        note that it will have every move after that update."""
        start = conn.moves_sent if (conn.history == self.history
                                    and 0 <= conn.moves_sent <= len(self.moves)) else None
        conn.moves_sent, conn.history = len(self.moves), self.history
        return start
