"""The game registry. Each game lives in its own package ``asobiba.games.<id>`` and exposes
``GAME`` (a :class:`~asobiba.core.Game` instance). Games are imported lazily, on first use,
so starting the CLI for one game does not load the others."""

from __future__ import annotations

import importlib

from ..core import Game, Record, State, UnknownGameError

#: Game ids in display order. Adding a game = adding its package and its id here.
GAME_IDS: tuple[str, ...] = (
    "reversi", "flipflop", "reverstargo", "memory_matrix", "algo", "patapata",
)

_loaded: dict[str, Game] = {}


def available() -> list[str]:
    """Ids of the games whose package is present in this build."""
    out = []
    for gid in GAME_IDS:
        try:
            get(gid)
        except UnknownGameError:
            continue
        out.append(gid)
    return out


def get(game_id: str) -> Game:
    """The game with this id, e.g. ``get("reversi")``; unknown ids name the known ones."""
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id not in GAME_IDS:
        raise UnknownGameError(f"unknown game {game_id!r}; games: {', '.join(GAME_IDS)}")
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"{__name__}.{game_id}"):
            raise UnknownGameError(f"game {game_id!r} is not built yet") from exc
        raise
    game = getattr(module, "GAME", None)
    if game is None:
        raise UnknownGameError(f"game {game_id!r} is not built yet")
    _loaded[game_id] = game
    return game


def all_games() -> list[Game]:
    return [get(gid) for gid in available()]


def replay_record(record: Record) -> list[State]:
    """Replay a record with the registry's games (see :meth:`Record.replay`)."""
    return record.replay(get)
