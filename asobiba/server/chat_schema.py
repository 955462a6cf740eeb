"""The chat routes' operations (server.chat, docs/web.md "Chat"), added to the API's table
(:data:`api_schema.OPS`, :data:`api_schema.PATHS`) by :func:`register`."""

from __future__ import annotations

from . import api_schema
from .api_schema import (
    ChatLines,
    ChatPost,
    ChatPosted,
    ChatQuery,
    ChatReport,
    Op,
    ReplayChat,
    ReportFiled,
    RoomPath,
    TournamentPath,
    _Params,
)

OPS: dict[tuple[str, str], Op] = {
    ("GET", "/api/tournaments/{tournament}/chat"): Op({200: ChatLines}, query=ChatQuery),
    ("POST", "/api/tournaments/{tournament}/chat"): Op({201: ChatPosted}, body=ChatPost),
    ("POST", "/api/chat/reports"): Op({201: ReportFiled}, body=ChatReport),
    ("GET", "/api/rooms/{room}/chat"): Op({200: ReplayChat}),
}

PATHS: dict[str, type[_Params]] = {
    "/api/tournaments/{tournament}/chat": TournamentPath,
    "/api/rooms/{room}/chat": RoomPath,
}


def register() -> None:
    """Add these operations to the API's table (idempotent)."""
    api_schema.OPS.update(OPS)
    api_schema.PATHS.update(PATHS)
