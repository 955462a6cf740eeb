"""The engine's judgement over HTTP: the quality of one move of a casual game (its own
mover only while the game runs, from that seat's views), a finished game's review from its
record, and warming the review up after start-up. Both run in the app's one engine thread
(:meth:`.context.ProgressionWeb.in_engine_thread`) under time and CPU budgets."""

from __future__ import annotations

import asyncio
import logging
import os
import time

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...core import Record, RecordError
from ...games import available
from ...games import get as get_game
from ..api_schema import FeedbackRequest, parsed
from ..limits import MAX_RECORD_BYTES, MAX_RECORD_PLIES
from ..security import BadJSON, parse_json
from .context import MAX_BODY, ProgressionWeb, Refused, limited, web

log = logging.getLogger("asobiba.server.progression")
# seconds a review may take (queueing included) before 503 ``busy``; ASOBIBA_REVIEW_BUDGET
REVIEW_BUDGET = float(os.environ.get("ASOBIBA_REVIEW_BUDGET", "30"))
REVIEW_WALL = 4.0
"""Seconds from a review request's arrival to its answer: the review deepens move by move
until then and answers with the depth each verdict reached (REVIEW_BUDGET is the backstop
for a single search that overruns)."""
REVIEW_CPU = float(os.environ.get("ASOBIBA_REVIEW_CPU", "4"))
"""CPU seconds (the review thread's ``time.thread_time``) one review may spend: it then
answers with the verdicts it has, ``"partial": true`` and the plies analysed. Cut inside a
move's search too (``asobiba.search.budget.checkpoint``); ASOBIBA_REVIEW_CPU sets it."""
WARM_AFTER = 1.0  # seconds after start-up before the review's imports are warmed up


async def room_feedback(request: Request) -> Response:
    """The quality of the move at ``ply`` of a casual game (None for games without an
    evaluator). Casual only: in a rated game it would be help from the engine. While
    the game runs only the seat that made the move may ask, proving it with its seat
    key (``seat``, ``key``), and the move is judged from that seat's views alone (hidden
    colours, cards and dice stay hidden); once the game is over anyone may ask."""
    w = web(request)
    await limited(request, "feedback")
    room = await w.hub().get(request.path_params["room"])
    if room is None:
        raise Refused(404, "no_room", "there is no such room")
    body = await parsed(request, FeedbackRequest, MAX_BODY)
    ply = body.ply
    if not 0 <= ply < len(room.moves):
        raise Refused(400, "bad_field", f"'ply' must be a played move, 0 to "
                      f"{len(room.moves) - 1}")
    if not room.data.casual:
        raise Refused(409, "no_feedback", "move feedback is for casual games only")
    mover = room.moves[ply].seat
    if room.status != "finished":
        seat, key = body.seat, body.key
        if seat is None or key is None:
            raise Refused(403, "need_key", "while the game runs, feedback is only for "
                          "the player who made the move: send its 'seat' and 'key'")
        if seat != mover:
            raise Refused(403, "not_your_move", f"move {ply} was played by seat "
                          f"{mover}, not seat {seat}; while the game runs you get "
                          "feedback on your own moves only")
        if not room.check_key(seat, key):
            raise Refused(403, "bad_key", "that key does not hold this seat")
    before = [(m.seat, m.text) for m in room.moves[:ply]]
    data = await w.in_engine_thread(w.prog.move_feedback, room.game.id, before,
                                    room.moves[ply].text, room.options, room.data.seed,
                                    mover)
    return JSONResponse({"feedback": data})


async def review(request: Request) -> Response:
    """A finished game's review with its turning points, from its record. A bad record
    is the sender's fault (400 ``bad_record``); running out of the time budget is the
    server's (503 ``busy``), and says so — never blamed on the record."""
    w = web(request)
    arrived = time.monotonic()  # the wall budget counts from here, queueing included
    await limited(request, "review")
    raw = await request.body()
    if len(raw) > MAX_RECORD_BYTES:
        raise Refused(413, "too_large", f"a record may be at most {MAX_RECORD_BYTES} bytes")

    def check() -> Record:
        try:
            parse_json(raw)
            record = Record.loads(raw)
        except RecordError as exc:
            raise Refused(400, "bad_record", str(exc)[:500], exc.detail()) from None
        except (BadJSON, ValueError, KeyError, TypeError) as exc:
            raise Refused(400, "bad_record", str(exc)[:500]) from None
        if len(record.moves) > MAX_RECORD_PLIES:  # before any replaying
            raise Refused(413, "too_long", f"a record may have at most "
                          f"{MAX_RECORD_PLIES} moves, not {len(record.moves)}")
        try:
            record.replay(get_game)
        except RecordError as exc:
            raise Refused(400, "bad_record", str(exc)[:500], exc.detail()) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise Refused(400, "bad_record", str(exc)[:500]) from None
        return record
    record = await run_in_threadpool(check)
    try:
        with anyio.fail_after(REVIEW_BUDGET):
            data = await w.in_engine_thread(w.prog.review, record, arrived + REVIEW_WALL,
                                            REVIEW_CPU)
    except TimeoutError:
        raise Refused(503, "busy", f"the review took over {REVIEW_BUDGET:g} s: the "
                      "server is busy; try again later (your record is fine)") from None
    return JSONResponse({"review": data})


async def warm(w: ProgressionWeb) -> None:
    """After start-up, in the engine thread: import and run each game's review on a few
    moves, so the first review a person asks for does not pay for imports, evaluator
    set-up and first-call caches (a cold first review took 15 s on a loaded machine)."""
    await asyncio.sleep(WARM_AFTER)
    for game_id in available():  # one game at a time: a review asked meanwhile waits
        try:                     # for one short step at most, not the whole warm-up
            await w.in_engine_thread(_warm_review, game_id)
        except Exception:  # warming is an optimisation: never a failure of the server
            log.exception("warming up the %s review failed", game_id)


def _warm_review(game_id: str) -> None:
    """Import a game's evaluator and search code and build its evaluator; where it searches
    to a depth, judge the first moves of a game at depth 1 (milliseconds), so first-call
    caches are filled too. Evaluators that sample hidden information are only built: a
    single call of theirs can take seconds, which a review asked meanwhile would wait for."""
    import copy

    from ...progression import feedback

    game = get_game(game_id)
    options = game.validate_options({})
    evaluator = feedback.evaluator_for(game_id, options)
    if evaluator is None:
        return
    feedback.thresholds_for(game_id, options)
    if not isinstance(getattr(evaluator, "depth", None), int) or feedback.sees_views(evaluator):
        return
    shallow = copy.copy(evaluator)
    shallow.depth = 1  # type: ignore[union-attr]
    state = game.new_game(options, 0)
    moves: list[tuple[int, str]] = []
    while not state.is_over and len(moves) < 4:
        seat = state.acting_seats[0]
        text = state.legal_moves(seat).texts()[0]
        moves.append((seat, text))
        state = state.play(text, seat)
    feedback.review(game_id, moves, options, 0, evaluator=shallow)
