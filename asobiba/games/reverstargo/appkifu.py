"""The record text exactly as the designer's app writes it (its ``generateNotationText``),
read and written byte for byte (docs/rules/reverstargo.md § 9).

The English build writes::

    [ReverStarGo Game Record]
    Date: 2026-11-30
    Black vs White (2-Player)
    Result: Black 12 - White 27 (White wins)
    Moves: 33 (incl. 1 passes)
    ────────────────
     1.●B4[B]\t 2.○B5[W]
    ...
    21.●C2[B]\t22.○B8␣␣␣      (␣ = a space: the CP colour left out)
    33.●C1[B]

Entries go two to a line, Black's column and White's column separated by a tab (the
columns are by entry number, so after an odd number of passes a line starts with White);
the number is padded to two characters; ``[B]``/``[W]`` is the colour the CP held, left
out (three spaces) when the mover already owned the whole A ring around the CP; `` +k``
only when the move captured k > 0 stones; ``--`` is an automatic pass. The Japanese build
writes the same entries under ``【ReverStarGo 棋譜】`` with ``日付``/``結果``/``手数`` lines.
A record copied from the app's list of saved games starts with its memo (``📝 memo`` and a
blank line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...core import MoveEntry, Record, RecordError, SeatInfo
from ...core.errors import record_why
from .board import A_RING, LABELS
from .game import Entry, ReverStarGoState, advance, start
from .rules import BLACK, COLOUR_LETTER, WHITE

RULE = "─" * 16
HEADER_EN = "[ReverStarGo Game Record]"
HEADER_JA = "【ReverStarGo 棋譜】"
SYMBOL = ("●", "○")
COLOUR_EN = ("Black", "White")
COLOUR_JA = ("黒", "白")
MEMO = "📝 "

#: The app's CPU level labels (``Lv.1``–``Lv.5``, then its level names) and ours.
CPU_LABELS = {"Lv.1": "entry", "Lv.2": "beginner", "Lv.3": "intermediate",
              "Lv.4": "advanced", "Lv.5": "formidable", "MAX": "max", "FINAL": "final"}
LABEL_OF_LEVEL = {level: label for label, level in CPU_LABELS.items()}
LABEL_OF_LEVEL.update({"1": "Lv.1", "2": "Lv.2", "3": "Lv.3", "4": "Lv.4", "5": "Lv.5",
                       "6": "MAX", "7": "FINAL"})

_IN_LINE = re.compile(
    r"\d+\s*\.\s*[●○]\s*(?:--|[A-Za-z][A-Za-z0-9](?:\s*\[\s*[BWbw]\s*\])?(?:\s*\+\s*\d+)?)")
_ENTRY = re.compile(
    r"^(\d+)\s*\.\s*([●○])\s*(?:(--)|([A-Za-z][A-Za-z0-9])\s*(?:\[\s*([BWbw])\s*\])?"
    r"(?:\s*\+\s*(\d+))?)$")


@dataclass
class Header:
    """What an app record says besides its entries."""

    language: str = "en"  # "en" or "ja" (which build wrote it)
    memo: str | None = None
    date: str = ""
    match: str = ""  # the players line, verbatim
    result: tuple[int, int] | None = None
    verdict: str = ""
    moves: int | None = None
    passes: int = 0
    entries: list[tuple[int, int, str]] = field(default_factory=list)  # (number, seat, text)


def is_app_text(text: str) -> bool:
    """Whether ``text`` looks like the app's record (its rule line or its Japanese header),
    rather than asobiba's own record text."""
    return any(line.strip() in (RULE, HEADER_JA) for line in text.splitlines())


# ---- writing -------------------------------------------------------------------------------
def owns_ring(state: ReverStarGoState, seat: int) -> bool:
    """Whether ``seat`` holds all six A cells around the CP (the app then leaves the CP
    colour out of the entry)."""
    mine = state.black if seat == BLACK else state.white
    return mine & A_RING == A_RING


