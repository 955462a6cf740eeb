"""One WebSocket connection to a room: the seats it proved keys for and how to send to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ...core.jsontypes import JSONObject


@dataclass(eq=False)
class Conn:
    """One WebSocket connection: the seats it proved keys for, and how to send to it."""

    send: Callable[[JSONObject], Awaitable[None]]
    keys: dict[int, str] = field(default_factory=dict)
    send_text: Callable[[str], Awaitable[None]] | None = None
    """Sends an already serialised message (a broadcast serialises each message once)."""
    moves_sent: int = -1
    """How many of the room's moves this connection has been sent (-1: none yet); the next
    update carries only the moves after them (``moves_from``)."""
    history: int = -1
    """The room's ``history`` count when those were sent: an undo or a reload that rewrote
    the moves since makes the next update a full one."""
    ack_in_update: bool = False
    """Said in its hello: the update that shows this connection's move carries the move's
    acknowledgement (``"ack": id``) instead of a separate ``ack`` message after it."""
    address: str = "?"
    """The client's address (``limits.client_ip``): the per-address byte budget of
    ``history`` (server.table) is counted by it."""

    @property
    def seats(self) -> set[int]:
        return set(self.keys)


Ack = tuple[Conn, int | str]
"""A move's acknowledgement: the mover's connection and the id of its message."""
