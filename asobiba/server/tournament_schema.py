"""The tournament routes' request and answer models (docs/tournaments.md), added to the
API's table (:data:`api_schema.OPS`, :data:`api_schema.PATHS`) by :func:`register`: the
routes are checked and documented like every other."""

from __future__ import annotations

from . import api_schema
from .api_schema import (
    PAGE,
    Entry,
    Media,
    Op,
    TournamentCreate,
    TournamentCreated,
    TournamentList,
    TournamentPath,
    TournamentSnapshot,
    _Params,
)

EVENTS = Media("text/event-stream", "server-sent events: the tournament's snapshot "
               "(as GET /api/tournaments/{tournament}) each time it changes")


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
