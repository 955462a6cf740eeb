"""The game registry. Each game lives in its own package and exports ``MANIFEST`` (a
:class:`~asobiba.core.manifest.GameManifest`: its rules and everything else it brings). The
registry resolves a game's manifest once, on first use, so starting the CLI for one game does
not load the others; every lookup of the platform (progression, encoding, formats, paper, CLI
extras, tutorial, web renderer and words) goes through :func:`manifest`.

The six games shipped are listed in :data:`GAME_IDS` — the one list of shipped ids; everything
that lists games (CLI, lobby, bindings, format detection, paper, tests) asks
:func:`available`, which holds the plugged-in games too. Another package can be plugged in
without editing anything here: :func:`register` (in-process, e.g. a test), or the environment
variable ``ASOBIBA_GAMES`` — ``id=module`` pairs separated by commas, read when a process
starts, so that a server started as a separate process knows the game too
(``ASOBIBA_GAMES=tictactoe=tests.tictactoe``).

Failures are loud: a registered game whose import fails raises :class:`GameImportError` from
:func:`get` (and so from the lobby, the CLI and the tests) with the original error chained;
it is never taken for a game that does not exist.
"""

from __future__ import annotations

import importlib
import os
import re
from typing import ClassVar

from ..core import AsobibaError, Game, Record, State, UnknownGameError
from ..core.manifest import GameManifest

#: The games shipped, in display order.
GAME_IDS: tuple[str, ...] = (
    "reversi", "flipflop", "reverstargo", "memory_matrix", "algo", "patapata",
)

_modules: dict[str, str] = {gid: f"{__name__}.{gid}" for gid in GAME_IDS}
_loaded: dict[str, GameManifest] = {}
_ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


class GameImportError(AsobibaError):
    """A registered game whose package fails to import or holds no ``MANIFEST``: the server's
    fault, said loudly (500), never the client's."""

    code: ClassVar[str] = "game_import_failed"
    status: ClassVar[int] = 500


def register(game_id: str, module: str) -> None:
    """Plug in the game whose package is ``module`` (it must define ``MANIFEST`` for this id).
    The game is imported on first use, like the shipped ones."""
    if not _ID.match(game_id):
        raise ValueError(f"game id {game_id!r}: lower-case letters, digits and _ only")
    if _modules.get(game_id, module) != module:
        raise ValueError(f"game id {game_id!r} is already registered for {_modules[game_id]}")
    _modules[game_id] = module


def unregister(game_id: str) -> None:
    """Forget a plugged-in game (tests); the shipped games cannot be removed."""
    if game_id in GAME_IDS:
        raise ValueError(f"{game_id!r} is shipped with asobiba and cannot be unregistered")
    _modules.pop(game_id, None)
    _loaded.pop(game_id, None)


def _from_environment() -> None:
    for entry in os.environ.get("ASOBIBA_GAMES", "").split(","):
        if entry.strip():
            game_id, sep, module = entry.strip().partition("=")
            if not sep or not module:
                raise ValueError(f"ASOBIBA_GAMES entry {entry!r}: write id=module")
            register(game_id.strip(), module.strip())


_from_environment()


def available() -> list[str]:
    """Ids of every registered game (the shipped ones first). Nothing is imported: a game
    that fails to import is listed, and :func:`get` says why it fails."""
    return list(_modules)


def manifest(game_id: str) -> GameManifest:
    """The manifest of the game with this id, resolved once; unknown ids name the known ones,
    and a registered game that fails to import raises :class:`GameImportError`."""
    if game_id in _loaded:
        return _loaded[game_id]
    module_name = _modules.get(game_id)
    if module_name is None:
        raise UnknownGameError(f"unknown game {game_id!r}; games: {', '.join(_modules)}")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any failure is reported, with its cause
        raise GameImportError(f"game {game_id!r} ({module_name}) failed to import: "
                              f"{type(exc).__name__}: {exc}") from exc
    found = getattr(module, "MANIFEST", None)
    if not isinstance(found, GameManifest) or not isinstance(found.game, Game):
        raise GameImportError(f"game {game_id!r}: {module_name} defines no MANIFEST "
                              "(an asobiba.core.manifest.GameManifest)")
    if found.game.id != game_id:
        raise GameImportError(f"game {game_id!r}: {module_name}.MANIFEST says its id is "
                              f"{found.game.id!r}")
    _loaded[game_id] = found
    return found


def get(game_id: str) -> Game:
    """The game with this id, e.g. ``get("reversi")`` (its manifest's rules)."""
    return manifest(game_id).game


def all_games() -> list[Game]:
    return [get(gid) for gid in available()]


def replay_record(record: Record) -> list[State]:
    """Replay a record with the registry's games (see :meth:`Record.replay`)."""
    return record.replay(get)
