"""The game protocol, records, seeded randomness and errors. Imports nothing else of asobiba."""

from .bot import Bot, RandomBot
from .errors import (
    AmbiguousMoveError,
    AsobibaError,
    IllegalMoveError,
    MalformedMoveError,
    MoveError,
    NotYourTurnError,
    OptionError,
    RecordError,
    UnknownGameError,
    Why,
    why,
)
from .hooks import (
    AnalysisLine,
    Analyst,
    AnyEvaluator,
    Daily,
    Evaluator,
    ExplorerSpec,
    GameProgression,
    Puzzle,
    SetupError,
    Thresholds,
    ViewEvaluator,
)
from .options import Option, parse_option_pairs, rated_violations, validate_options
from .protocol import PROTOCOL_VERSION, BotLevel, Game, LegalMoves, Move, Outcome, State
from .record import MoveEntry, Record, SeatInfo
from .rng import Rng, derive_seed

__all__ = [
    "PROTOCOL_VERSION", "AmbiguousMoveError", "AnalysisLine", "Analyst", "AnyEvaluator", "AsobibaError", "Bot", "BotLevel",
    "Daily", "Evaluator", "ExplorerSpec", "Game", "GameProgression", "Puzzle", "Thresholds", "ViewEvaluator",
    "IllegalMoveError", "LegalMoves", "MalformedMoveError", "Move", "MoveEntry", "MoveError",
    "NotYourTurnError", "Option", "OptionError", "Outcome", "RandomBot", "Record", "RecordError",
    "Rng", "SeatInfo", "SetupError", "State", "UnknownGameError", "Why", "derive_seed",
    "parse_option_pairs",
    "rated_violations",
    "validate_options", "why",
]
