"""The progression layer's route table, in matching order: its pages, then the API of
tutorials, accounts (and their settings), players (and their game histories),
leaderboards, the daily challenge, the ladder, the rooms' link to accounts, move feedback
and reviews — each handler behind :func:`.context.handled`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.routing import Route

from ..account_settings import settings_routes
from ..history_routes import history_routes
from ..routes.pages import page_route
from . import accounts, daily, ladder, recording, review, tutorials
from .context import handled as h

if TYPE_CHECKING:
    from .context import ProgressionWeb


def route_table(web: ProgressionWeb) -> list[Route]:
    """Every route of the progression layer (the settings table is made on ``web``'s
    engine; the settings and history handlers read ``web`` from the request)."""
    return [
        page_route("/tutorial/{game}", "tutorial.html"),
        page_route("/account", "account.html"),
        page_route("/player/{player}", "player.html"),
        page_route("/leaderboard/{game}", "leaderboard.html"),
        page_route("/daily/{game}", "daily.html"),
        page_route("/ladder/{game}", "ladder.html"),
        Route("/api/tutorials/{game}", h(tutorials.tutorial)),
        Route("/api/tutorials/{game}/{step}", h(tutorials.tutorial_attempt),
              methods=["POST"]),
        Route("/api/account", h(accounts.me)),
        Route("/api/account/register", h(accounts.register), methods=["POST"]),
        Route("/api/account/login", h(accounts.login), methods=["POST"]),
        Route("/api/account/guest", h(accounts.guest), methods=["POST"]),
        Route("/api/account/logout", h(accounts.logout), methods=["POST"]),
        *settings_routes(web.engine),
        Route("/api/players/{player}", h(accounts.player_page)),
        # a player's games: the filtered list, a game's record, the export (history_routes)
        *history_routes(),
        Route("/api/leaderboards/{game}", h(accounts.leaderboards)),
        Route("/api/daily/{game}", h(daily.daily)),
        Route("/api/daily/{game}/answer", h(daily.daily_answer), methods=["POST"]),
        Route("/api/daily/{game}/play", h(daily.daily_play), methods=["POST"]),
        Route("/api/ladder/{game}", h(ladder.ladder)),
        Route("/api/ladder/{game}/exam", h(ladder.ladder_exam), methods=["POST"]),
        Route("/api/ladder/{game}/leave", h(ladder.ladder_leave), methods=["POST"]),
        Route("/api/ladder/{game}/play", h(ladder.ladder_play), methods=["POST"]),
        Route("/api/ladder/{game}/next", h(ladder.ladder_next), methods=["POST"]),
        Route("/api/rooms/{room}/claim", h(recording.claim_seats), methods=["POST"]),
        Route("/api/rooms/{room}/progress", h(recording.room_rating)),
        Route("/api/rooms/{room}/feedback", h(review.room_feedback), methods=["POST"]),
        Route("/api/review", h(review.review), methods=["POST"]),
    ]
