"""The progression layer over HTTP lives in the feature modules of
:mod:`asobiba.server.progress` (accounts, tutorials, daily, ladder, exams, recording,
review); this name stays for the parts that import the session cookie's name, the date or
the app's progression part from here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from ..progression import Progression
from .limits import Limits
from .progress import COOKIE, EXAM_CHECK, EXAM_GRACE, WEB_DIR, ProgressionWeb, utc_today

if TYPE_CHECKING:
    from .rooms import Hub

_utc_today = utc_today


def progression_routes(engine: Engine, hub: Callable[[], Hub],
                       prog: Progression | None = None,
                       today: Callable[[], date] = utc_today,
                       daily_key: bytes | None = None,
                       limits: Limits | None = None) -> ProgressionWeb:
    """The app's progression part (:class:`~.progress.context.ProgressionWeb`): its routes,
    the hook for finished rooms, the record embargo, the warm-up and the exam watch."""
    return ProgressionWeb(engine, hub, prog=prog, today=today, daily_key=daily_key,
                          limits=limits)


__all__ = ["COOKIE", "EXAM_CHECK", "EXAM_GRACE", "WEB_DIR", "ProgressionWeb",
           "progression_routes"]
