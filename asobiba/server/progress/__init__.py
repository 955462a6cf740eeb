"""The progression layer over HTTP (issue 26 item 3): tutorials, accounts (session cookie),
player pages, leaderboards, daily challenges, the ladder and its exams, move feedback and
reviews, and recording finished rooms. Every call goes to
:class:`asobiba.progression.Progression` on the rooms' own database engine; argon2 and other
blocking work runs in the thread pool so the event loop keeps serving moves.

One feature module each, every handler a plain module-level ``async def handler(request)``
that reads its parts from the app's :class:`.context.ProgressionWeb` (``web(request)``):

* :mod:`.context` — the parts (``ProgressionWeb``), refusals, who is asking, a room's link;
* :mod:`.tutorials`, :mod:`.accounts` (and player pages, leaderboards), :mod:`.daily`,
  :mod:`.ladder`;
* :mod:`.exams` — the running exams, resumed on reload and failed when their page stays
  away (:class:`.exams.Exams`, owned by the ``ProgressionWeb``);
* :mod:`.recording` — seats claimed by accounts, rooms opened for the ladder and the daily
  challenge, finished rooms recorded and rated;
* :mod:`.review` — move feedback and reviews in the engine thread;
* :mod:`.routes` — the route table."""

from __future__ import annotations

from .context import COOKIE, WEB_DIR, ProgressionWeb, utc_today
from .exams import EXAM_CHECK, EXAM_GRACE

__all__ = ["COOKIE", "EXAM_CHECK", "EXAM_GRACE", "WEB_DIR", "ProgressionWeb", "utc_today"]
