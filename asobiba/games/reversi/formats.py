"""Reversi's standard records (registered with ``asobiba.formats``).

* ``transcript`` — the moves run together, ``f5d6c3d3c4…``: the usual way Othello games are
  quoted. Passes are not written (a pass is forced, so it is implied); on import a pass is
  inserted wherever the side to move has no other move.
* ``ggf`` — the Generic Game Format of the Generic Game Server (GGS):
  ``(;GM[Othello]PC[…]DT[…]PB[…]PW[…]TY[8]RE[+4.000]BO[8 … *]B[d3]W[c5]…;)``. ``BO`` is
  the board row by row from row 1 (a1…h1) with ``*`` Black, ``O`` White, ``-`` empty and
  the colour to move; ``RE`` is Black's disc difference; ``PA`` is a pass; a move may carry
  ``/evaluation/time`` after it. asobiba plays from the standard start only, so a ``BO``
  with another position (or ``TY`` other than 8) is refused, as is any other ``GM``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core import MoveEntry, Record, RecordError, SeatInfo
from ...core.errors import record_why
from ...core.jsontypes import JSONObject
from ...formats import RecordFormat

if TYPE_CHECKING:
    from .game import Reversi

START_BOARD = ("8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *")


def _game() -> Reversi:
    from . import GAME

    return GAME


def _replayed(moves: list[str], seats: tuple[SeatInfo, ...] = (), started: str = "",
              extra: JSONObject | None = None) -> Record:
    """A record of ``moves`` (passes already in place), checked and with its result."""
    game = _game()
    state = game.new_game({}, 0)
    entries = []
    for number, text in enumerate(moves, 1):
        seat = state.to_move
        if seat is None:
            raise RecordError(f"move {number} ({text}): the game is already over",
                              why=record_why("record.move", number=number,
                                             move=str(text)[:40]))
        try:
            state = state.play(text, seat)
        except Exception as exc:  # a MoveError: say which move
            raise RecordError(f"move {number} ({text}): {exc}",
                              why=record_why("record.move", number=number,
                                             move=str(text)[:40])) from exc
        entries.append(MoveEntry(seat, text))
    return Record(game="reversi", options={}, seed=0, moves=tuple(entries), seats=seats,
                  result=state.outcome, rules_version=game.rules_version,
                  started=started, finished=None, extra=extra or {})


def _with_forced_passes(squares: list[str]) -> list[str]:
    """Insert ``pass`` wherever the side to move has no other move."""
    state = _game().new_game({}, 0)
    out = []
    for number, sq in enumerate(squares, 1):
        while not state.is_over and state.legal_moves().texts() == ["pass"]:
            out.append("pass")
            state = state.play("pass")
        if state.is_over:
            raise RecordError(f"move {number} ({sq}): the game is already over",
                              why=record_why("record.move", number=number,
                                             move=str(sq)[:40]))
        try:
            state = state.play(sq)
        except Exception as exc:
            raise RecordError(f"move {number} ({sq}): {exc}",
                              why=record_why("record.move", number=number,
                                             move=str(sq)[:40])) from exc
        out.append(sq)
    while not state.is_over and state.legal_moves().texts() == ["pass"]:
        out.append("pass")
        state = state.play("pass")
    return out


# ---- transcript ---------------------------------------------------------------------------
_TRANSCRIPT = re.compile(r"^(?:[a-h][1-8])*$")


def dumps_transcript(record: Record) -> str:
    return "".join(m.move for m in record.moves if m.move != "pass") + "\n"


def loads_transcript(text: str) -> Record:
    t = re.sub(r"\s+", "", text).lower()
    if not _TRANSCRIPT.match(t):
        bad = re.sub(r"[a-h][1-8]", "", t)[:10]
        raise RecordError(f"a transcript is squares run together (f5d6c3…); {bad!r} is not "
                          "a square a1–h8",
                          why=record_why("record.format", format="transcript", bad=bad))
    squares = [t[i:i + 2] for i in range(0, len(t), 2)]
    return _replayed(_with_forced_passes(squares))


# ---- GGF ----------------------------------------------------------------------------------
_PROP = re.compile(r"([A-Z]+)\[([^\]]*)\]")


def _ggs_date(iso: str) -> str:
    """GGS writes dates as ``year.month.day_hour:minute:second.zone``."""
    m = re.match(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\+00:00|Z)?$", iso)
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}_{m.group(4)}.UTC" if m else iso


def dumps_ggf(record: Record) -> str:
    props = ["GM[Othello]", "PC[asobiba]"]
    if record.started:
        props.append(f"DT[{_ggs_date(record.started)}]")
    names = [s.name or s.kind for s in record.seats] or ["", ""]
    props += [f"PB[{names[0]}]", f"PW[{names[1]}]", "TY[8]"]
    if record.result is not None:
        props.append(f"RE[{record.result.scores[0] - record.result.scores[1]:+.3f}]")
    props.append(f"BO[{START_BOARD}]")
    moves = "".join(f"{'BW'[m.seat]}[{'PA' if m.move == 'pass' else m.move.upper()}]"
                    for m in record.moves)
    return "(;" + "".join(props) + moves + ";)\n"


def loads_ggf(text: str) -> Record:
    start = text.find("(;")
    end = text.find(";)", start + 2)
    if start < 0 or end < 0:
        raise RecordError("a GGF game is enclosed in (; … ;)",
                          why=record_why("record.format", format="GGF"))
    body = text[start + 2:end]
    props = _PROP.findall(body)
    if not props:
        raise RecordError("the GGF game has no properties",
                          why=record_why("record.format", format="GGF"))
    tags: dict[str, str] = {}
    moves: list[tuple[str, str]] = []
    for key, value in props:
        if key in ("B", "W"):
            moves.append((key, value.split("/")[0].strip()))
        else:
            tags.setdefault(key, value)
    if tags.get("GM", "").lower() != "othello":
        raise RecordError(f"GM[{tags.get('GM', '')}]: only Othello GGF games are Reversi",
                          why=record_why("record.unsupported", format="GGF", tag="GM",
                                         value=tags.get("GM", "")))
    if tags.get("TY", "8").strip().lower() not in ("8", "8r", ""):
        raise RecordError(f"TY[{tags['TY']}]: asobiba plays Reversi on 8×8 from the usual "
                          "start only",
                          why=record_why("record.unsupported", format="GGF", tag="TY",
                                         value=tags["TY"]))
    if "BO" in tags and " ".join(tags["BO"].split()) != START_BOARD:
        raise RecordError("BO: the game starts from another position; asobiba plays "
                          "Reversi from the standard start only",
                          why=record_why("record.unsupported", format="GGF", tag="BO",
                                         value=tags["BO"]))
    texts = []
    for number, (colour, move) in enumerate(moves, 1):
        text = "pass" if move.upper() == "PA" else move.lower()
        if text != "pass" and not re.fullmatch(r"[a-h][1-8]", text):
            raise RecordError(f"move {number}: {colour}[{move}] is not a square or PA",
                              why=record_why("record.move", number=number,
                                             move=f"{colour}[{move}]"))
        texts.append((colour, text))
    # the colours must follow the game (some writers leave forced passes out)
    state = _game().new_game({}, 0)
    seq: list[str] = []
    for number, (colour, text) in enumerate(texts, 1):
        if (state.to_move is not None and "BW"[state.to_move] != colour
                and state.legal_moves().texts() == ["pass"]):
            seq.append("pass")
            state = state.play("pass")
        if state.to_move is None or "BW"[state.to_move] != colour:
            raise RecordError(f"move {number}: {colour}[{text}] is out of turn",
                              why=record_why("record.move", number=number,
                                             move=f"{colour}[{text}]"))
        try:
            state = state.play(text)
        except Exception as exc:
            raise RecordError(f"move {number} ({colour}[{text}]): {exc}",
                              why=record_why("record.move", number=number,
                                             move=f"{colour}[{text}]")) from exc
        seq.append(text)
    seats = (SeatInfo("human", tags.get("PB", "")), SeatInfo("human", tags.get("PW", "")))
    extra = {k: tags[k] for k in ("PC", "RE", "RB", "RW", "TI") if k in tags}
    record = _replayed(seq, seats, tags.get("DT", ""), {"ggf": extra} if extra else None)
    if record.result is not None and "RE" in tags:
        m = re.match(r"^\s*([+-]?\d+(?:\.\d+)?)\s*$", tags["RE"])
        diff = record.result.scores[0] - record.result.scores[1]
        if m and float(m.group(1)) != diff:
            raise RecordError(f"RE[{tags['RE']}] does not match the moves, which end "
                              f"{diff:+d} for Black",
                              why=record_why("record.result", format="GGF", stated=tags["RE"],
                                             actual=f"{diff:+d}"))
    return record


FORMATS = (
    RecordFormat("transcript", "the moves run together, f5d6c3… (passes implied)", ".txt",
                 dumps_transcript, loads_transcript,
                 lambda t: bool(_TRANSCRIPT.match(re.sub(r"\s+", "", t).lower()))
                 and len(t.strip()) >= 2),
    RecordFormat("ggf", "Generic Game Format (GGS): (;GM[Othello]…B[f5]W[d6]…;)", ".ggf",
                 dumps_ggf, loads_ggf, lambda t: t.lstrip().startswith("(;")),
)
