"""A position to analyse, from a JSON description (the page's URL and API body):

``{"game", "options"?, "seed"?, "record"? | "notation"? (+ "format"?), "ply"?,
"setup"? ({"board", "turn"}), "moves"?}`` — the start is the record's (cut at ``ply``),
the set-up board, or a new game with ``options`` and ``seed``; ``moves`` (the move tree's
current line, in the game's notation) are played from there.

Every refusal is an :class:`AnalysisError` with a code and arguments the page words in
each language; nothing is half-built."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core import AsobibaError, Game, MoveError, Record, SetupError, State
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get, replay_record

MAX_MOVES = 1000
"""Moves in a description at most (a record's and the line's together)."""


class AnalysisError(Exception):
    """A description that gives no position: ``code`` and ``args`` for the page."""

    def __init__(self, code: str, **args: object) -> None:
        super().__init__(code, args)
        self.code = code
        self.args_ = args

    def to_json(self) -> JSONObject:
        return {"code": self.code, "args": dict(self.args_)}  # type: ignore[dict-item]


@dataclass
class Position:
    game: Game
    options: JSONMapping
    states: list[State]
    """The start, then the state after each move of ``moves``."""
    moves: list[str]
    record_plies: int = 0
    """How many of ``moves`` come from the record (the rest is the line played here)."""
    setup: JSONMapping | None = None
    key: str = field(default="")
    seed: int = 0

    @property
    def state(self) -> State:
        return self.states[-1]


def _game(spec: JSONMapping) -> Game:
    gid = spec.get("game")
    if not isinstance(gid, str):
        raise AnalysisError("analysis_unknown_game", game=str(gid))
    try:
        return get(gid)
    except AsobibaError:
        raise AnalysisError("analysis_unknown_game", game=gid) from None


def _record(game: Game, spec: JSONMapping) -> Record:
    try:
        if "record" in spec:
            record = Record.from_json(spec["record"])
        else:
            from ..formats import import_record

            text = spec.get("notation")
            fmt = spec.get("format")
            if not isinstance(text, str) or not (fmt is None or isinstance(fmt, str)):
                raise AnalysisError("analysis_bad_record", detail="notation")
            record = import_record(text, fmt, game.id)
    except AsobibaError as exc:
        raise AnalysisError("analysis_bad_record", detail=str(exc)[:300]) from None
    if record.game != game.id:
        raise AnalysisError("analysis_wrong_game", game=game.id, record=record.game)
    if len(record.moves) > MAX_MOVES:
        raise AnalysisError("analysis_too_long", most=MAX_MOVES)
    return record


def load(spec: object) -> Position:
    """The position ``spec`` describes (see the module docstring)."""
    if not isinstance(spec, Mapping):
        raise AnalysisError("analysis_bad_request", field="body")
    game = _game(spec)
    moves = spec.get("moves", [])
    if not isinstance(moves, Sequence) or isinstance(moves, str) \
            or not all(isinstance(m, str) for m in moves):
        raise AnalysisError("analysis_bad_request", field="moves")
    if len(moves) > MAX_MOVES:
        raise AnalysisError("analysis_too_long", most=MAX_MOVES)
    setup = spec.get("setup")
    record_moves: list[str] = []
    if "record" in spec or "notation" in spec:
        record = _record(game, spec)
        try:
            states = replay_record(record)
        except AsobibaError as exc:
            raise AnalysisError("analysis_bad_record", detail=str(exc)[:300]) from None
        ply = spec.get("ply", len(record.moves))
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(record.moves):
            raise AnalysisError("analysis_bad_ply", ply=str(ply), plies=len(record.moves))
        states = states[:ply + 1]
        record_moves = [m.move for m in record.moves[:ply]]
        options: JSONMapping = dict(record.options)
        seed = record.seed
        setup = None
    else:
        options = spec.get("options") or {}
        seed = spec.get("seed", 0)
        if not isinstance(options, Mapping) or not isinstance(seed, int):
            raise AnalysisError("analysis_bad_request", field="options")
        try:
            start = game.new_game(dict(options), seed)
        except AsobibaError as exc:
            raise AnalysisError("analysis_bad_options", detail=str(exc)[:300]) from None
        options = dict(start.options)
        if setup is not None:
            start = _setup(game, options, setup)
        states = [start]
    for i, text in enumerate(moves):
        here = states[-1]
        if here.is_over:
            raise AnalysisError("analysis_bad_move", ply=len(record_moves) + i + 1, move=text,
                                reason="over")
        try:
            states.append(here.play(text, here.acting_seats[0]))
        except MoveError as exc:
            raise AnalysisError("analysis_bad_move", ply=len(record_moves) + i + 1,
                                move=text[:40], reason=exc.code) from None
    return Position(game, options, states, record_moves + list(moves), len(record_moves),
                    setup if isinstance(setup, Mapping) else None, seed=seed)


def _setup(game: Game, options: JSONMapping, setup: object) -> State:
    if not game.perfect_information:
        raise AnalysisError("analysis_no_setup", game=game.id)
    factory = game.progression().analyst
    if factory is None:
        raise AnalysisError("analysis_no_setup", game=game.id)
    if not isinstance(setup, Mapping):
        raise AnalysisError("analysis_bad_board", reason="shape")
    turn = setup.get("turn", 0)
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise AnalysisError("analysis_bad_board", reason="turn")
    try:
        return factory(options).setup(setup.get("board"), turn, options)
    except SetupError as exc:
        raise AnalysisError("analysis_bad_board", reason=exc.reason) from None
