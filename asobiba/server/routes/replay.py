"""Replays over HTTP: a record (uploaded or stored) replayed into every seat's view after
each move, a page at a time, within a CPU and a time budget (a big record never holds up the
event loop: moves and WebSockets of every room)."""

from __future__ import annotations

import os

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...core import Record, RecordError
from ...core.jsontypes import JSONObject
from ...games import get
from ...search.budget import WorkBudget
from ..limits import MAX_RECORD_BYTES, MAX_RECORD_PLIES
from ..rooms import ClientError
from ..security import BadJSON, parse_json
from ..wire import dumps
from .common import budgeted, game_of, ip, limited
from .context import ctx

MAX_RECORD = MAX_RECORD_BYTES
# seconds of work a replay may take before it is refused (503); ASOBIBA_REPLAY_BUDGET sets it
REPLAY_BUDGET = float(os.environ.get("ASOBIBA_REPLAY_BUDGET", "20"))
REPLAY_CPU = float(os.environ.get("ASOBIBA_REPLAY_CPU", "2"))
"""CPU seconds (the worker thread's) a replay page may spend on views: it then ends early."""
REPLAY_PAGE_BYTES = 512 * 1024
"""A replay answer's steps weigh about this at most (one step more at worst)."""


def replay_page(body: bytes, start: int) -> str:
    """The answer's JSON text: the record, the game, and the steps from ``start`` (blocking:
    run in a worker thread)."""
    budget = WorkBudget(REPLAY_CPU)
    try:
        record = Record.loads(body)
    except RecordError as exc:  # its specific code: {"why": "record.line", "line": …}
        raise ClientError("bad_record", str(exc)[:500], args=exc.detail()) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ClientError("bad_record", str(exc)[:500]) from None
    if len(record.moves) > MAX_RECORD_PLIES:
        raise ClientError("too_long", f"a record may have at most {MAX_RECORD_PLIES} "
                          f"moves, not {len(record.moves)}", status=413)
    if start > len(record.moves):
        raise ClientError("bad_range", f"'start' must be a step from 0 to "
                          f"{len(record.moves)}, not {start}")
    try:
        states = record.replay(game_of)
    except ClientError as exc:
        raise ClientError("bad_record", exc.message) from None
    except RecordError as exc:  # its specific code: {"why": "record.line", "line": …}
        raise ClientError("bad_record", str(exc)[:500], args=exc.detail()) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ClientError("bad_record", str(exc)[:500]) from None
    n = states[0].num_seats
    steps: list[str] = []  # each step's JSON text, made once
    size, end = 0, start
    while end < len(states):
        if end > start and (size >= REPLAY_PAGE_BYTES or budget.exhausted()):
            break  # the page ends here; ``next`` says where the following one starts
        state, move = states[end], record.moves[end - 1] if end else None
        step: JSONObject = {"move": move.to_json() if move else None,
                            "views": [state.view(None)] + [state.view(s) for s in range(n)]}
        steps.append(dumps(step))
        size += len(steps[-1])
        end += 1
    head = dumps({"record": record.to_json(), "game": get(record.game).describe(),
                  "plies": len(record.moves), "start": start, "end": end,
                  "next": end if end < len(states) else None})
    return f'{head[:-1]},"steps":[{",".join(steps)}]}}'


async def replay(request: Request) -> Response:
    """Replay a record into every seat's view after each move, a page at a time
    (``?start=``; at most REPLAY_PAGE_BYTES of steps). The work runs in a worker thread
    within a CPU budget (REPLAY_CPU) and a time budget (REPLAY_BUDGET)."""
    start = int(request.query_params.get("start") or 0)  # checked: api_schema
    # a record's first page, or a next one (a long record is read in several)
    await limited(ctx(request).limits, "replay" if start == 0 else "replay_page", ip(request))
    body = await request.body()
    if len(body) > MAX_RECORD:
        raise ClientError("too_large", f"a record may be at most {MAX_RECORD} bytes")
    try:
        parse_json(body)  # depth and number limits before the record parser sees it
    except BadJSON as exc:
        raise ClientError("bad_record", str(exc)) from None
    text = await budgeted(lambda: replay_page(body, start), REPLAY_BUDGET,
                          "replaying this record")
    return Response(text, media_type="application/json")


ROUTES = [Route("/api/replay", replay, methods=["POST"])]