def entry_text(entry: Entry, before: ReverStarGoState, number: int) -> str:
    """One entry as the app formats it (``fmtMove``)."""
    head = f"{number:>2}.{SYMBOL[entry.seat]}"
    if entry.is_pass:
        return f"{head}--"
    call = "   " if owns_ring(before, entry.seat) else f"[{COLOUR_LETTER[entry.colour]}]"
    caps = f" +{entry.captured}" if entry.captured > 0 else ""
    return f"{head}{LABELS[entry.cell]:<2}{call}{caps}"


def winner_colour(state: ReverStarGoState) -> int | None:
    """The app's verdict: higher total, then more captured stones, else a draw."""
    b, w = state.score()
    if b != w:
        return BLACK if b > w else WHITE
    cb, cw = state.captured
    if cb != cw:
        return BLACK if cb > cw else WHITE
    return None


@dataclass(frozen=True)
class Players:
    """Who played, as the app's header can say it."""

    mode: str = "two"  # "two" (2-player) or "cpu"
    names: tuple[str, str] | None = None  # named 2-player games (Black's, White's)
    human: str = "You"  # CPU games: the player's name …
    human_colour: int = BLACK  # … their colour …
    cpu: str = "Lv.1"  # … and the CPU's label (Lv.1–Lv.5, MAX, FINAL)

    def line(self, language: str = "en") -> str:
        if language == "ja":
            if self.mode == "cpu":
                return f"{self.human}（{COLOUR_JA[self.human_colour]}） vs CPU {self.cpu}"
            if self.names:
                return f"{self.names[0]}（黒） vs {self.names[1]}（白）"
            return "黒 vs 白（2人対戦）"
        if self.mode == "cpu":
            return f"{self.human} ({COLOUR_EN[self.human_colour]}) vs CPU {self.cpu}"
        if self.names:
            return f"{self.names[0]} (Black) vs {self.names[1]} (White)"
        return "Black vs White (2-Player)"

    def verdict(self, winner: int | None, language: str = "en") -> str:
        ja = language == "ja"
        if winner is None:
            return "引き分け" if ja else "Draw"
        if self.mode == "cpu":
            won = winner == self.human_colour
            return ("勝利" if won else "敗北") if ja else ("Win" if won else "Loss")
        if self.names:
            return f"{self.names[winner]}の勝ち" if ja else f"{self.names[winner]} wins"
        return f"{COLOUR_JA[winner]}の勝ち" if ja else f"{COLOUR_EN[winner]} wins"


def write_app_text(state: ReverStarGoState, players: Players, date: str,
                   language: str = "en", memo: str | None = None) -> str:
    """The app's record text of the game that led to ``state``, byte for byte."""
    b, w = state.score()
    verdict = players.verdict(winner_colour(state), language)
    total = len(state.entries)
    passes = sum(e.is_pass for e in state.entries)
    if language == "ja":
        lines = [HEADER_JA, f"日付: {date}", players.line("ja"),
                 f"結果: 黒{b} - 白{w}（{verdict}）",
                 f"手数: {total}手" + (f"（パス{passes}回含む）" if passes else ""), RULE]
    else:
        lines = [HEADER_EN, f"Date: {date}", players.line(),
                 f"Result: Black {b} - White {w} ({verdict})",
                 f"Moves: {total}" + (f" (incl. {passes} passes)" if passes else ""), RULE]
    befores = _states_before_entries(state)
    cells = [entry_text(e, befores[i], i + 1) for i, e in enumerate(state.entries)]
    for i in range(0, len(cells), 2):
        lines.append("\t".join(cells[i:i + 2]))
    text = "\n".join(lines) + "\n"
    if memo:
        text = f"{MEMO}{memo}\n\n{text}"
    return text


def _states_before_entries(state: ReverStarGoState) -> list[ReverStarGoState]:
    """The position before each entry (a pass leaves the board as it was)."""
    s = start()
    out: list[ReverStarGoState] = []
    for e in state.entries:
        out.append(s)
        if not e.is_pass:
            s = advance(s, (e.cell, e.colour), e.seat)
    return out


