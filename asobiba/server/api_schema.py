"""The typed HTTP API: a request model for every operation (body, query and path
parameters) that is the runtime validator, an answer model per success status, and the
OpenAPI document the app serves at ``/api/openapi.json`` — all from the models here
(docs/web.md, "The typed API").

Why pydantic models on the existing Starlette app rather than FastAPI routers: the routes,
middleware and error shape already exist and are tested; FastAPI would add a second routing
and error layer to keep in step with them. pydantic gives the same two things FastAPI would —
strict validation (``StrictBool``: ``"casual": "false"`` is refused, not read as true) and
JSON Schema for each model — from one class: :func:`bind` validates every request against
:data:`OPS` and :data:`PATHS` before the route's own code runs, and :func:`openapi` writes
the same models into the document, so the document cannot say one thing and the server check
another. msgspec would be faster but is not used anywhere else here; pydantic already was.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

import anyio.to_thread
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
)
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .rooms import ClientError
from .security import BadJSON, parse_json


class _Model(BaseModel):
    """A request body. ``codes``: the error code a refused field answers with (the game's
    own terms: ``bad_seats``, ``bad_clock``…), ``bad_field`` otherwise."""

    model_config = ConfigDict(extra="allow")
    codes: ClassVar[dict[str, str]] = {}


class _Params(_Model):
    """Path or query parameters (text); unknown ones are ignored."""

    model_config = ConfigDict(extra="ignore")


class SeatSpec(_Model):
    kind: Literal["human", "bot"]
    name: str = Field("", max_length=40)
    level: str | None = Field(None, max_length=40)


class Clock(_Model):
    """Fischer (``initial``, ``increment``), byo-yomi (``initial``, ``periods``, ``byoyomi``)
    or correspondence (``per_move``) seconds; the ranges are server.clock's (checked there:
    one place)."""

    initial: StrictInt | None = None
    increment: StrictInt | None = None
    periods: StrictInt | None = None
    byoyomi: StrictInt | None = None
    per_move: StrictInt | None = None


MAX_BEST_OF = 15
FORMATS = ("single", "reverse", "best_of")


class MatchSpec(_Model):
    model_config = ConfigDict(extra="forbid")
    format: Literal["single", "reverse", "best_of"]
    games: StrictInt | None = Field(None, ge=3, le=MAX_BEST_OF)
    """For best_of: an odd number of games."""


def _match_shape(raw: Any) -> Any:
    """``match`` in words a person understands (pydantic's union errors name its branches):
    absent, ``"single"``, ``"reverse"`` or ``{"format": "best_of", "games": N}``, N odd from
    3 to MAX_BEST_OF. Whether the game can be played as a set is the route's question."""
    if raw is None:
        return raw
    spec = {"format": raw} if isinstance(raw, str) else raw
    if not isinstance(spec, dict) or set(spec) - {"format", "games"}:
        raise ValueError("'match' must be \"single\", \"reverse\" or "
                         "{\"format\": \"best_of\", \"games\": N}")
    kind, games = spec.get("format"), spec.get("games")
    if kind not in FORMATS:
        raise ValueError(f"unknown match format {kind!r}; formats: {', '.join(FORMATS)}")
    if kind != "best_of" and games is not None:
        raise ValueError(f"'games' is only for best_of (a {kind} match has "
                         f"{2 if kind == 'reverse' else 1} game(s))")
    if kind == "best_of" and (not isinstance(games, int) or isinstance(games, bool)
                              or games % 2 == 0 or not 3 <= games <= MAX_BEST_OF):
        raise ValueError(f"best_of needs 'games': an odd number from 3 to {MAX_BEST_OF}, "
                         f"not {games!r}")
    return raw


class CreateRoom(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options",
                                       "seats": "bad_seats", "clock": "bad_clock",
                                       "match": "bad_match"}
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(max_length=16)
    casual: StrictBool = True
    hotseat: StrictBool = False
    clock: Clock | None = None
    match: Literal["single", "reverse", "best_of"] | MatchSpec | None = None
    chat: StrictBool | None = None
    """The players' chat (server.chat); absent: on in casual games, off in rated ones."""

    @field_validator("match", mode="before")
    @classmethod
    def _match_in_words(cls, raw: Any) -> Any:
        return _match_shape(raw)


class SeatCount(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options"}
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)


class Credentials(_Model):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SettingsValues(BaseModel):
    """A person's settings (the settings page, issue 27 item 5; js/settings.js keeps the same
    table of choices): each a fixed choice, no other key."""

    model_config = ConfigDict(extra="forbid", strict=True)
    lang: Literal["auto", "en", "ja"] = "auto"
    theme: Literal["system", "light", "dark"] = "system"
    board: Literal["classic", "wood", "contrast"] = "classic"
    coords: Literal["on", "off"] = "on"
    sound: Literal["off", "on"] = "off"
    tone: Literal["chime", "bell", "wood"] = "chime"
    notify: Literal["off", "on"] = "off"
    feedback: Literal["auto", "on", "off"] = "auto"
    confirm: Literal["off", "on"] = "off"
    anim: Literal["normal", "fast", "off"] = "normal"
    chat: Literal["on", "off"] = "on"


class SettingsBody(_Model):
    codes: ClassVar[dict[str, str]] = {"": "bad_settings"}
    settings: SettingsValues


class TutorialMove(_Model):
    move: str = Field(min_length=1, max_length=64)


class SeatKey(_Model):
    seat: StrictInt = Field(ge=0, le=15)
    key: str = Field(max_length=100)


class Claim(_Model):
    seats: list[SeatKey] = Field(max_length=16)


class FeedbackRequest(_Model):
    ply: StrictInt = Field(ge=0)
    seat: StrictInt | None = None
    key: str | None = Field(None, max_length=100)


class DailyAnswers(_Model):
    answers: list[str] = Field(max_length=32)


class LadderPlay(_Model):
    tier: str | None = Field(None, max_length=16)


class LadderNext(_Model):
    room: str = Field(max_length=32)
    seat: StrictInt = Field(ge=0, le=15)
    key: str = Field(max_length=100)


class GameRecord(_Model):
    """An asobiba game record (docs/records.md): game, options, seed, moves as text."""

    codes: ClassVar[dict[str, str]] = {"": "bad_record"}

    format: str | None = None
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt | None = None
    moves: list[dict[str, Any]] = Field(default_factory=list)


class SeekOpen(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options",
                                       "clock": "bad_clock"}
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    casual: StrictBool = True
    clock: Clock | None = None


class SeekToken(_Model):
    """The seek's token: the opener's, to cancel it; a private seek's, to accept it."""

    token: str | None = Field(None, max_length=100)


class QuickPair(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game"}
    game: str = Field(max_length=40)
    token: str | None = Field(None, max_length=100)


class ChallengeMake(_Model):
    """A challenge to a named player (server.social)."""

    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options",
                                       "clock": "bad_clock", "to": "no_player",
                                       "colour": "bad_colour"}
    to: str = Field(min_length=1, max_length=40)
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    casual: StrictBool = True
    clock: Clock | None = None
    colour: Literal["random", "first", "second"] = "random"


class ChallengeAnswer(_Model):
    """A decline's reason (one of server.social.DECLINE_REASONS)."""

    codes: ClassVar[dict[str, str]] = {"reason": "bad_reason"}
    reason: Literal["generic", "later", "too_fast", "too_slow", "rated_only", "casual_only",
                    "other_game"] = "generic"


# ---- path and query parameters -----------------------------------------------------------------

class RoomPath(_Params):
    room: str = Field(min_length=1, max_length=64)
    codes: ClassVar[dict[str, str]] = {"room": "no_room"}


class GamePath(_Params):
    game: str = Field(min_length=1, max_length=40)
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game"}


class TutorialStepPath(GamePath):
    step: str = Field(min_length=1, max_length=64)
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "step": "no_step"}


