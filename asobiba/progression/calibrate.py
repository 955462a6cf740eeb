"""Bot ratings: play bot levels against each other and rate the results like players' games.

Bots are rated players (``accounts.bot_player``) in the game's own pool, so a leaderboard can
show people and bots on one scale and a new player can be offered the level nearest their
rating. Calibration is the only thing that moves a bot's rating (``update_bots=True``); games
against people leave bots as anchors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..core import derive_seed
from ..core.jsontypes import JSONObject
from ..games import get as get_game
from . import accounts, ratings
from .matches import play_from, random_opening


@dataclass
class CalibrationRow:
    level: str
    rating: float
    deviation: float
    games: int


def calibrate_bots(session: Session, game_id: str, levels: Sequence[str], rounds: int = 10,
                   seed: int = 0, options: JSONObject | None = None, gap: int = 2,
                   progress: Callable[[int, int], None] | None = None,
                   openings: bool = True) -> list[CalibrationRow]:
    """``rounds`` round-robins between levels at most ``gap`` apart (in the order given,
    weakest first), colours alternating by round; every game rated in the game's pool.

    With ``openings`` each game starts after a few seeded random plies
    (the game's ``opening_plies`` hook), so that deterministic bots do not replay one game."""
    game = get_game(game_id)
    ids = {lv: accounts.bot_player(session, game_id, lv).id for lv in levels}
    pairs = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1:i + 1 + gap]]
    total, done = rounds * len(pairs), 0
    for r in range(rounds):
        for k, (a, b) in enumerate(pairs):
            s = derive_seed(seed, "calibrate", r, k) >> 1
            seats = (a, b) if r % 2 == 0 else (b, a)
            bots = [game.make_bot(lv, derive_seed(s, n) >> 1) for n, lv in enumerate(seats)]
            opening = random_opening(game, game.validate_options(options), s) if openings else ()
            outcome = play_from(game, bots, options, s, opening)[-1].outcome
            assert outcome is not None
            ratings.record_result(session, game_id, [ids[lv] for lv in seats], outcome,
                                  options=options, seed=s, context="arena", update_bots=True)
            done += 1
            if progress:
                progress(done, total)
    pool, _ = ratings.pool_for(game_id, 2)
    rows = []
    for lv in levels:
        cur = ratings.current_rating(session, ids[lv], pool) or {}
        rows.append(CalibrationRow(lv, float(cur.get("rating", 1500.0)),
                                   float(cur.get("deviation", 500.0)), int(cur.get("games", 0))))
    return rows