# ---- reading -------------------------------------------------------------------------------
_RESULT_EN = re.compile(r"^Result\s*:\s*Black\s*(\d+)\s*-\s*White\s*(\d+)\s*\((.*)\)\s*$")
_RESULT_JA = re.compile(r"^結果\s*[:：]\s*黒\s*(\d+)\s*-\s*白\s*(\d+)\s*（(.*)）\s*$")
_MOVES_EN = re.compile(r"^Moves\s*:\s*(\d+)(?:\s*\(incl\.\s*(\d+)\s*passes\))?\s*$")
_MOVES_JA = re.compile(r"^手数\s*[:：]\s*(\d+)手(?:（パス(\d+)回含む）)?\s*$")
_CPU_EN = re.compile(r"^(.*) \((Black|White)\) vs CPU (.+)$")
_CPU_JA = re.compile(r"^(.*)（(黒|白)） vs CPU (.+)$")
_NAMED_EN = re.compile(r"^(.*) \(Black\) vs (.*) \(White\)$")
_NAMED_JA = re.compile(r"^(.*)（黒） vs (.*)（白）$")
_OLD_TWO_EN = re.compile(r"^(.*) \((Black|White)\) vs 2-Player$")
_OLD_TWO_JA = re.compile(r"^(.*)（(黒|白)） vs 2人対戦$")


def parse_players(line: str) -> Players:
    """The players line of either build (and of the older builds that wrote
    ``You (Black) vs 2-Player``), or a RecordError naming the forms the app writes."""
    if line in ("Black vs White (2-Player)", "黒 vs 白（2人対戦）"):
        return Players("two")
    for pattern, colours in ((_CPU_EN, COLOUR_EN), (_CPU_JA, COLOUR_JA)):
        if (m := pattern.match(line)) is not None:
            return Players("cpu", human=m.group(1), human_colour=colours.index(m.group(2)),
                           cpu=m.group(3))
    for pattern in (_NAMED_EN, _NAMED_JA):
        if (m := pattern.match(line)) is not None:
            return Players("two", names=(m.group(1), m.group(2)))
    for pattern, colours in ((_OLD_TWO_EN, COLOUR_EN), (_OLD_TWO_JA, COLOUR_JA)):
        if (m := pattern.match(line)) is not None:
            # the older builds named the player of a 2-player game and judged Win/Loss
            # from that player's colour, as in a CPU game
            return Players("old-two", human=m.group(1),
                           human_colour=colours.index(m.group(2)))
    raise RecordError(
        f"cannot read the players line {line!r}: the app writes 'Black vs White (2-Player)', "
        "'NAME (Black) vs NAME (White)' or 'NAME (Black|White) vs CPU LEVEL'",
                      why=record_why("record.header", format="ReverStarGo", text=line))


def _verdicts(players: Players, winner: int | None, language: str) -> str:
    if players.mode == "old-two":
        cpu_like = Players("cpu", human=players.human, human_colour=players.human_colour)
        return cpu_like.verdict(winner, language)
    return players.verdict(winner, language)