class PlayerPath(_Params):
    """A player's number, or ``me`` (the signed-in player)."""

    player: str = Field(pattern=r"^(me|[0-9]{1,12})$")
    codes: ClassVar[dict[str, str]] = {"player": "no_player"}


class StoredGamePath(_Params):
    """A stored game's number (``game_row_id`` in a player's history)."""

    record: str = Field(pattern=r"^[0-9]{1,12}$")
    codes: ClassVar[dict[str, str]] = {"record": "no_record"}


class HistoryQuery(_Params):
    """A player's games narrowed down; every value is checked by the route (400
    ``bad_filter`` with ``filter``, ``value`` and ``allowed`` as arguments)."""

    game: str | None = Field(None, description="a game id (/api/games)")
    result: str | None = Field(None, json_schema_extra={"enum": ["win", "draw", "loss"]})
    opponent: str | None = Field(None, description="an opponent's name, whole, any case")
    kind: str | None = Field(None, json_schema_extra={"enum": ["rated", "casual"]})
    before: str | None = Field(None, description="the 'next' of the previous page")


class HistoryPageQuery(HistoryQuery):
    limit: str | None = Field(None, description="games in the page, 1 to 50 (20)")


class SeekPath(_Params):
    seek: str = Field(min_length=1, max_length=64)
    codes: ClassVar[dict[str, str]] = {"seek": "no_seek"}


class ChallengePath(_Params):
    challenge: str = Field(min_length=1, max_length=16)
    codes: ClassVar[dict[str, str]] = {"challenge": "no_challenge"}


class PeoplePath(_Params):
    """A player's name and what to do: follow, unfollow, block or unblock."""

    player: str = Field(min_length=1, max_length=40)
    what: Literal["follow", "unfollow", "block", "unblock"]
    codes: ClassVar[dict[str, str]] = {"player": "no_player", "what": "not_found"}


class RecordQuery(_Params):
    format: str = Field("json", max_length=40)
    """``json`` (the record) or one of the game's formats (``/api/formats/{game}``)."""
    codes: ClassVar[dict[str, str]] = {"format": "bad_format"}


class ReplayQuery(_Params):
    start: int = Field(0, ge=0, le=2_000)
    """The first step of the page (0: the start position); ``next`` in an answer says where
    the following page starts."""
    codes: ClassVar[dict[str, str]] = {"start": "bad_range"}


