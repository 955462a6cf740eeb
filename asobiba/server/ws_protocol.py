"""The typed WebSocket protocol (issue 26 item 4): every message a client may send to a room
(``/ws/{room}``) or to the lobby (``/ws/lobby``), and every message the server sends back, as
one discriminated union of pydantic models per direction. The client unions are the runtime
validators — :func:`parse_room` turns raw JSON into exactly one model or refuses it with a code
(``unknown_type``, ``bad_message`` with the field and the problem as arguments) before any
handler runs, so each handler receives its model, never a dict it must re-check. The server
models document what is sent (the app serves both as JSON Schema at ``/api/ws-schema.json``,
beside ``/api/openapi.json``); tests check the messages a real game produces against them and
fuzz the server with messages generated from the client schema (tests/web/test_ws_protocol.py).

Why one model per ``type`` with ``extra="ignore"``: fields a client adds for its own use (the
browser sends ``id`` with every message) are harmless and were always accepted; a field the
server reads is typed strictly (``"seat": "1"`` or ``"accept": "yes"`` is refused, not read).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..core.jsontypes import JSONObject
from .rooms import ClientError

MessageId = int | Annotated[str, Field(max_length=100)]
Seat = Annotated[int, Field(ge=0, le=63)]
Ply = Annotated[int, Field(ge=0)]


class _Client(BaseModel):
    """A client message: ``type`` names it; ``id``, if given, comes back in its ack or error."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    id: MessageId | None = None


class _ForSeat(_Client):
    seat: Seat | None = None
    """The seat acted for; may be left out when the connection holds one seat (or only one
    of its seats can act)."""


class SeatClaim(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    seat: Seat
    key: Annotated[str, Field(max_length=100)]


class Hello(_Client):
    """Join the room, claiming seats by their keys (a spectator claims none)."""

    type: Literal["hello"]
    seats: Annotated[list[SeatClaim], Field(max_length=16)] = []
    ack_in_update: bool = False
    """Acknowledge this connection's moves inside its update (saves a message per move)."""


class Move(_ForSeat):
    """Play ``move`` (the game's notation). ``ply``: the number of moves the sender saw; a
    move for an older position is refused as ``stale``."""

    type: Literal["move"]
    move: Annotated[str, Field(max_length=200)]
    ply: Ply | None = None


class Resign(_ForSeat):
    type: Literal["resign"]


class Undo(_ForSeat):
    """Ask to take back the last move (the opponent answers with ``undo_reply``)."""

    type: Literal["undo"]


class UndoReply(_ForSeat):
    type: Literal["undo_reply"]
    accept: bool = False


class Draw(_ForSeat):
    """Offer a draw (``accept`` absent), or answer an offer (true or false)."""

    type: Literal["draw"]
    accept: bool | None = None


class Abort(_ForSeat):
    """End a game before it has really begun: not rated, no result."""

    type: Literal["abort"]


class Hint(_ForSeat):
    """Patapata: ask for the next step of the current task (it costs a marker)."""

    type: Literal["hint"]


class Rematch(_Client):
    """Offer (or accept) a rematch; ``accept: false`` declines the standing offer."""

    type: Literal["rematch"]
    accept: bool | None = None


class Next(_Client):
    """In a set of games: go on to the next one."""

    type: Literal["next"]


class Claim(_Client):
    """Claim the win (or the seat) when the opponent has gone (docs/fair-play.md)."""

    type: Literal["claim"]


class Ping(_Client):
    type: Literal["ping"]


class Sync(_Client):
    """The client missed an update (a gap in ``moves_from``): send everything anew."""

    type: Literal["sync"]


class HistoryRequest(_Client):
    """A page of the views this connection's seats have seen: positions ``from`` (0 = the
    start) up to ``to`` (exclusive; default: as far as one page goes)."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True,
                              populate_by_name=True)
    type: Literal["history"]
    from_: Ply = Field(0, alias="from")
    to: Ply | None = None


class Chat(_Client):
    """A chat line (server.chat): ``players`` from a seat's socket, ``spectators`` from a
    watcher's. Checked, stored and relayed, or refused with a ``chat_*`` code."""

    type: Literal["chat"]
    channel: Literal["players", "spectators"]
    text: Annotated[str, Field(max_length=2000)]


class ChatJoin(_Client):
    """Receive this room's chat: the lines this socket may read now, then each new one."""

    type: Literal["chat_join"]


RoomClientMessage = Annotated[
    Hello | Move | Resign | Undo | UndoReply | Draw | Abort | Hint | Rematch | Next | Claim
    | Ping | Sync | HistoryRequest | Chat | ChatJoin,
    Field(discriminator="type")]
"""Everything a client may send on ``/ws/{room}``."""


class LobbyHello(_Client):
    """The seeks this page opened (their tokens), so it hears when one is taken."""

    type: Literal["hello"]
    tokens: Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=20)] = []


LobbyClientMessage = Annotated[LobbyHello, Field(discriminator="type")]
"""Everything a client may send on ``/ws/lobby``."""

ROOM_TYPES = ("hello", "move", "resign", "undo", "undo_reply", "draw", "abort", "hint",
              "rematch", "next", "claim", "ping", "sync", "history", "chat", "chat_join")

_ROOM: TypeAdapter[RoomClientMessage] = TypeAdapter(RoomClientMessage)
_LOBBY: TypeAdapter[LobbyClientMessage] = TypeAdapter(LobbyClientMessage)


