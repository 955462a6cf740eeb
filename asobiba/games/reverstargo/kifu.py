"""The app's record text (kifu): export, and import that checks every entry.

Format (REFERENCE § ReverStarGo)::

    [ReverStarGo Game Record]
    Date: 2026-11-29 19:40
    Black: You
    White: CPU FINAL
    Result: Black 20 - White 17 (Black wins)
    Entries: 45

    01.●B2[B] +0
    02.○B4[W] +1
    03.●--

``●``/``○`` is Black/White, ``[B]``/``[W]`` the colour put on the CP, ``+k`` the stones the
move captured; ``--`` is an automatic pass; the number counts entries, passes included.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import cast

from ...core import MoveEntry, MoveError, Record, RecordError, SeatInfo
from ...core.errors import record_why
from .board import LABELS
from .game import Move, ReverStarGoState, advance, start
from .rules import COLOUR_LETTER

HEADER = "[ReverStarGo Game Record]"
SYMBOL = ("●", "○")
_ENTRY = re.compile(
    r"^\s*(\d+)\s*\.\s*([●○])\s*(?:(--)|([A-Za-z][A-Za-z0-9])\s*(?:\[\s*([BWbw])\s*\])?"
    r"(?:\s*\+\s*(\d+))?)\s*$")
_RESULT = re.compile(r"^\s*Result\s*:\s*Black\s+(\d+)\s*-\s*White\s+(\d+)", re.I)
_COUNT = re.compile(r"^\s*(?:Entries|Moves)\s*:\s*(\d+)\s*$", re.I)


def result_line(state: ReverStarGoState) -> str:
    b, w = state.score()
    if not state.is_over:
        verdict = "in progress"
    else:
        outcome = state.outcome
        assert outcome is not None
        verdict = ("Draw" if outcome.is_draw
                   else f"{('Black', 'White')[outcome.winners[0]]} wins")
    return (f"Result: Black {b} - White {w} ({verdict}; captured {state.captured[0]} - "
            f"{state.captured[1]})")


def export_kifu(state: ReverStarGoState, black: str = "Black", white: str = "White",
                date: str | None = None) -> str:
    """The app's record text of the game that led to ``state``."""
    when = date or datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    lines = [HEADER, f"Date: {when}", f"Black: {black}", f"White: {white}",
             result_line(state), f"Entries: {len(state.entries)}", ""]
    for n, e in enumerate(state.entries, 1):
        head = f"{n:02d}.{SYMBOL[e.seat]}"
        if e.is_pass:
            lines.append(f"{head}--")
        else:
            lines.append(f"{head}{LABELS[e.cell]}[{COLOUR_LETTER[e.colour]}] +{e.captured}")
    return "\n".join(lines) + "\n"


def replay_entries(parts: Sequence[str]) -> tuple[list[ReverStarGoState], list[MoveEntry]]:
    """Replay record entries (``NN.●LBL[B] +k``, ``NN.○--``; the CP colour and a zero
    ``+k`` may be left out, as the app does), checking each: its number, whose turn it is,
    legality, that a pass is the automatic one, the stones captured. Stops at the first bad
    entry with its number and the reason. Returns the states after each move and the moves
    in our notation (passes are automatic, so they are checked but not listed)."""
    state = start()
    states = [state]
    moves: list[MoveEntry] = []
    for number, part in enumerate(parts, 1):
        m = _ENTRY.match(part.strip())
        where = f"entry {number} ({part.strip()})"
        if m is None:
            raise RecordError(f"entry {number}: cannot read {part.strip()!r}",
                              why=record_why("record.entry", format="ReverStarGo", number=number,
                                             entry=part.strip()))
        if int(m.group(1)) != number:
            raise RecordError(f"{where}: expected entry number {number}",
                              why=record_why("record.entry", format="ReverStarGo", number=number,
                                             entry=part.strip()))
        seat = SYMBOL.index(m.group(2))
        if m.group(3):  # a pass
            if number > len(state.entries) or not state.entries[number - 1].is_pass:
                mover = "the game is over" if state.is_over else (
                    f"{('Black', 'White')[state.turn]} has a playable cell")
                raise RecordError(f"{where}: a pass is only automatic, and {mover}",
                                  why=record_why("record.move", number=number, move=part.strip()))
            if state.entries[number - 1].seat != seat:
                raise RecordError(f"{where}: the pass belongs to the other colour",
                                  why=record_why("record.move", number=number, move=part.strip()))
            continue
        if number <= len(state.entries):
            raise RecordError(f"{where}: this entry must be the automatic pass of "
                              f"{('Black', 'White')[state.entries[number - 1].seat]}",
                              why=record_why("record.move", number=number, move=part.strip()))
        if state.is_over:
            raise RecordError(f"{where}: the game is already over ({state.reason})",
                              why=record_why("record.move", number=number, move=part.strip()))
        if seat != state.turn:
            raise RecordError(f"{where}: it is {('Black', 'White')[state.turn]}'s turn",
                              why=record_why("record.move", number=number, move=part.strip()))
        call = f"[{m.group(5)}]" if m.group(5) else ""
        try:
            move = state.parse(f"{m.group(4)}{call}", seat)
        except MoveError as exc:
            raise RecordError(f"{where}: {exc}",
                              why=record_why("record.move", number=number,
                                             move=part.strip())) from exc
        text = state.move_text(move, seat)
        state = advance(state, cast(Move, move), seat)
        entry = state.entries[number - 1]
        stated = int(m.group(6)) if m.group(6) is not None else 0
        if stated != entry.captured:
            raise RecordError(f"{where}: the move captures {entry.captured}, not {stated}",
                              why=record_why("record.move", number=number, move=part.strip()))
        states.append(state)
        moves.append(MoveEntry(seat, text))
    return states, moves