class DailyQuery(_Params):
    date: str | None = Field(None, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
    codes: ClassVar[dict[str, str]] = {"date": "bad_date"}


class PaperQuery(_Params):
    paper: str = Field("a4", max_length=16)
    lang: str = Field("en", max_length=8)
    codes: ClassVar[dict[str, str]] = {"paper": "bad_option", "lang": "bad_option"}


class PrintQuery(PaperQuery):
    """Paper, language and seed; every other parameter is a game or print option, as text
    (checked by the game like the CLI's ``--name value``)."""

    model_config = ConfigDict(extra="allow")
    seed: str | None = Field(None, pattern=r"^-?[0-9]{0,18}$")
    codes: ClassVar[dict[str, str]] = {"paper": "bad_option", "lang": "bad_option",
                                       "seed": "bad_option"}


# ---- answers -----------------------------------------------------------------------------------

class ErrorDetail(BaseModel):
    code: str
    message: str
    args: dict[str, str] | None = Field(
        None, description="what the refusal is about, where the code has arguments "
        "(bad_text: where, char)")


class ErrorResponse(BaseModel):
    """The one error shape of the API."""

    error: ErrorDetail


class _Answer(BaseModel):
    """An answer: the fields listed are always there; more may come (clients ignore them)."""

    model_config = ConfigDict(extra="allow")


class Text(_Answer):
    en: str
    ja: str


class OptionInfo(_Answer):
    name: str
    kind: str
    default: Any = None
    choices: list[Any]
    casual_only: bool
    seat: bool = False


class BotInfo(_Answer):
    level: str
    title: str


class GameInfo(_Answer):
    id: str
    title: Text
    seats: list[int] = Field(min_length=2, max_length=2)
    perfect_information: bool
    chance: bool
    simultaneous: bool
    options: list[OptionInfo]
    bots: list[BotInfo]
    default_bot: str | None = None


class Games(_Answer):
    games: list[GameInfo]


class WsSchemaDocument(_Answer):
    """The WebSocket protocol's JSON Schemas (docs/web.md, "The WebSocket protocol")."""

    title: str
    description: str
    sockets: dict[str, Any]


class Document(_Answer):
    """This document."""

    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]


class SeatKeyAnswer(_Answer):
    seat: int
    key: str


class RoomCreated(_Answer):
    room: str
    url: str
    keys: list[SeatKeyAnswer]


class ChallengeInfo(_Answer):
    id: str
    to: str
    game: str
    options: dict[str, Any]
    clock: dict[str, int] | None
    casual: bool
    seat: int
    status: str
    reason: str | None
    expires: str


class ChallengeMade(_Answer):
    challenge: ChallengeInfo
    keys: list[SeatKeyAnswer]


class ChallengeNotices(_Answer):
    incoming: list[ChallengeInfo]
    outgoing: list[ChallengeInfo]


class ChallengeSettled(_Answer):
    status: str
    reason: str | None


class Turn(_Answer):
    room: str
    url: str
    game: str
    seat: int
    ply: int
    opponents: list[str]
    remaining: float | None
    correspondence: bool


class Turns(_Answer):
    turns: list[Turn]


class FollowedPlayer(_Answer):
    id: int
    name: str
    online: bool
    live: list[dict[str, str]]


class People(_Answer):
    following: list[FollowedPlayer]
    blocked: list[str]


class PeopleDone(_Answer):
    player: str
    done: str


class Seats(_Answer):
    seats: int
    options: dict[str, Any]
    sets: bool


class SeatInfo(_Answer):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str
    online: bool


class Room(_Answer):
    id: str
    game: str
    title: Text
    options: dict[str, Any]
    casual: bool
    hotseat: bool
    status: str
    seats: list[SeatInfo]
    ply: int
    moves: list[list[Any]]
    result: dict[str, Any] | None


class RecordMove(_Answer):
    seat: int
    move: str


class Record(_Answer):
    """An asobiba game record (docs/records.md)."""

    game: str
    options: dict[str, Any]
    moves: list[RecordMove]


class FormatInfo(_Answer):
    name: str
    description: str
    suffix: str


class Formats(_Answer):
    formats: list[FormatInfo]


class ReplayStep(_Answer):
    move: dict[str, Any] | None
    views: list[dict[str, Any]]
    """The spectator's view, then each seat's."""


class Replay(_Answer):
    record: Record
    steps: list[ReplayStep]
    """Steps ``start`` to ``end`` − 1 of ``plies`` + 1 (a page of at most 512 KiB)."""
    game: GameInfo
    plies: int
    start: int
    end: int
    next: int | None
    """Where the next page starts (``?start=``); null: this page reaches the last step."""


class SeekInfo(_Answer):
    id: str
    game: str
    options: dict[str, Any]
    casual: bool
    clock: dict[str, Any] | None
    name: str
    rating: int


class Lobby(_Answer):
    type: Literal["lobby"]
    seeks: list[SeekInfo]
    live: list[dict[str, Any]]


class SeekOpened(_Answer):
    seek: SeekInfo
    token: str


class SeekCancelled(_Answer):
    cancelled: bool


class Paired(_Answer):
    """Quick pairing: ``paired`` with the room and the taker's key, or not (yet), with the
    open seek and its token."""

    paired: bool
    room: str | None = None
    url: str | None = None
    keys: list[SeatKeyAnswer] | None = None
    seek: SeekInfo | None = None
    token: str | None = None


class TutorialStep(_Answer):
    key: str
    rule: str
    title: Text
    explain: Text
    goal: Text
    view: dict[str, Any]
    many_ways: bool
    hint: Text | None


class Tutorial(_Answer):
    game: str
    steps: list[TutorialStep]


class TutorialAttempt(_Answer):
    done: bool
    message: Text
    view: dict[str, Any] | None


class Player(_Answer):
    id: int
    name: str
    kind: Literal["human", "guest", "bot"]


