"""Match formats: a single game, a reverse match (seed §8: two games with colours swapped, the
combined score decides), and best-of-N series of either.

:class:`Match` is an immutable record of a match in progress: it says who plays which colour
next (:meth:`Match.next_game`) and takes each finished game's outcome (:meth:`Match.add`).
Colours: side A plays seat ``first`` in game 0; in a series of single games colours alternate
every game (seed §9 ②: "白黒は1試合ごとに自動で交代します"); in reverse-match sets they swap
inside each set and the next set starts with the colour the last game ended with, giving the
seed's pattern "1 セット目：黒 → 白 / 2 セット目：白 → 黒 / 3 セット目：黒 → 白".

Interpretations (docs/progression.md): a drawn unit (game or set) counts for neither side;
a best-of-N series ends when a side reaches ⌈N/2⌉ unit wins or after N units, and then the side
with more unit wins takes it (equal: the match is drawn). A set's combined scores are equal →
the game's tie-break (ReverStarGo: summed captures) → still equal: a drawn set.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..core import Bot, Game, Outcome, Rng, State, derive_seed
from ..core.jsontypes import JSONMapping, JSONObject
from ..play.reverse import reverse_winner
from ..play.runner import GameResult, play_game
from .errors import MatchError
from .ladder_data import REVERSE_FROM_TIER, TIERS, tier_of_level

A, B = "A", "B"


@dataclass(frozen=True)
class MatchFormat:
    best_of: int = 1
    reverse: bool = False

    def __post_init__(self) -> None:
        if self.best_of < 1 or self.best_of % 2 == 0:
            raise MatchError(f"best_of must be an odd number ≥ 1, not {self.best_of}")

    @property
    def kind(self) -> str:
        if self.best_of == 1:
            return "reverse" if self.reverse else "single"
        return "reverse-series" if self.reverse else "series"

    @property
    def target(self) -> int:
        """Unit wins that decide the series ("先に2勝" for best of 3)."""
        return self.best_of // 2 + 1

    @property
    def games_per_unit(self) -> int:
        return 2 if self.reverse else 1

    def text(self) -> str:
        """The form :meth:`parse` reads back: single, reverse, boN, rm-boN."""
        if self.best_of == 1:
            return "reverse" if self.reverse else "single"
        return ("rm-" if self.reverse else "") + f"bo{self.best_of}"

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """``single``, ``reverse`` / ``rm``, ``bo5``, ``rm-bo5``."""
        t = text.strip().lower()
        if t == "single":
            return cls()
        if t in ("reverse", "rm"):
            return cls(1, True)
        m = re.fullmatch(r"(rm-)?bo(\d{1,2})", t)
        if not m:
            raise MatchError(f"unknown match format {text!r}; use single, reverse, boN or rm-boN")
        return cls(int(m.group(2)), bool(m.group(1)))


SINGLE = MatchFormat()
REVERSE = MatchFormat(1, True)


@dataclass(frozen=True)
class GameSlot:
    """The next game of a match: its number, set, leg within the set, and A's seat."""

    index: int
    unit: int
    leg: int
    seat_of_a: int

    @property
    def seat_of_b(self) -> int:
        return 1 - self.seat_of_a


@dataclass(frozen=True)
class PlayedGame:
    seat_of_a: int
    score_a: float
    score_b: float
    points_a: float
    tiebreak_a: float = 0.0
    tiebreak_b: float = 0.0


@dataclass(frozen=True)
class UnitResult:
    winner: str | None
    score_a: float
    score_b: float
    tiebreak_a: float
    tiebreak_b: float


