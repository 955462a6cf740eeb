"""Game records in and out of other notations: one registry of formats per game, one
interface (``asobiba export`` / ``asobiba import``, :func:`export_record` /
:func:`import_record`).

Every game has two formats:

* ``json`` — the asobiba record itself (``core.record``);
* ``text`` — a PGN-like text: ``[Tag "value"]`` headers, then one move a line in the game's
  own notation, numbered, with the seat that played it (``12. B attack A3=7``).

A game adds its own standard formats in ``asobiba/games/<id>/formats.py`` (a ``FORMATS``
tuple), named by its manifest (``formats=".formats:FORMATS"``) and loaded on first use: Reversi brings the ``transcript``
(``f5d6c3…``) and ``ggf`` (the Generic Game Format of GGS). Another helper's format (e.g.
the ReverStarGo app's own record) plugs in the same way, or with :func:`register`.

Every import replays the moves through the rules (``Record.replay``), so an imported
record is exact or refused with a :class:`~asobiba.core.RecordError` naming what is wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from .core import MoveEntry, Record, RecordError, SeatInfo
from .core.errors import AsobibaError, record_why
from .games import available, get, manifest, replay_record

SEAT_LETTERS = "ABCDEFGHIJKL"


@dataclass(frozen=True)
class RecordFormat:
    """``dumps(record) -> text`` and ``loads(text) -> record`` for one notation."""

    name: str
    description: str
    suffix: str
    dumps: Callable[[Record], str]
    loads: Callable[[str], Record]
    sniff: Callable[[str], bool] = lambda text: False


_REGISTRY: dict[str, dict[str, RecordFormat]] = {}


def register(game_id: str, fmt: RecordFormat) -> None:
    """Add (or replace) a format of one game."""
    formats_for(game_id)[fmt.name] = fmt


def formats_for(game_id: str) -> dict[str, RecordFormat]:
    """Name -> format for ``game_id``: the generic ones, then the game's own."""
    if game_id not in _REGISTRY:
        found = {"json": _json_format(game_id), "text": _text_format(game_id)}
        own = manifest(game_id).load("formats")
        for fmt in cast("tuple[RecordFormat, ...]", own or ()):
            found[fmt.name] = fmt
        _REGISTRY[game_id] = found
    return _REGISTRY[game_id]


def _format(game_id: str, name: str) -> RecordFormat:
    formats = formats_for(game_id)
    if name not in formats:
        raise RecordError(f"{game_id} has no record format {name!r}; formats: "
                          + ", ".join(formats), why=record_why("record.format", format=name[:40]))
    return formats[name]


def export_record(record: Record, fmt: str = "text") -> str:
    """The record in format ``fmt``; the record is replayed first, so a corrupt one is
    refused rather than exported."""
    replay_record(record)
    return _format(record.game, fmt).dumps(record)


def import_record(text: str, fmt: str | None = None, game_id: str | None = None) -> Record:
    """A record from ``text`` in format ``fmt`` (default: recognised from the text).
    ``game_id`` is needed only where the text does not name the game."""
    if fmt is None or game_id is None:
        fmt, game_id = _detect(text, fmt, game_id)
    record = _format(game_id, fmt).loads(text)
    replay_record(record)
    return record


def _detect(text: str, fmt: str | None, game_id: str | None) -> tuple[str, str]:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            named = json.loads(text).get("game")
        except (json.JSONDecodeError, AttributeError):
            named = None
        return fmt or "json", game_id or str(named)
    m = re.search(r'^\[Game "([^"]+)"\]', stripped, re.MULTILINE)
    if m:
        return fmt or "text", game_id or m.group(1)
    for gid in ([game_id] if game_id else available()):
        try:
            formats = formats_for(gid)
        except AsobibaError:
            continue
        for f in formats.values():
            if (fmt is None or f.name == fmt) and f.sniff(text):
                return f.name, gid
    raise RecordError("cannot tell the record's format; give --format (and --game)",
                      why=record_why("record.format", format="?"))