class Account(_Answer):
    player: Player | None


class AccountSettings(_Answer):
    settings: dict[str, str]


class PlayerPage(_Answer):
    player: Player
    ratings: list[dict[str, Any]]
    stats: dict[str, Any]
    history: list[dict[str, Any]]


class HistoryPage(_Answer):
    games: list[dict[str, Any]]
    """Newest first; each with ``replay`` (the replay page's address, or null while the
    record is not public: a daily challenge of a day not over)."""
    next: int | None


class Leaderboards(_Answer):
    game: str
    pools: dict[str, list[dict[str, Any]]]


class Daily(_Answer):
    date: str
    challenge: dict[str, Any]
    calendar: dict[str, Any] | list[Any] | None
    practice: bool | None = None
    """Signed in, today: whether today's attempt is used (a new one is practice)."""


class Events(_Answer):
    events: list[dict[str, Any]]


class DailyAnswered(Events):
    practice: bool
    """Not the day's first answers: graded, but they count for nothing."""


class DailyRoomCreated(RoomCreated):
    practice: bool
    """Not the day's first daily room: its result counts for nothing."""
    attempt: int


class Ladder(_Answer):
    game: str
    rank: dict[str, Any]
    unlocked: list[dict[str, Any]]
    exam_due: bool
    exam: dict[str, Any] | None


class ClaimedSeats(_Answer):
    seats: list[int]


class Progress(_Answer):
    recorded: bool
    expected: bool
    result: dict[str, Any] | None
    context: dict[str, Any] | None


class MoveQuality(_Answer):
    """One move's verdict. ``depth``: how deep the search behind it went (plies; ``null``
    where the game's judge has no depth, e.g. sampling the hidden information)."""

    ply: int
    seat: int
    move: str
    quality: Literal["best", "good", "inaccuracy", "mistake", "blunder"]
    best_move: str
    value: float | None
    best_value: float | None
    chance_before: float | None
    chance_after: float | None
    depth: int | None = Field(ge=0)


class Feedback(_Answer):
    feedback: MoveQuality | None


class ReviewBody(_Answer):
    game: str
    moves: list[MoveQuality]
    turning_points: list[int]
    counts: dict[str, dict[str, int]]
    plies: int
    """Moves in the record: ``moves`` has a verdict for the first ones (all when complete)."""
    depth: int | None
    """The depth a complete review searches every move to (null: the judge has no depth)."""
    complete: bool
    """False when the time budget ran out first (shallower verdicts, or none for the last
    moves): the review answers within its budget with what it has."""
    partial: bool
    """``not complete``: the review was cut by its CPU budget or its deadline (``cut``)."""
    analysed_plies: int
    """Moves with a verdict (the first ones)."""
    cut: Literal["cpu", "wall"] | None
    cpu_seconds: float | None


class Review(_Answer):
    review: ReviewBody | None


class Media:
    """An answer that is not JSON (a PDF, a record in a text notation)."""

    def __init__(self, media_type: str, description: str) -> None:
        self.media_type, self.description = media_type, description


PDF = Media("application/pdf", "the PDF")
PAGE = Media("text/html", "the page; its script reads the API")
Answer = type[BaseModel] | Media | tuple[type[BaseModel], Media]


@dataclass(frozen=True)
class Op:
    """One operation of the API: its request models (the runtime validators: what the
    document says is what is checked) and its answer per success status."""

    answers: dict[int, Answer]
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None


# --- s10-explorer: the opening explorer (server/explorer_routes.py, docs/explorer.md) ---
class ExplorerPath(_Params):
    """An explorer: an id of ``GET /api/explorer`` (``reversi``, ``flipflop-3x3``, ...)."""

    explorer: str = Field(min_length=1, max_length=40)
    codes: ClassVar[dict[str, str]] = {"explorer": "no_explorer"}


class ExplorerQuery(_Params):
    moves: str | None = Field(None, max_length=2000,
                              description="the line from the start: moves separated by commas")
    codes: ClassVar[dict[str, str]] = {"moves": "bad_line"}


class Explorer(_Answer):
    explorer: str
    game: str
    moves: list[str]
    to_move: int | None
    legal: list[str]
    view: dict[str, Any]
    played: list[dict[str, Any]]
    """Per move: ``games``, ``wins``/``draws``/``losses`` for the side to move, ``rating``
    (average, rated games only), ``last_played`` and ``book`` (the engine book's entry)."""
    total: dict[str, int]


class ExplorerEntry(_Answer):
    explorer: str
    game: str
    options: dict[str, Any]
    """The options this explorer fixes (the other options of the game do not matter)."""
    defaults: dict[str, Any]
    """The game's declared default of each of those options (a game leaving one out)."""


class ExplorerList(_Answer):
    """s10-explorer2: every explorer, from the games' ``explorer`` hooks."""

    explorers: list[ExplorerEntry]


