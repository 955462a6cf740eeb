"""Seat keys and the room's secrets derived from them: a seat key (shown once, stored as a
hash), a rematch's key (derived from the old one by its holder), the rematch room's id and
the CPU's seed."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_key() -> str:
    return secrets.token_urlsafe(18)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def derive_key(old_key: str, new_room: str) -> str:
    """A rematch seat key that only the holder of the old seat key can (re)obtain."""
    return hmac.new(old_key.encode(), f"rematch:{new_room}".encode(), "sha256").hexdigest()[:24]


def rematch_room_id(room_id: str) -> str:
    """The id of a room's rematch, fixed in advance: every server process holding one of its
    seats derives the same one, so each can hand its own players their rematch keys, and a
    rematch started at two processes at once is created once (the second create is refused
    by the room id's uniqueness). It is no secret: the room shows it to everyone anyway."""
    return hashlib.sha256(f"rematch:{room_id}".encode()).hexdigest()[:10]


CPU_SECRET = "cpu"
"""The name of the server secret (``prog_secrets``) that seeds every room's CPU."""


def cpu_seed(key: bytes, room_id: str) -> int:
    """The seed of the CPU's choices in room ``room_id``: an HMAC of the room's id under the
    server's CPU secret. Each room (each daily attempt, each game of a set) gets its own,
    unknown to anyone until the room's record shows it once the game is over — and one
    room's seed says nothing about another's. The room's own ``seed`` deals (it may be a
    daily challenge's or a set's earlier game's, both public in time); the CPU's choices
    were derived from it before, so anyone who knew it predicted them (issue 25 item 4;
    docs/fair-play.md, "The CPU's seed")."""
    mac = hmac.new(key, f"asobiba-cpu|{room_id}".encode(), "sha256")
    # 48 bits, as a room's own seed: exact in JavaScript, and within the API's bounded ints
    return int.from_bytes(mac.digest()[:6], "big")