def _refusal(exc: ValidationError, kind: object, types: tuple[str, ...]) -> ClientError:
    first = exc.errors(include_url=False, include_input=False)[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return ClientError("unknown_type", f"unknown message type {kind!r}; types: "
                           f"{', '.join(types)}", args={"type": str(kind)[:40],
                                                        "types": ", ".join(types)})
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    return ClientError("bad_message", f"'{where}': {first['msg']}",
                       args={"field": where, "problem": first["type"]})


def parse_room(msg: JSONObject) -> RoomClientMessage:
    """The room message ``msg`` as its model, or :class:`ClientError` (nothing done)."""
    try:
        return _ROOM.validate_python(msg)
    except ValidationError as exc:
        raise _refusal(exc, msg.get("type"), ROOM_TYPES) from None


def parse_lobby(msg: object) -> LobbyClientMessage:
    """The lobby message ``msg`` as its model, or :class:`ClientError`."""
    try:
        return _LOBBY.validate_python(msg)
    except ValidationError as exc:
        kind = msg.get("type") if isinstance(msg, dict) else None
        raise _refusal(exc, kind, ("hello",)) from None


# ---- what the server sends ----------------------------------------------------------------
class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatView(_Server):
    seat: int | None
    """The seat whose view this is (null: a spectator's, the public view)."""
    view: dict[str, object]
    """``state.view(seat)``: all that seat may know of the position (docs/web.md)."""


class Update(_Server):
    """The room as this connection may see it: public room data, its seats, their views."""

    type: Literal["update"]
    room: dict[str, object]
    """Room data (game, options, seats, status, result, clock, offers, moves ...)."""
    you: list[int]
    views: list[SeatView]
    ack: MessageId | None = None
    """The id of this connection's move that the update answers (``ack_in_update``)."""


class Ack(_Server):
    type: Literal["ack"]
    id: MessageId


class Error(_Server):
    """A refusal: nothing was done. ``code`` is stable and ``args`` its arguments (the front
    end words them in the reader's language); ``message`` is English for logs and tools."""

    type: Literal["error"]
    code: str
    message: str
    id: MessageId | None = None
    args: dict[str, str] | None = None
    retry_after: float | None = None


class Pong(_Server):
    type: Literal["pong"]


class ViewsOfSeat(_Server):
    seat: int | None
    views: list[dict[str, object]]


class History(_Server):
    """A page of views (``history``'s answer); ``next``: where the following page starts."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["history"]
    from_: int = Field(alias="from")
    to: int
    next: int | None
    positions: int
    views: list[ViewsOfSeat]


class SeatKey(_Server):
    seat: int
    key: str


class RematchKeys(_Server):
    """The rematch's room and this connection's seat keys there."""

    type: Literal["rematch"]
    room: str
    keys: list[SeatKey]


class SetNext(_Server):
    """The next game of a set: its room and this connection's seat keys there."""

    type: Literal["set_next"]
    room: str
    keys: list[SeatKey]


class NotCounted(_Server):
    type: Literal["not_counted"]
    reason: str


class SetContinues(_Server):
    type: Literal["set_continues"]
    wins: list[int]


class ChatLine(_Server):
    id: int
    channel: Literal["players", "spectators"]
    author: str
    seat: int | None
    text: str
    at: str


class ChatMessage(_Server):
    """A new chat line this socket may read (it sent ``chat_join``)."""

    type: Literal["chat"]
    line: ChatLine


class ChatLinesMessage(_Server):
    """``chat_join``'s answer: the stored lines this socket may read now, and what it may
    write (``players_chat``: the players' channel is on; ``spectators_hidden``: a player
    of a game whose spectators' lines are held back until it ends)."""

    type: Literal["chat_lines"]
    lines: list[ChatLine]
    players_chat: bool
    signed_in: bool
    player: bool
    spectators_hidden: bool


RoomServerMessage = Annotated[
    Update | Ack | Error | Pong | History | RematchKeys | SetNext | NotCounted | SetContinues
    | ChatMessage | ChatLinesMessage,
    Field(discriminator="type")]
"""Everything the server sends on ``/ws/{room}``."""


class Lobby(_Server):
    type: Literal["lobby"]
    seeks: list[dict[str, object]]
    live: list[dict[str, object]]


class SeekTaken(_Server):
    model_config = ConfigDict(extra="allow")
    type: Literal["seek_taken"]
    seek: str
    room: str
    late: bool = False
    """True when the opener's page was away when it was taken: the key kept for them."""


LobbyServerMessage = Annotated[Lobby | SeekTaken | Error, Field(discriminator="type")]
"""Everything the server sends on ``/ws/lobby``."""

ROOM_SERVER: TypeAdapter[RoomServerMessage] = TypeAdapter(RoomServerMessage)
LOBBY_SERVER: TypeAdapter[LobbyServerMessage] = TypeAdapter(LobbyServerMessage)


def schema() -> JSONObject:
    """The protocol as JSON Schema: per socket, what the client sends and what it gets."""
    def one(adapter: TypeAdapter[object], mode: Literal["validation", "serialization"]
            ) -> JSONObject:
        return adapter.json_schema(mode=mode, by_alias=True)

    return {
        "title": "asobiba WebSocket protocol",
        "description": "Every message is one JSON object; 'type' names it. See docs/web.md, "
                       "'The WebSocket protocol'.",
        "sockets": {
            "/ws/{room}": {"client": one(_ROOM, "validation"),  # type: ignore[arg-type]
                           "server": one(ROOM_SERVER, "serialization")},  # type: ignore[arg-type]
            "/ws/lobby": {"client": one(_LOBBY, "validation"),  # type: ignore[arg-type]
                          "server": one(LOBBY_SERVER, "serialization")},  # type: ignore[arg-type]
        },
    }
