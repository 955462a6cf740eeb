"""Progression: accounts, ratings, match formats, the 30-rank ladder, daily challenges,
tutorials and move-quality feedback — game-independent, on the protocol and the registry.

The web app and the CLI call :class:`Progression` (``service.py``); the modules below it are
usable one by one (see docs/progression.md):

* ``glicko2`` / ``skill`` — the rating mathematics; ``ratings`` — pools, rated results,
  leaderboards, player pages; ``accounts`` — accounts, guests, sessions;
* ``matches`` — single games, reverse matches, best-of-N series, a bot match runner;
* ``ladder_data`` / ``ladder`` — the ranks as data and their rules; ``daily``; ``tutorials``;
  ``feedback``; ``calibrate`` — bot ratings.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..core.extras import require

# accounts, ratings and the rest live in the web app's database: the 'web' extra (found
# without importing it, so a light module such as ``matches`` stays light)
require("web", "asobiba.progression")

if TYPE_CHECKING:
    from .errors import AccountError, AuthError, LadderError, MatchError, ProgressionError
    from .matches import Match, MatchFormat, play_match
    from .models import Base, create_all
    from .service import Progression

# Each name is imported from its module on first use (PEP 562): importing one light module of
# the package (e.g. ``progression.matches`` for the web's rooms) must not load SQLAlchemy and
# the whole service — that was most of the web server's start-up time (docs/web.md).
_WHERE = {
    "AccountError": "errors", "AuthError": "errors", "LadderError": "errors",
    "MatchError": "errors", "ProgressionError": "errors", "Match": "matches",
    "MatchFormat": "matches", "play_match": "matches", "Base": "models",
    "create_all": "models", "Progression": "service",
}

__all__ = [
    "AccountError", "AuthError", "Base", "LadderError", "Match", "MatchError", "MatchFormat",
    "Progression", "ProgressionError", "create_all", "play_match",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
