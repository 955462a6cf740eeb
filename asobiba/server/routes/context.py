"""What every route module's handlers need, typed: one :class:`AppContext` per app, kept at
``app.state.ctx`` by :func:`asobiba.server.app.create_app` and read with :func:`ctx` (a
handler is a plain module-level ``async def handler(request)``: no closure over the app)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

if TYPE_CHECKING:
    from ..analysis_routes import AnalysisWeb
    from ..bot_api import BotApi
    from ..bots import BotPool
    from ..bus import RedisBus
    from ..db import Store
    from ..fairplay import Policy
    from ..jobs import RedisJobs
    from ..limits import Limits
    from ..lobby import Lobby
    from ..progress import ProgressionWeb
    from ..puzzle_routes import PuzzleWeb
    from ..room import Room
    from ..rooms import Hub
    from ..tournament_routes import TournamentWeb


@dataclass
class AppContext:
    """The app's parts: the store, the bots, the limits, the lobby, the progression layer, the
    Bot API, the puzzle trainer, the tournaments, the analysis board and (once the app has
    started: :attr:`hub`) the rooms' Hub."""

    store: Store
    pool: BotPool
    limits: Limits
    policy: Policy
    bot_delay: float
    bot_time_limit: float
    abandon_after: float | None
    sweep_every: float | None
    bus: RedisBus | None = None
    jobs: RedisJobs | None = None
    lobby: Lobby | None = None
    progression: ProgressionWeb | None = None
    bot_api: BotApi | None = None
    """The Bot API's part (``bot_api.api(request)``): its engine, the Hub and the limits."""
    puzzles: PuzzleWeb | None = None
    """The puzzle trainer's part (:func:`asobiba.server.puzzle_routes.pweb`)."""
    tournaments: TournamentWeb | None = None
    """The tournaments' part (:func:`asobiba.server.tournament_routes.tweb`)."""
    analysis: AnalysisWeb | None = None
    """The analysis board's part (:func:`asobiba.server.analysis_routes.aweb`): the analysis
    process(es), the CPU budget and who a session cookie is."""
    holder: dict[str, Hub] = field(default_factory=dict)
    """The Hub, made at start-up (``holder["hub"]``: also ``app.state.holder``)."""

    @property
    def hub(self) -> Hub:
        return self.holder["hub"]

    def get_hub(self) -> Hub:
        """:attr:`hub` as a function, for the parts that take one (built before start-up)."""
        return self.holder["hub"]

    async def open_room(self, room_id: str) -> Room | None:
        """The room ``room_id``, loaded if need be; a tournament game paired but not yet
        made by the driver (a round's rooms are made one at a time) is made now, so the
        player who opens it the moment its pairing shows finds it."""
        room = await self.hub.get(room_id)
        if (room is None and len(room_id) <= 32 and self.tournaments is not None
                and await self.tournaments.ensure_room(room_id)):
            room = await self.hub.get(room_id)
        return room

    @property
    def prog(self) -> ProgressionWeb:
        assert self.progression is not None, "create_app sets it"
        return self.progression


def ctx(conn: HTTPConnection) -> AppContext:
    """The app's context, from a request or a WebSocket."""
    got = conn.app.state.ctx
    assert isinstance(got, AppContext)
    return got
