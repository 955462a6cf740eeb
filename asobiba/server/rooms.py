"""The room core moved to the package :mod:`asobiba.server.room` (one module per concern);
this name stays so the rest of the server and the tests import what they always did."""

from __future__ import annotations

from .room import (
    BOT_RETRY,
    CPU_SECRET,
    ClientError,
    Conn,
    Hub,
    Room,
    clock_now,
    cpu_seed,
    derive_key,
    forfeit_result,
    hash_key,
    new_key,
    rematch_room_id,
)

__all__ = ["BOT_RETRY", "CPU_SECRET", "ClientError", "Conn", "Hub", "Room", "clock_now",
           "cpu_seed", "derive_key", "forfeit_result", "hash_key", "new_key",
           "rematch_room_id"]
