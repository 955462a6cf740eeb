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

from .errors import AccountError, AuthError, LadderError, MatchError, ProgressionError
from .matches import Match, MatchFormat, play_match
from .models import Base, create_all
from .service import Progression

__all__ = [
    "AccountError", "AuthError", "Base", "LadderError", "Match", "MatchError", "MatchFormat",
    "Progression", "ProgressionError", "create_all", "play_match",
]
