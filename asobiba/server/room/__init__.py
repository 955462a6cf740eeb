"""A room and its flows (docs/architecture.md, "The server"): :mod:`.state` (the room's
game cache and what the table shows), :mod:`.hub` (every room of a process, a thin router),
and one module per concern — moves and acknowledgements, clock, finishing, offers, notes,
presence and claims, bots, persistence, the cross-process bus."""

from __future__ import annotations

from .bots import BOT_RETRY
from .clock import clock_now
from .conn import Conn
from .errors import ClientError
from .finish import forfeit_result
from .hub import Hub
from .keys import CPU_SECRET, cpu_seed, derive_key, hash_key, new_key, rematch_room_id
from .state import Room

__all__ = ["BOT_RETRY", "CPU_SECRET", "ClientError", "Conn", "Hub", "Room", "clock_now",
           "cpu_seed", "derive_key", "forfeit_result", "hash_key", "new_key",
           "rematch_room_id"]