def import_kifu(text: str) -> tuple[list[ReverStarGoState], list[MoveEntry]]:
    """Replay a record text — the app's (either build, as ``appkifu`` reads it) or
    asobiba's own — checking every entry and the header's numbers."""
    from .appkifu import is_app_text, read_app_text

    if is_app_text(text):
        states, moves, _, _ = read_app_text(text)
        return states, moves
    lines = text.splitlines()
    if not any(line.strip() == HEADER for line in lines):
        raise RecordError(f"not a ReverStarGo record: the {HEADER} header is missing",
                          why=record_why("record.format", format="ReverStarGo"))
    stated_result = stated_count = None
    parts: list[str] = []
    for line in lines:
        if (m := _RESULT.match(line)) is not None:
            stated_result = (int(m.group(1)), int(m.group(2)))
        elif (m := _COUNT.match(line)) is not None:
            stated_count = int(m.group(1))
        elif re.match(r"^\s*\d+\s*\.", line):
            parts.extend(p for p in line.split("\t") if p.strip())
    states, moves = replay_entries(parts)
    state = states[-1]
    number = len(parts)
    if stated_count is not None and stated_count != number:
        raise RecordError(f"the header says {stated_count} entries; the record lists {number}",
                          why=record_why("record.header_count", format="ReverStarGo",
                                         stated=stated_count, actual=number))
    if stated_result is not None and state.is_over and stated_result != state.score():
        raise RecordError(f"the header says Black {stated_result[0]} - White "
                          f"{stated_result[1]}; the moves give Black {state.score()[0]} - "
                          f"White {state.score()[1]}",
                          why=record_why("record.result", format="ReverStarGo",
                                         stated=f"{stated_result[0]}-{stated_result[1]}",
                                         actual=f"{state.score()[0]}-{state.score()[1]}"))
    return states, moves


def kifu_to_record(text: str, seats: Sequence[SeatInfo] = ()) -> Record:
    """Our JSON record of a record text (the app's or ours). From the app's text the
    players come from its header, and its date, players line and memo are kept under
    ``extra["app"]`` so that ``--format app`` gives the same text back."""
    from .appkifu import app_text_to_record, is_app_text

    if is_app_text(text):
        return app_text_to_record(text)
    states, moves = import_kifu(text)
    return Record.from_states(states, moves, 0, seats)


FORMATS = ("asobiba", "app")


def record_to_kifu(record: Record, format: str = "asobiba") -> str:
    """The record text of one of our JSON records (replayed and checked first): asobiba's
    own format (the default), or ``app`` — what the designer's app writes, byte for byte."""
    from ...games import replay_record

    if format == "app":
        from .appkifu import record_to_app_text

        return record_to_app_text(record)
    if format != "asobiba":
        raise ValueError(f"unknown record format {format!r}; formats: {', '.join(FORMATS)}")
    states = replay_record(record)
    names = [s.name or s.kind for s in record.seats] or ["Black", "White"]
    state = states[-1]
    assert isinstance(state, ReverStarGoState)
    return export_kifu(state, names[0], names[1] if len(names) > 1 else "White",
                       (record.started or "")[:16].replace("T", " ") or None)