PATHS: dict[str, type[_Params]] = {
    "/r/{room}": RoomPath,
    "/tutorial/{game}": GamePath,
    "/player/{player}": PlayerPath,
    "/leaderboard/{game}": GamePath,
    "/daily/{game}": GamePath,
    "/ladder/{game}": GamePath,
    "/api/rooms/{room}": RoomPath,
    "/api/rooms/{room}/record": RoomPath,
    "/api/rooms/{room}/claim": RoomPath,
    "/api/rooms/{room}/progress": RoomPath,
    "/api/rooms/{room}/feedback": RoomPath,
    "/api/formats/{game}": GamePath,
    "/api/print/{game}": GamePath,
    "/api/tutorials/{game}": GamePath,
    "/api/tutorials/{game}/{step}": TutorialStepPath,
    "/api/players/{player}": PlayerPath,
    "/api/players/{player}/games": PlayerPath,
    "/api/players/{player}/export": PlayerPath,
    "/api/records/{record}": StoredGamePath,
    "/api/leaderboards/{game}": GamePath,
    "/api/daily/{game}": GamePath,
    "/api/daily/{game}/answer": GamePath,
    "/api/daily/{game}/play": GamePath,
    "/api/ladder/{game}": GamePath,
    "/api/ladder/{game}/exam": GamePath,
    "/api/ladder/{game}/leave": GamePath,
    "/api/ladder/{game}/play": GamePath,
    "/api/ladder/{game}/next": GamePath,
    "/api/seeks/{seek}/accept": SeekPath,
    "/api/challenges/{challenge}/accept": ChallengePath,
    "/api/challenges/{challenge}/decline": ChallengePath,
    "/api/challenges/{challenge}/cancel": ChallengePath,
    "/api/people/{player}/{what}": PeoplePath,
    "/api/seeks/{seek}/cancel": SeekPath,
    "/explorer/{explorer}": ExplorerPath,  # s10-explorer
    "/api/explorer/{explorer}": ExplorerPath,  # s10-explorer
}
"""Each parameterised path's model of its path parameters (a refusal is a 404)."""

OPS: dict[tuple[str, str], Op] = {
    **{("GET", page): Op({200: PAGE}) for page in (
        "/", "/r/{room}", "/replay", "/tutorial/{game}", "/account", "/player/{player}",
        "/leaderboard/{game}", "/daily/{game}", "/ladder/{game}", "/settings")},
    ("GET", "/api/openapi.json"): Op({200: Document}),
    ("GET", "/api/ws-schema.json"): Op({200: WsSchemaDocument}),
    ("GET", "/api/games"): Op({200: Games}),
    ("POST", "/api/rooms"): Op({201: RoomCreated}, body=CreateRoom),
    ("POST", "/api/seats"): Op({200: Seats}, body=SeatCount),
    ("GET", "/api/rooms/{room}"): Op({200: Room}),
    ("GET", "/api/rooms/{room}/record"): Op(
        {200: (Record, Media("text/plain", "the record in the asked notation"))},
        query=RecordQuery),
    ("GET", "/api/formats/{game}"): Op({200: Formats}),
    ("POST", "/api/replay"): Op({200: Replay}, body=GameRecord, query=ReplayQuery),
    ("GET", "/api/seeks"): Op({200: Lobby}),
    ("POST", "/api/seeks"): Op({201: SeekOpened}, body=SeekOpen),
    ("POST", "/api/seeks/quick"): Op({201: Paired}, body=QuickPair),
    ("POST", "/api/seeks/{seek}/accept"): Op({201: RoomCreated}, body=SeekToken),
    ("POST", "/api/seeks/{seek}/cancel"): Op({200: SeekCancelled}, body=SeekToken),
    ("GET", "/api/challenges"): Op({200: ChallengeNotices}),
    ("POST", "/api/challenges"): Op({201: ChallengeMade}, body=ChallengeMake),
    ("POST", "/api/challenges/{challenge}/accept"): Op({201: RoomCreated}),
    ("POST", "/api/challenges/{challenge}/decline"): Op({200: ChallengeSettled},
                                                        body=ChallengeAnswer),
    ("POST", "/api/challenges/{challenge}/cancel"): Op({200: ChallengeSettled}),
    ("GET", "/api/turns"): Op({200: Turns}),
    ("GET", "/api/people"): Op({200: People}),
    ("POST", "/api/people/{player}/{what}"): Op({200: PeopleDone}),
    ("GET", "/api/tutorials/{game}"): Op({200: Tutorial}),
    ("POST", "/api/tutorials/{game}/{step}"): Op({200: TutorialAttempt}, body=TutorialMove),
    ("GET", "/api/account"): Op({200: Account}),
    ("POST", "/api/account/register"): Op({201: Account}, body=Credentials),
    ("POST", "/api/account/login"): Op({200: Account}, body=Credentials),
    ("POST", "/api/account/guest"): Op({201: Account}),
    ("POST", "/api/account/logout"): Op({200: Account}),
    ("GET", "/api/account/settings"): Op({200: AccountSettings}),
    ("PUT", "/api/account/settings"): Op({200: AccountSettings}, body=SettingsBody),
    ("GET", "/api/players/{player}"): Op({200: PlayerPage}),
    ("GET", "/api/players/{player}/games"): Op({200: HistoryPage}, query=HistoryPageQuery),
    ("GET", "/api/players/{player}/export"): Op(
        {200: Media("application/zip", "index.json, and per game its record (JSON) and text "
                    "notation")}, query=HistoryQuery),
    ("GET", "/api/records/{record}"): Op(
        {200: (Record, Media("text/plain", "the record in the asked notation"))},
        query=RecordQuery),
    ("GET", "/api/leaderboards/{game}"): Op({200: Leaderboards}),
    ("GET", "/api/daily/{game}"): Op({200: Daily}, query=DailyQuery),
    ("POST", "/api/daily/{game}/answer"): Op({200: DailyAnswered}, body=DailyAnswers),
    ("POST", "/api/daily/{game}/play"): Op({201: DailyRoomCreated}),
    ("GET", "/api/ladder/{game}"): Op({200: Ladder}),
    ("POST", "/api/ladder/{game}/exam"): Op({200: Ladder}),
    ("POST", "/api/ladder/{game}/leave"): Op({200: Events}),
    ("POST", "/api/ladder/{game}/play"): Op({201: RoomCreated}, body=LadderPlay),
    ("POST", "/api/ladder/{game}/next"): Op({201: RoomCreated}, body=LadderNext),
    ("POST", "/api/rooms/{room}/claim"): Op({200: ClaimedSeats}, body=Claim),
    ("GET", "/api/rooms/{room}/progress"): Op({200: Progress}),
    ("POST", "/api/rooms/{room}/feedback"): Op({200: Feedback}, body=FeedbackRequest),
    ("POST", "/api/review"): Op({200: Review}, body=GameRecord),
    ("GET", "/api/print/{game}"): Op({200: PDF}, query=PrintQuery),
    ("POST", "/api/print/record"): Op({200: PDF}, body=GameRecord, query=PaperQuery),
    ("GET", "/explorer/{explorer}"): Op({200: PAGE}),  # s10-explorer
    ("GET", "/api/explorer/{explorer}"): Op({200: Explorer}, query=ExplorerQuery),
    ("GET", "/api/explorer"): Op({200: ExplorerList}),  # s10-explorer2
}
"""Every operation of the API, and the pages (HTML). A route missing here is refused at start-up (:func:`bind`)
and by tests/fairplay/test_api_models.py; an operation without ``body`` takes no body
(one sent is ignored) and one without ``query`` reads no query parameters."""