def parse_app_text(text: str) -> tuple[Header, Players]:
    """Split the app's text into its header and its entries (nothing replayed yet)."""
    header = Header()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith(MEMO.strip()):
        header.memo = lines[i][len(MEMO.strip()):].strip()
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or lines[i].strip() not in (HEADER_EN, HEADER_JA):
        raise RecordError(f"not a ReverStarGo record: the {HEADER_EN} (or {HEADER_JA}) "
                          "header is missing",
                          why=record_why("record.format", format="ReverStarGo"))
    header.language = "ja" if lines[i].strip() == HEADER_JA else "en"
    i += 1
    players: Players | None = None
    while i < len(lines) and lines[i].strip() != RULE:
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if m := re.match(r"^(?:Date|日付)\s*[:：]\s*(.*)$", line):
            header.date = m.group(1)
        elif (m := _RESULT_EN.match(line) or _RESULT_JA.match(line)) is not None:
            header.result = (int(m.group(1)), int(m.group(2)))
            header.verdict = m.group(3)
        elif (m := _MOVES_EN.match(line) or _MOVES_JA.match(line)) is not None:
            header.moves = int(m.group(1))
            header.passes = int(m.group(2) or 0)
            if m.group(2) is not None and header.passes == 0:
                raise RecordError("the moves line counts 0 passes; the app writes the "
                                  "pass count only when there are passes",
                                  why=record_why("record.header", format="ReverStarGo", text=line))
        elif players is None and " vs " in line:
            header.match = line
            players = parse_players(line)
        else:
            raise RecordError(f"cannot read the header line {line!r}",
                              why=record_why("record.header", format="ReverStarGo", text=line))
    if i >= len(lines):
        raise RecordError(f"the {RULE} line between the header and the moves is missing",
                          why=record_why("record.no_rule", format="ReverStarGo", rule=RULE))
    if players is None:
        raise RecordError("the players line (e.g. 'Black vs White (2-Player)') is missing",
                          why=record_why("record.no_players", format="ReverStarGo"))
    for row in lines[i + 1:]:
        if not row.strip():
            continue
        # the app separates the two entries of a line by a tab; a copy that turned the tab
        # into spaces reads the same, so entries are found by their own shape
        end = 0
        for m in _IN_LINE.finditer(row):
            if row[end:m.start()].strip():
                break
            header.entries.append(_entry(m.group(0).strip(), len(header.entries) + 1))
            end = m.end()
        if row[end:].strip():
            bad = row[end:].strip().split("\t")[0]
            raise RecordError(f"entry {len(header.entries) + 1}: cannot read {bad!r}",
                              why=record_why("record.entry", format="ReverStarGo",
                                             number=len(header.entries) + 1, entry=bad))
    return header, players


def _entry(part: str, expected: int) -> tuple[int, int, str]:
    m = _ENTRY.match(part)
    if m is None:
        raise RecordError(f"entry {expected}: cannot read {part!r}",
                          why=record_why("record.entry", format="ReverStarGo", number=expected,
                                         entry=part))
    number = int(m.group(1))
    if number != expected:
        raise RecordError(f"entry {expected} ({part}): expected entry number {expected}",
                          why=record_why("record.entry", format="ReverStarGo", number=expected,
                                         entry=part))
    return number, SYMBOL.index(m.group(2)), part


def read_app_text(text: str) -> tuple[list[ReverStarGoState], list[MoveEntry], Header,
                                        Players]:
    """Replay the app's record text, checking every entry and every header number against
    the moves; stop at the first bad entry with its number and the reason."""
    from .kifu import replay_entries

    header, players = parse_app_text(text)
    states, moves = replay_entries([part for _, _, part in header.entries])
    final = states[-1]
    entries = final.entries
    if header.moves is not None and header.moves != len(entries):
        raise RecordError(f"the header says {header.moves} moves; the record lists "
                          f"{len(entries)} entries",
                          why=record_why("record.header_count", format="ReverStarGo",
                                         stated=header.moves, actual=len(entries)))
    passes = sum(e.is_pass for e in entries)
    if header.moves is not None and header.passes != passes:
        raise RecordError(f"the header counts {header.passes} passes; the record has "
                          f"{passes}",
                          why=record_why("record.header_count", format="ReverStarGo",
                                         stated=header.passes, actual=passes))
    if header.result is not None and header.result != final.score():
        raise RecordError(f"the header says Black {header.result[0]} - White "
                          f"{header.result[1]}; the moves give Black {final.score()[0]} - "
                          f"White {final.score()[1]}",
                          why=record_why("record.result", format="ReverStarGo",
                                         stated=f"{header.result[0]}-{header.result[1]}",
                                         actual=f"{final.score()[0]}-{final.score()[1]}"))
    if header.result is not None:
        want = _verdicts(players, winner_colour(final), header.language)
        if header.verdict != want:
            raise RecordError(f"the header's verdict ({header.verdict}) does not match the "
                              f"moves: the app would write ({want})",
                              why=record_why("record.result", format="ReverStarGo",
                                             stated=header.verdict, actual=want))
    return states, moves, header, players


