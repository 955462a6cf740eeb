"""What the server's analysis process runs (no web imports): one deepening step, or a
position's description for the page, each answering with the CPU time it took.

The process keeps the positions it was last asked about (:data:`_POSITIONS`, by their
description), so the steps of one analysis reuse the position and its analyst's tables."""

from __future__ import annotations

import json
import os
import time
from collections import OrderedDict

from ..core.jsontypes import JSONObject
from .engine import step
from .position import AnalysisError, Position, load
from .seat import seat_analysis

NICE = 10
"""The analysis process runs at this niceness: moves in rooms always come first."""
KEEP = 8

_POSITIONS: OrderedDict[str, Position] = OrderedDict()


def start() -> None:
    """The process initializer: lower its priority (best effort) and warm the imports."""
    try:
        os.nice(NICE)
    except OSError:  # pragma: no cover - not allowed here: run at the usual priority
        pass


def key_of(spec: JSONObject) -> str:
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


def _position(spec: JSONObject) -> Position:
    key = key_of(spec)
    found = _POSITIONS.get(key)
    if found is None:
        found = load(spec)
        found.key = key
        _POSITIONS[key] = found
        while len(_POSITIONS) > KEEP:
            _POSITIONS.popitem(last=False)
    _POSITIONS.move_to_end(key)
    return found


def run_step(spec: JSONObject, depth: int, seconds: float) -> JSONObject:
    """One depth of the position's multi-PV (``{"error": {...}}`` for a refusal)."""
    began = time.process_time()
    try:
        out = step(_position(spec), depth, seconds).to_json()
    except AnalysisError as exc:
        out = {"error": exc.to_json()}
    out["cpu"] = time.process_time() - began
    return out


def describe(spec: JSONObject, seat: int | None) -> JSONObject:
    """The position for the page: the view to draw (the spectator's in a
    perfect-information game, ``seat``'s in another), the line, and in a
    hidden-information game the seat's analysis."""
    began = time.process_time()
    try:
        position = _position(spec)
        state = position.state
        game = position.game
        hidden = not game.perfect_information
        if hidden:
            seat = 0 if seat is None else seat
            if not 0 <= seat < state.num_seats:
                raise AnalysisError("analysis_bad_seat", seat=seat)
        view = state.view(seat if hidden else None)
        out: JSONObject = {
            "game": game.id, "options": dict(position.options), "seed": position.seed,
            "moves": list(position.moves),
            "record_plies": position.record_plies, "view": view,
            "to_move": None if state.is_over else state.acting_seats[0],
            "legal_moves": [] if state.is_over else [
                state.move_text(m, state.acting_seats[0])
                for m in state.legal_moves(state.acting_seats[0])]
            if not hidden or seat in state.acting_seats else [],
            "over": state.is_over, "seat": seat if hidden else None,
            "engine": game.perfect_information and game.progression().analyst is not None,
        }
        if hidden:
            out["seat_analysis"] = seat_analysis(position, int(seat or 0))
    except AnalysisError as exc:
        out = {"error": exc.to_json()}
    out["cpu"] = time.process_time() - began
    return out


def read_tree(game: str, notation: str | None, share: str | None) -> JSONObject:
    """A pasted notation or a share token read back as the page's tree, every move of every
    variation checked against the rules (``{"error": {...}}`` for a refusal)."""
    from . import tree as trees

    began = time.process_time()
    try:
        found = (trees.parse(notation, game) if notation is not None
                 else trees.unpack(share, game))
        trees.check(found)
        out = found.to_json()
    except AnalysisError as exc:
        out = {"error": exc.to_json()}
    out["cpu"] = time.process_time() - began
    return out