ERRORS = (400, 401, 403, 404, 405, 409, 413, 415, 429, 503)
"""The error statuses any operation may answer (each with :class:`ErrorResponse`)."""


def check(model: type[BaseModel], data: Any, status: int = 400) -> Any:
    """Validate ``data`` against ``model`` (strictly typed fields); a refusal names the field,
    with the code the model gives that field (``codes``; ``""`` for every field)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first.get("loc", ())]
        where = ".".join(loc) or "body"
        codes: dict[str, str] = getattr(model, "codes", {})
        code = codes.get(loc[0] if loc else "", codes.get("", "bad_field"))
        msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        raise ClientError(code, f"{where}: {msg}", status=status) from None


Endpoint = Callable[[Request], Awaitable[Response]]


BIG_BODY = 64_000
"""A body over this many bytes is checked in a worker thread (a record can be 2 MB)."""


def _check_body(model: type[BaseModel], raw: bytes) -> BaseModel:
    codes: dict[str, str] = getattr(model, "codes", {})
    try:
        data = parse_json(raw, empty={})
    except BadJSON as exc:
        raise ClientError(codes.get("", "bad_json"), str(exc)) from None
    if not isinstance(data, dict):
        raise ClientError(codes.get("", "bad_json"), "the request must be a JSON object")
    got: BaseModel = check(model, data)
    return got


class CheckedRequest(Request):
    """A request whose JSON body is checked against its model when the route reads it —
    after the route's own abuse limits, which count refused requests too — and before the
    route sees any of it. A route that refuses earlier (not signed in, no such room) never
    reads, so never checks, the body."""

    model: type[BaseModel] | None = None
    checked: BaseModel | None = None
    """The body as its model, once read (what :func:`parsed` gives the handler)."""

    async def body(self) -> bytes:
        fresh = not hasattr(self, "_body")
        raw = await super().body()
        if fresh and self.model is not None:
            if len(raw) > BIG_BODY:
                self.checked = await anyio.to_thread.run_sync(_check_body, self.model, raw)
            else:
                self.checked = _check_body(self.model, raw)
        return raw


ModelT = TypeVar("ModelT", bound=BaseModel)


async def parsed(request: Request, model: type[ModelT], limit: int | None = None) -> ModelT:
    """The request's JSON body as ``model``: the handler's one view of it (issue 26 item 5:
    a handler reads the model's fields, never the raw JSON again). Behind the route table
    (:func:`bind`) the body was checked by :class:`CheckedRequest` against the route's own
    model, kept and given back here; otherwise (a route built apart, a test) it is checked
    now. ``limit``: bytes a body may have (413 ``too_large``) where the route is stricter
    than the Guard's default."""
    raw = await request.body()
    if limit is not None and len(raw) > limit:
        raise ClientError("too_large", f"the request is larger than {limit} bytes",
                          status=413)
    got = request.checked if isinstance(request, CheckedRequest) \
        and request.model is model else None
    if got is None:
        got = _check_body(model, raw)
    if not isinstance(got, model):  # a route whose OPS model is not the one it reads
        raise TypeError(f"{request.url.path} reads {model.__name__}, not "
                        f"{type(got).__name__}")
    return got


def typed(path: str, methods: set[str], endpoint: Endpoint) -> Endpoint:
    """``endpoint`` behind its models: path parameters (a refusal is a 404) and query (400)
    checked before the route's own code runs, the JSON body (400) when the route reads it
    (:class:`CheckedRequest`)."""
    ops = {m: OPS[(m, path)] for m in methods}
    params = PATHS.get(path)

    @functools.wraps(endpoint)
    async def checked(request: Request) -> Response:
        op = ops[request.method if request.method != "HEAD" else "GET"]
        if params is not None:
            check(params, dict(request.path_params), status=404)
        if op.query is not None:
            check(op.query, dict(request.query_params))
        if op.body is not None:
            request = CheckedRequest(request.scope, request.receive)
            request.model = op.body
        return await endpoint(request)
    return checked


def http_routes(routes: list[BaseRoute]) -> list[Route]:
    """Every HTTP route: the API's and the pages' (not WebSockets, not the static files)."""
    return [r for r in routes if isinstance(r, Route)]


def missing(routes: list[BaseRoute]) -> list[str]:
    """The HTTP routes and methods without models here (none, or the app does not start)."""
    out = []
    for route in http_routes(routes):
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            if (method, route.path) not in OPS:
                out.append(f"{method} {route.path}: no models in api_schema.OPS")
        if route.param_convertors and route.path not in PATHS:
            out.append(f"{route.path}: no path-parameter model in api_schema.PATHS")
    return out


def bind(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The app's routes with every HTTP route behind its models (:func:`typed`)."""
    problems = missing(routes)
    if problems:
        raise RuntimeError("untyped HTTP routes: " + "; ".join(problems))
    out: list[BaseRoute] = []
    for route in routes:
        if isinstance(route, Route):
            methods = (route.methods or {"GET"}) - {"HEAD"}
            route = Route(route.path, typed(route.path, methods, route.endpoint),
                          methods=sorted(methods), name=route.name)
        out.append(route)
    return out


def openapi_path(path: str) -> str:
    """A route's path as an OpenAPI template: OpenAPI has no Starlette convertor, so
    ``/move/{move:path}`` is ``/move/{move}``."""
    return re.sub(r"\{(\w+):\w+\}", r"{\1}", path)


def openapi(routes: list[Any], games: list[str]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every HTTP route in ``routes``, from :data:`OPS`
    and :data:`PATHS` (the same models that check the requests)."""
    schemas: dict[str, Any] = {}

    def ref(model: type[BaseModel]) -> dict[str, Any]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            schemas[name] = sub
        schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def params_of(model: type[BaseModel], where: str) -> list[dict[str, Any]]:
        schema = model.model_json_schema()
        out = []
        for name, sub in schema.get("properties", {}).items():
            sub = {k: v for k, v in sub.items() if k != "title"}
            if where == "path" and name == "game":
                sub = {"type": "string", "enum": games}
            out.append({"name": name, "in": where,
                        "required": where == "path" or name in schema.get("required", ()),
                        "schema": sub})
        return out

    def content(answer: Answer) -> dict[str, Any]:
        parts = answer if isinstance(answer, tuple) else (answer,)
        out: dict[str, Any] = {}
        for part in parts:
            if isinstance(part, Media):
                out[part.media_type] = {"schema": {"type": "string",
                                                   "description": part.description}}
            else:
                out["application/json"] = {"schema": ref(part)}
        return out

    error = {"description": "refused; nothing was changed",
             "content": {"application/json": {"schema": ref(ErrorResponse)}}}
    paths: dict[str, Any] = {}
    for route in http_routes(routes):
        path_params = params_of(PATHS[route.path], "path") if route.path in PATHS else []
        template = openapi_path(route.path)
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            spec = OPS[(method, route.path)]
            responses: dict[str, Any] = {
                str(status): {"description": "done" if status == 200 else "created",
                              "content": content(answer)}
                for status, answer in spec.answers.items()}
            responses.update({str(status): error for status in ERRORS})
            op: dict[str, Any] = {
                "operationId": f"{method.lower()}_{template.strip('/').replace('/', '_')}"
                .replace("{", "").replace("}", ""),
                "summary": (route.endpoint.__doc__ or route.name or "").strip().split("\n")[0],
                "parameters": path_params + (params_of(spec.query, "query")
                                             if spec.query else []),
                "responses": responses,
            }
            if spec.body is not None:
                op["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": ref(spec.body)}}}
            paths.setdefault(template, {})[method.lower()] = op
    return {"openapi": "3.1.0",
            "info": {"title": "asobiba", "version": "1",
                     "description": "Every error is {\"error\": {\"code\", \"message\"}}; "
                                    "state-changing requests take JSON from this origin."},
            "paths": paths, "components": {"schemas": schemas}}


__all__ = ["ERRORS", "OPS", "PATHS", "ErrorResponse", "bind", "check", "missing", "openapi",
           "typed"]


# --- s10-puzzles: the puzzle trainer (asobiba.server.puzzle_routes, docs/puzzles.md) ---

class PuzzleStart(_Model):
    set: str | None = Field(None, max_length=40)
    mode: Literal["rated", "daily", "streak"]
    run: StrictInt | None = Field(None, ge=1)


class PuzzleMove(_Model):
    move: str = Field(min_length=1, max_length=64)


class PuzzleAnswers(_Model):
    answers: list[str] = Field(max_length=16)


class PuzzleAttemptPath(_Params):
    attempt: str = Field(min_length=1, max_length=12)  # digits: checked by the route (404)
    codes: ClassVar[dict[str, str]] = {"attempt": "no_attempt"}


class PuzzleIndex(_Answer):
    sets: list[dict[str, Any]]
    day: str
    daily: dict[str, Any]
    me: dict[str, Any] | None


class PuzzleAttempt(_Answer):
    attempt: int
    set: str
    mode: str
    rated: bool
    puzzle: dict[str, Any]


class PuzzleStep(_Answer):
    """A move's verdict; once ``done``, the solution line, themes and rating changes."""


PATHS.update({
    "/api/puzzles/attempts/{attempt}/move": PuzzleAttemptPath,
    "/api/puzzles/attempts/{attempt}/answer": PuzzleAttemptPath,
})
OPS.update({
    ("GET", "/puzzles"): Op({200: PAGE}),
    ("GET", "/api/puzzles"): Op({200: PuzzleIndex}),
    ("POST", "/api/puzzles/start"): Op({200: PuzzleAttempt}, body=PuzzleStart),
    ("POST", "/api/puzzles/attempts/{attempt}/move"): Op({200: PuzzleStep}, body=PuzzleMove),
    ("POST", "/api/puzzles/attempts/{attempt}/answer"): Op({200: PuzzleStep},
                                                          body=PuzzleAnswers),
})


# ---- the tournaments' models (server.tournament_schema adds their operations) ----------------
class TournamentPath(_Params):
    # at most 9 digits: a number past a 32-bit key is no tournament (404), not a 500
    tournament: str = Field(min_length=1, max_length=9, pattern=r"^[0-9]+$")
    codes: ClassVar[dict[str, str]] = {"tournament": "no_tournament"}


class TournamentCreate(_Model):
    codes: ClassVar[dict[str, str]] = {"game": "unknown_game", "options": "bad_options",
                                       "clock": "bad_clock"}
    name: str = Field("", max_length=80)
    game: str = Field(max_length=40)
    kind: Literal["swiss", "arena", "tables"]
    options: dict[str, Any] = Field(default_factory=dict)
    casual: StrictBool = True
    clock: Clock | None = None
    rounds: StrictInt = Field(5, ge=1, le=30)
    minutes: StrictInt = Field(30, ge=5, le=720)
    starts_in: StrictInt = Field(5, ge=0, le=60 * 24 * 14)  # minutes from now


class TournamentInfo(_Answer):
    id: int
    name: str
    kind: str
    game: str
    status: str
    casual: bool


class TournamentList(_Answer):
    tournaments: list[TournamentInfo]


class TournamentCreated(_Answer):
    tournament: TournamentInfo


class TournamentSnapshot(_Answer):
    tournament: TournamentInfo
    standings: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    you: dict[str, Any] | None


class Entry(_Answer):
    status: str


# ---- the analysis board's models (server.analysis_routes adds its operations) ---------------
from ..analysis.position import MAX_MOVES  # noqa: E402 - the analysis board's own bound


class AnalysisSpec(_Model):
    """A position to analyse (docs/analysis.md): a record (JSON) or notation cut at ``ply``,
    or a new game (``options``, ``seed``) or a set-up board; then ``moves``."""

    codes = {"": "analysis_bad_request"}

    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt = 0
    record: dict[str, Any] | None = None
    notation: str | None = Field(None, max_length=200_000)
    format: str | None = Field(None, max_length=40)
    ply: StrictInt | None = None
    setup: dict[str, Any] | None = None
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)
    seat: StrictInt | None = None


class AnalysedPosition(_Answer):
    game: str
    moves: list[str]
    view: dict[str, Any]
    legal_moves: list[str]
    over: bool
    engine: bool


# --- s11-analysis2: the move tree as notation and as a share token (docs/analysis.md) ---
class AnalysisTreeExport(_Model):
    """The page's move tree to write as notation and as a share token."""

    codes = {"": "analysis_bad_request"}

    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt = 0
    setup: dict[str, Any] | None = None
    tree: dict[str, Any]


class AnalysisTreeImport(_Model):
    """A pasted notation, or a share link's token, to read back as a move tree."""

    codes = {"": "analysis_bad_request"}

    game: str = Field(max_length=40)
    notation: str | None = Field(None, max_length=60_000)
    share: str | None = Field(None, max_length=6_000)


class AnalysisTreeText(_Answer):
    notation: str
    share: str | None


class AnalysisTree(_Answer):
    game: str
    options: dict[str, Any]
    seed: int
    tree: dict[str, Any]
# --- s11-chat: chat and reports (server/chat.py, docs/web.md "Chat") ---
class ChatPost(_Model):
    """A tournament chat line (its checks and refusals: server.chat)."""

    codes: ClassVar[dict[str, str]] = {"": "bad_chat"}
    text: str = Field(max_length=2000)


class ChatQuery(_Params):
    after: int = Field(0, ge=0)
    """Only the lines after this id (a page polls with the last id it has)."""


class ChatReport(_Model):
    """A report of a chat line (``line``) or of a player (``player``), with a reason code."""

    codes: ClassVar[dict[str, str]] = {"": "bad_report"}
    line: StrictInt | None = Field(None, ge=1)
    player: str | None = Field(None, min_length=1, max_length=64)
    reason: Literal["abuse", "spam", "cheating", "other"] = "abuse"


class ChatLineAnswer(_Answer):
    id: int
    channel: str
    author: str
    seat: int | None
    text: str
    at: str


class ChatLines(_Answer):
    lines: list[ChatLineAnswer]
    can_write: bool


class ReplayChat(_Answer):
    """A finished room's chat, both channels (``GET /api/rooms/{room}/chat``)."""

    lines: list[ChatLineAnswer]


class ChatPosted(_Answer):
    line: ChatLineAnswer


class ReportFiled(_Answer):
    report: int