# ---- json ---------------------------------------------------------------------------------
def _json_format(game_id: str) -> RecordFormat:
    def loads(text: str) -> Record:
        record = Record.loads(text)
        if record.game != game_id:
            raise RecordError(f"the record is of {record.game!r}, not {game_id!r}",
                              why=record_why("record.game_mismatch", format="json",
                                             expected=game_id, game=record.game[:40]))
        return record

    return RecordFormat("json", "the asobiba record (JSON)", ".json",
                        lambda r: r.dumps(), loads, lambda t: t.lstrip().startswith("{"))


# ---- text ---------------------------------------------------------------------------------
_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+([A-L])\s+(.+?)\s*$")


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _text_format(game_id: str) -> RecordFormat:
    def dumps(record: Record) -> str:
        tags = [("Game", record.game), ("RulesVersion", str(record.rules_version)),
                ("Options", json.dumps(dict(record.options), sort_keys=True,
                                       ensure_ascii=False)),
                ("Seed", str(record.seed))]
        for i, seat in enumerate(record.seats):
            value = seat.kind + (f":{seat.level}" if seat.level is not None else "")
            tags.append((f"Seat{SEAT_LETTERS[i]}", f"{value} {seat.name}".strip()))
        if record.started:
            tags.append(("Started", record.started))
        if record.finished:
            tags.append(("Finished", record.finished))
        if record.result is not None:
            tags.append(("Scores", " ".join(f"{s:g}" for s in record.result.scores)))
            tags.append(("Ranks", " ".join(map(str, record.result.ranks))))
            tags.append(("Reason", record.result.reason))
        lines = [f'[{k} "{_quote(v)}"]' for k, v in tags]
        lines.append("")
        lines += [f"{n}. {SEAT_LETTERS[m.seat]} {m.move}"
                  for n, m in enumerate(record.moves, 1)]
        return "\n".join(lines) + "\n"

    def loads(text: str) -> Record:
        tags: dict[str, str] = {}
        moves: list[MoveEntry] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            m = _TAG.match(line)
            if m:
                tags[m.group(1)] = _unquote(m.group(2))
                continue
            m = _MOVE.match(line)
            if not m:
                raise RecordError(f"line {number}: {line!r} is neither a [Tag \"value\"] nor "
                                  "a numbered move such as '1. A d3'",
                                  why=record_why("record.line", format="text", line=number))
            if int(m.group(1)) != len(moves) + 1:
                raise RecordError(f"line {number}: move number {m.group(1)} out of order",
                                  why=record_why("record.line", format="text", line=number))
            moves.append(MoveEntry(SEAT_LETTERS.index(m.group(2)), m.group(3)))
        if tags.get("Game") != game_id:
            raise RecordError(f"the text names game {tags.get('Game')!r}, not {game_id!r}",
                              why=record_why("record.game_mismatch", format="text",
                                             expected=game_id,
                                             game=str(tags.get("Game"))[:40]))
        try:
            options = json.loads(tags.get("Options", "{}"))
            seed = int(tags.get("Seed", "0"))
            version = int(tags.get("RulesVersion", str(get(game_id).rules_version)))
        except ValueError as exc:
            raise RecordError(f"a header tag is malformed: {exc}",
                              why=record_why("record.shape", field="Options")) from exc
        if not isinstance(options, dict):
            raise RecordError("[Options] must hold a JSON object",
                              why=record_why("record.shape", field="Options"))
        seats = []
        for letter in SEAT_LETTERS:
            value = tags.get(f"Seat{letter}")
            if value is None:
                break
            head, _, name = value.partition(" ")
            kind, _, level = head.partition(":")
            seats.append(SeatInfo.from_json({"kind": kind, "name": name,
                                             "level": level or None}))
        record = Record(game=game_id, options=options, seed=seed, moves=tuple(moves),
                        seats=tuple(seats), rules_version=version,
                        started=tags.get("Started", ""), finished=tags.get("Finished"))
        return _with_result(record)

    return RecordFormat("text", "PGN-like text: [Tag \"value\"] headers, one move a line in "
                        "the game's notation", ".txt", dumps, loads,
                        lambda t: t.lstrip().startswith("[Game "))


def _with_result(record: Record) -> Record:
    """The record with the result its moves produce (checked by replaying them)."""
    from dataclasses import replace

    final = replay_record(record)[-1]
    return replace(record, result=final.outcome)