@dataclass(frozen=True)
class Match:
    format: MatchFormat = SINGLE
    first: int = 0
    games: tuple[PlayedGame, ...] = field(default_factory=tuple)

    # ---- colours ---------------------------------------------------------------------------
    def seat_of_a(self, index: int) -> int:
        if self.format.reverse:
            unit, leg = divmod(index, 2)
            return (self.first + unit + leg) % 2
        return (self.first + index) % 2

    def next_game(self) -> GameSlot | None:
        if self.is_over:
            return None
        i = len(self.games)
        unit, leg = divmod(i, self.format.games_per_unit)
        return GameSlot(i, unit, leg, self.seat_of_a(i))

    # ---- results ---------------------------------------------------------------------------
    def add(self, outcome: Outcome, tiebreak: Sequence[float] | None = None) -> Match:
        """The match after the next game ended with ``outcome`` (seats as played)."""
        slot = self.next_game()
        if slot is None:
            raise MatchError("the match is already over")
        if len(outcome.scores) != 2:
            raise MatchError("match formats are for two-seat games")
        a, b = slot.seat_of_a, slot.seat_of_b
        tb = tuple(tiebreak) if tiebreak is not None else (0.0, 0.0)
        played = PlayedGame(a, float(outcome.scores[a]), float(outcome.scores[b]),
                            outcome.points(a), float(tb[a]), float(tb[b]))
        return replace(self, games=self.games + (played,))

    def units(self) -> list[UnitResult]:
        """Finished units (a set counts once both its games are played)."""
        n = self.format.games_per_unit
        out = []
        for start in range(0, len(self.games) - n + 1, n):
            gs = self.games[start:start + n]
            sa, sb = sum(g.score_a for g in gs), sum(g.score_b for g in gs)
            ta, tb = sum(g.tiebreak_a for g in gs), sum(g.tiebreak_b for g in gs)
            if n == 1:
                p = gs[0].points_a
                winner = A if p > 0.5 else B if p < 0.5 else None
            else:  # a reverse set: the one scorer of play/reverse.py
                won = reverse_winner((sa, sb), (ta, tb))
                winner = None if won is None else (A, B)[won]
            out.append(UnitResult(winner, sa, sb, ta, tb))
        return out

    def wins(self) -> tuple[int, int]:
        units = self.units()
        return (sum(u.winner == A for u in units), sum(u.winner == B for u in units))

    @property
    def is_over(self) -> bool:
        wa, wb = self.wins()
        t = self.format.target
        return wa >= t or wb >= t or len(self.units()) >= self.format.best_of

    @property
    def winner(self) -> str | None:
        """``"A"``, ``"B"``, or ``None`` (unfinished or drawn)."""
        if not self.is_over:
            return None
        wa, wb = self.wins()
        return A if wa > wb else B if wb > wa else None

    def to_json(self) -> JSONObject:
        return {
            "format": self.format.text(), "first": self.first,
            "games": [vars(g) for g in self.games],
            "wins": list(self.wins()), "over": self.is_over, "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: JSONMapping) -> Match:
        return cls(MatchFormat.parse(data["format"]), int(data["first"]),
                   tuple(PlayedGame(**g) for g in data["games"]))


# ---- per-game tie-break and CPU defaults -------------------------------------------------------

def replays_the_deal(game: Game) -> bool:
    """Whether a set's later games replay the first game's seed (the same game with colours
    swapped). Only where the seed hides nothing: with hidden information or chance the same
    deal with seats swapped would hand a person what they saw from the other seat (Algo's
    cards, Patapata's dice to come), and the first game's record, public once it ends, holds
    the seed. Two-player sets and the ladder's CPU sets both follow this."""
    return game.perfect_information and not game.chance


def tiebreak_for(game: Game) -> Callable[[JSONMapping], tuple[float, ...]] | None:
    """A game's reverse-match tie-break from its final spectator view (its ``view_tiebreak``
    hook; ReverStarGo: captured stones), or None."""
    return game.progression().view_tiebreak


def format_vs_cpu(game: Game, level: str, best_of: int = 1, tier: str | None = None
                  ) -> MatchFormat:
    """Seed §8 ④: against the CPU from Lv.5 up every game is a reverse-match set. ``tier``
    (``"lv5"``...) says which ladder tier is played when a level fills several."""
    index = TIERS.index(tier) if tier is not None else tier_of_level(game, level)
    return MatchFormat(best_of, index is not None and index >= REVERSE_FROM_TIER)


# ---- seeded openings and playing from them -----------------------------------------------------

def random_opening(game: Game, options: JSONMapping, seed: int,
                   plies: tuple[int, int] | None = None) -> tuple[tuple[int, str], ...]:
    """Seeded random (seat, move) plies from the start; a line that ends the game or leaves
    a single move is redrawn. ``plies`` defaults to the game's ``opening_plies`` hook: (fewest,
    most) seeded random plies before the players take over — daily challenges start from
    them, and calibration uses them so that deterministic bots do not replay one game."""
    lo, hi = plies if plies is not None else game.progression().opening_plies
    rng = Rng(seed, "opening")
    for _ in range(50):
        state = game.new_game(options, seed)
        moves: list[tuple[int, str]] = []
        for _ in range(lo + rng.below(hi - lo + 1)):
            if state.is_over:
                break
            seat = state.acting_seats[0]
            text = rng.choice(state.legal_moves(seat).texts())
            moves.append((seat, text))
            state = state.play(text, seat)
        if not state.is_over and len(state.legal_moves()) > 1:
            return tuple(moves)
    return ()


def play_from(game: Game, bots: Sequence[Bot], options: JSONMapping | None, seed: int,
              opening: Sequence[tuple[int, str]] = ()) -> list[State]:
    """Replay ``opening`` and let the bots play on (the one game loop, ``play_game``); each
    bot sees only its own views, from the start, so bots that remember see the opening too.
    Returns every state."""
    return play_game(game, bots, options, seed, opening=opening).states


# ---- playing a whole match between bots (CLI, arena, calibration) ---------------------------

@dataclass
class MatchResult:
    match: Match
    games: list[GameResult]


def unit_seed(seed: int, unit: int) -> int:
    """Both games of a reverse set share one seed: the same deal with colours swapped."""
    return derive_seed(seed, "match-unit", unit) >> 1


def play_match(game: Game, make_a: Callable[[int], Bot], make_b: Callable[[int], Bot],
               fmt: MatchFormat = SINGLE, options: JSONObject | None = None, seed: int = 0,
               first: int = 0) -> MatchResult:
    """Play a match between two bots (``make_x(seed)`` builds a fresh bot for each game)."""
    match = Match(fmt, first)
    tb = tiebreak_for(game)
    results = []
    while (slot := match.next_game()) is not None:
        s = unit_seed(seed, slot.unit)
        bot_a = make_a(derive_seed(s, "A", slot.leg) >> 1)
        bot_b = make_b(derive_seed(s, "B", slot.leg) >> 1)
        bots = [bot_a, bot_b] if slot.seat_of_a == 0 else [bot_b, bot_a]
        result = play_game(game, bots, options, s)
        final = result.states[-1]
        outcome = final.outcome
        assert outcome is not None
        match = match.add(outcome, tb(final.view(None)) if tb else None)
        results.append(result)
    return MatchResult(match, results)
