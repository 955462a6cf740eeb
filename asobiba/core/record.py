"""Game records: JSON with the game id, versions, options, seed, seats, moves as text,
result and timestamps. A record replays exactly; a corrupt or tampered one is refused with
a :class:`RecordError` that says what is wrong (a missing field, an illegal move and its
number, a stored result that the moves do not produce)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from .errors import AsobibaError, MoveError, RecordError, record_why
from .jsontypes import JSONMapping, JSONObject
from .protocol import PROTOCOL_VERSION, Game, Outcome, State

RECORD_VERSION = 1
MAX_RECORD_BYTES = 5_000_000


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class SeatInfo:
    """Who sat in a seat: ``kind`` is ``human`` or ``bot``; bots carry their level."""

    kind: str = "human"
    name: str = ""
    level: str | None = None

    def to_json(self) -> JSONObject:
        out: JSONObject = {"kind": self.kind, "name": self.name}
        if self.level is not None:
            out["level"] = self.level
        return out

    @classmethod
    def from_json(cls, data: object) -> SeatInfo:
        if not isinstance(data, Mapping) or data.get("kind") not in ("human", "bot"):
            raise RecordError(f"seat entry {data!r} must have kind 'human' or 'bot'",
                              why=record_why("record.shape", field="seats"))
        level = data.get("level")
        return cls(str(data["kind"]), str(data.get("name", "")),
                   None if level is None else str(level))


@dataclass(frozen=True)
class MoveEntry:
    seat: int
    move: str

    def to_json(self) -> JSONObject:
        return {"seat": self.seat, "move": self.move}


@dataclass(frozen=True)
class Record:
    game: str
    options: JSONMapping
    seed: int
    moves: tuple[MoveEntry, ...] = ()
    seats: tuple[SeatInfo, ...] = ()
    result: Outcome | None = None
    rules_version: int = 1
    started: str = field(default_factory=now_iso)
    finished: str | None = None
    extra: JSONMapping = field(default_factory=dict)

    # ---- building --------------------------------------------------------------------------
    @classmethod
    def from_states(
        cls,
        states: Sequence[State],
        moves: Sequence[MoveEntry],
        seed: int,
        seats: Sequence[SeatInfo] = (),
        started: str | None = None,
    ) -> Record:
        last = states[-1]
        return cls(
            game=last.game.id,
            options=dict(last.options),
            seed=seed,
            moves=tuple(moves),
            seats=tuple(seats),
            result=last.outcome,
            rules_version=last.game.rules_version,
            started=started or now_iso(),
            finished=now_iso() if last.is_over else None,
        )

    # ---- JSON ------------------------------------------------------------------------------
    def to_json(self) -> JSONObject:
        out: JSONObject = {
            "format": "asobiba-record",
            "record_version": RECORD_VERSION,
            "protocol_version": PROTOCOL_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": [s.to_json() for s in self.seats],
            "moves": [m.to_json() for m in self.moves],
            "result": self.result.to_json() if self.result else None,
            "started": self.started,
            "finished": self.finished,
        }
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"record is larger than {MAX_RECORD_BYTES} bytes",
                              why=record_why("record.too_large", max=MAX_RECORD_BYTES))
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"record is not valid JSON: {exc}",
                              why=record_why("record.not_json")) from exc
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: object) -> Record:
        if not isinstance(data, Mapping):
            raise RecordError("record must be a JSON object",
                              why=record_why("record.shape", field="format"))
        if data.get("format") != "asobiba-record":
            raise RecordError("record lacks \"format\": \"asobiba-record\"",
                              why=record_why("record.shape", field="format"))
        version = data.get("record_version")
        if version != RECORD_VERSION:
            raise RecordError(f"record_version {version!r} is not supported (this is {RECORD_VERSION})",
                              why=record_why("record.version", version=str(version)[:20],
                                             current=RECORD_VERSION))
        for key, kind in (("game", str), ("seed", int), ("options", Mapping), ("moves", list),
                          ("rules_version", int)):
            if key not in data:
                raise RecordError(f"record is missing {key!r}",
                                  why=record_why("record.shape", field=key))
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise RecordError(f"record field {key!r} has the wrong type",
                                  why=record_why("record.shape", field=key))
        moves = []
        for number, entry in enumerate(data["moves"], 1):
            if (not isinstance(entry, Mapping) or not isinstance(entry.get("move"), str)
                    or not isinstance(entry.get("seat"), int) or isinstance(entry.get("seat"), bool)):
                raise RecordError(f"move {number} must be {{\"seat\": int, \"move\": text}}",
                                  why=record_why("record.shape", field="moves"))
            moves.append(MoveEntry(entry["seat"], entry["move"]))
        result = data.get("result")
        outcome = None
        if result is not None:
            try:
                outcome = Outcome.from_json(result)
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"record result is malformed: {exc}",
                                  why=record_why("record.shape", field="result")) from exc
        seats = data.get("seats", [])
        if not isinstance(seats, list):
            raise RecordError("record field 'seats' must be a list",
                              why=record_why("record.shape", field="seats"))
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            seed=data["seed"],
            moves=tuple(moves),
            seats=tuple(SeatInfo.from_json(s) for s in seats),
            result=outcome,
            rules_version=data["rules_version"],
            started=str(data.get("started") or ""),
            finished=data.get("finished"),
            extra=dict(data.get("extra") or {}),
        )

    # ---- replay ----------------------------------------------------------------------------
    def replay(self, get_game: Callable[[str], Game]) -> list[State]:
        """Every state from the start; checks versions, each move and the stored result."""
        try:
            game = get_game(self.game)
        except AsobibaError as exc:
            raise RecordError(f"record names an unknown game: {exc}",
                              why=record_why("record.unknown_game", game=self.game[:40])) from exc
        options = dict(self.options)
        if self.rules_version != game.rules_version:
            legacy = game.legacy_options.get(self.rules_version)
            if legacy is None:
                raise RecordError(
                    f"record was made under {game.id} rules version {self.rules_version}; "
                    f"this build plays version {game.rules_version}",
                    why=record_why("record.rules_version", game=game.id,
                                   version=self.rules_version, current=game.rules_version),
                )
            options.update(legacy)  # the old version's behaviour, made explicit
        try:
            state = game.new_game(options, self.seed)
        except AsobibaError as exc:
            raise RecordError(f"record options are not valid: {exc}",
                              why=record_why("record.options")) from exc
        if self.seats and len(self.seats) != state.num_seats:
            raise RecordError(f"record lists {len(self.seats)} seats; the game has {state.num_seats}",
                              why=record_why("record.seats", n=len(self.seats),
                                             seats=state.num_seats))
        states = [state]
        for number, entry in enumerate(self.moves, 1):
            try:
                state = state.play(entry.move, entry.seat)
            except MoveError as exc:
                raise RecordError(f"move {number} ({entry.move!r} by seat {entry.seat}): {exc}",
                                  why=record_why("record.move", number=number,
                                                 move=entry.move[:40])) from exc
            states.append(state)
        final = states[-1].outcome
        if self.result is not None and final != self.result:
            if final is None or final.scores != self.result.scores or final.ranks != self.result.ranks:
                raise RecordError(
                    "record result does not match what its moves produce "
                    f"(stored {self.result.to_json() if self.result else None}, "
                    f"replayed {final.to_json() if final else None}): the record was altered",
                    why=record_why("record.result"),
                )
        return states
