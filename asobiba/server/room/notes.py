"""The room's notes — what the table is told besides moves (a declined offer, an abort, a
hint taken, a bot that fell back to a random move) — as codes with arguments, never prose:
the page renders each from its i18n table (``note.<code>`` in asobiba/web/js/i18n.js), in
English or Japanese. Every note the room makes is built by one function here, so the set of
codes is this module's (docs/web.md, "Room notes")."""

from __future__ import annotations

from typing import Literal, TypedDict

NoteCode = Literal["undo_declined", "draw_declined", "rematch_declined", "aborted",
                   "hint_taken", "bot_fallback", "claimed"]


class Note(TypedDict):
    """One note: a code and its arguments (seats are 0-based seat numbers)."""

    code: NoteCode
    args: dict[str, int | str]


def declined(offer: Literal["undo", "draw", "rematch"], seat: int) -> Note:
    """``seat`` declined the ``offer`` made to it (told to everyone: the offerer learns it)."""
    code: NoteCode = ("undo_declined" if offer == "undo" else
                      "draw_declined" if offer == "draw" else "rematch_declined")
    return {"code": code, "args": {"seat": seat}}


def aborted(seat: int) -> Note:
    """``seat`` aborted the game before every seat had moved (nobody rated)."""
    return {"code": "aborted", "args": {"seat": seat}}


def claimed(seat: int, against: int, kind: str) -> Note:
    """``seat`` claimed the game against ``against`` who left (``kind``: ``abort`` when the
    one who left had not moved yet, else ``abandoned``)."""
    return {"code": "claimed", "args": {"seat": seat, "against": against, "kind": kind}}


def hint_taken(seat: int, count: int) -> Note:
    return {"code": "hint_taken", "args": {"seat": seat, "count": count}}


def bot_fallback(seat: int, why: str, detail: str = "") -> Note:
    """The bot in ``seat`` timed out, crashed or chose an illegal move (``why``), so a
    random legal move was played for it; ``detail`` is the exception's class name or the
    time limit (never the illegal move: it could reveal a secret)."""
    return {"code": "bot_fallback", "args": {"seat": seat, "why": why, "detail": detail}}


def from_event(raw: object) -> list[Note]:
    """Notes another process sent on the bus, checked for shape (anything else dropped)."""
    out: list[Note] = []
    for n in raw if isinstance(raw, list) else ():
        if (isinstance(n, dict) and isinstance(n.get("code"), str)
                and isinstance(n.get("args"), dict)):
            out.append({"code": n["code"], "args": {str(k): v for k, v in n["args"].items()
                                                    if isinstance(v, int | str)}})
    return out


__all__ = ["Note", "NoteCode", "aborted", "bot_fallback", "claimed", "declined",
           "from_event", "hint_taken"]