# ---- records ---------------------------------------------------------------------------------
def seats_of(players: Players) -> tuple[SeatInfo, SeatInfo]:
    if players.mode == "cpu":
        human = SeatInfo("human", players.human)
        cpu = SeatInfo("bot", f"CPU {players.cpu}", CPU_LABELS.get(players.cpu, players.cpu))
        return (human, cpu) if players.human_colour == BLACK else (cpu, human)
    if players.names:
        return SeatInfo("human", players.names[0]), SeatInfo("human", players.names[1])
    return SeatInfo("human", ""), SeatInfo("human", "")


def app_text_to_record(text: str) -> Record:
    """Our JSON record of the app's text; the header's date, players line and memo are
    kept under ``extra["app"]`` so that exporting gives back the same text."""
    states, moves, header, players = read_app_text(text)
    record = Record.from_states(states, moves, 0, seats_of(players),
                                started=f"{header.date}T00:00:00+00:00" if _is_date(header.date)
                                else None)
    app = {"language": header.language, "date": header.date, "players": header.match}
    if header.memo is not None:
        app["memo"] = header.memo
    return Record(record.game, record.options, record.seed, record.moves, record.seats,
                  record.result, record.rules_version, record.started, record.finished,
                  {"app": app})


def _is_date(text: str) -> bool:
    return re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) is not None


def players_of_record(record: Record) -> Players:
    """The app's players line for one of our records: its own if it came from the app;
    else a CPU game when one seat is a bot of a level the app has, a named 2-player game
    when both seats have names, an unnamed one otherwise."""
    seats: Sequence[SeatInfo] = record.seats
    if len(seats) == 2:
        kinds = [s.kind for s in seats]
        if kinds.count("bot") == 1:
            human = kinds.index("human")
            bot = seats[1 - human]
            label = LABEL_OF_LEVEL.get(str(bot.level or "").lower(), None)
            if label is not None:
                return Players("cpu", human=seats[human].name or "You", human_colour=human,
                               cpu=label)
        if all(s.name for s in seats) and kinds.count("bot") == 0:
            return Players("two", names=(seats[0].name, seats[1].name))
    return Players("two")


def record_to_app_text(record: Record) -> str:
    """The app's text of one of our JSON records (replayed and checked first)."""
    from ...games import replay_record

    states = replay_record(record)
    state = states[-1]
    assert isinstance(state, ReverStarGoState)
    app = record.extra.get("app") if isinstance(record.extra, dict) else None
    if isinstance(app, dict) and isinstance(app.get("players"), str):
        language = "ja" if app.get("language") == "ja" else "en"
        players = parse_players(app["players"])
        date = str(app.get("date", ""))
        memo = app.get("memo")
        if players.mode == "old-two":  # the older builds' line, kept as it was
            return _with_line(write_app_text(state, Players("cpu", human=players.human,
                                                            human_colour=players.human_colour),
                                             date, language, memo), app["players"])
        return write_app_text(state, players, date, language, memo if memo else None)
    date = (record.started or "")[:10]
    return write_app_text(state, players_of_record(record), date)


def _with_line(text: str, players_line: str) -> str:
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line in (HEADER_EN, HEADER_JA)) + 2
    lines[k] = players_line
    return "\n".join(lines)


__all__ = ["HEADER_EN", "HEADER_JA", "RULE", "Players", "app_text_to_record",
           "is_app_text", "parse_app_text", "read_app_text", "record_to_app_text",
           "write_app_text"]
