"""The tournament routes' request and answer models (docs/tournaments.md), added to the
API's table (:data:`api_schema.OPS`, :data:`api_schema.PATHS`) by :func:`register`: the
routes are checked and documented like every other."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, StrictBool, StrictInt

from . import api_schema
from .api_schema import PAGE, Clock, Media, Op, _Answer, _Model, _Params

EVENTS = Media("text/event-stream", "server-sent events: the tournament's snapshot "
               "(as GET /api/tournaments/{tournament}) each time it changes")


class TournamentPath(_Params):
    tournament: str = Field(min_length=1, max_length=12, pattern=r"^[0-9]+$")
    codes: ClassVar[dict[str, str]] = {"tournament": "no_tournament"}


class TournamentCreate(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options",
                                       "clock": "bad_clock"}
    name: str = Field("", max_length=80)
    game: str = Field(max_length=40)
    kind: Literal["swiss", "arena", "tables"]
    options: dict[str, Any] = Field(default_factory=dict)
    casual: StrictBool = True
    clock: Clock | None = None
    rounds: StrictInt = Field(5, ge=1, le=30)
    minutes: StrictInt = Field(30, ge=5, le=720)
    starts_in: StrictInt = Field(5, ge=0, le=60 * 24 * 14)  # minutes from now


class TournamentInfo(_Answer):
    id: int
    name: str
    kind: str
    game: str
    status: str
    casual: bool


class TournamentList(_Answer):
    tournaments: list[TournamentInfo]


class TournamentCreated(_Answer):
    tournament: TournamentInfo


class TournamentSnapshot(_Answer):
    tournament: TournamentInfo
    standings: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    you: dict[str, Any] | None


class Entry(_Answer):
    status: str


OPS: dict[tuple[str, str], Op] = {
    ("GET", "/tournaments"): Op({200: PAGE}),
    ("GET", "/t/{tournament}"): Op({200: PAGE}),
    ("GET", "/api/tournaments"): Op({200: TournamentList}),
    ("POST", "/api/tournaments"): Op({201: TournamentCreated}, body=TournamentCreate),
    ("GET", "/api/tournaments/{tournament}"): Op({200: TournamentSnapshot}),
    ("GET", "/api/tournaments/{tournament}/events"): Op({200: EVENTS}),
    ("POST", "/api/tournaments/{tournament}/join"): Op({200: Entry}),
    ("POST", "/api/tournaments/{tournament}/withdraw"): Op({200: Entry}),
}

PATHS: dict[str, type[_Params]] = {
    "/t/{tournament}": TournamentPath,
    "/api/tournaments/{tournament}": TournamentPath,
    "/api/tournaments/{tournament}/events": TournamentPath,
    "/api/tournaments/{tournament}/join": TournamentPath,
    "/api/tournaments/{tournament}/withdraw": TournamentPath,
}


def register() -> None:
    """Add these operations to the API's table (idempotent)."""
    api_schema.OPS.update(OPS)
    api_schema.PATHS.update(PATHS)
