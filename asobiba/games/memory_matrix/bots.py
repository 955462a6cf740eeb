"""Memory-graded bots. Every level sees views only and keeps its own :class:`Memory`;
levels differ in how fast they forget hidden colours and in how far they look ahead.

Search runs on determinizations: full positions that agree with the view, with remembered
colours under the white pieces the bot recalls and sampled colours under the rest. A
perfect-memory bot that watched the whole game has nothing left to sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.bot import Bot
from ...core.rng import Rng
from . import rules
from .memory import Memory, determinize
from .rules import Config, Pos

TERMINAL = 1000.0


@dataclass(frozen=True)
class Level:
    """One bot strength: memory (forget chance per move, capacity) and search."""

    forget: float
    capacity: int | None
    samples: int  # determinizations per decision
    width: int  # own moves examined beyond the first ply (0 = greedy only)
    rounds: int  # full rounds of greedy replies looked ahead
    hidden_weight: float  # worth of an own piece lying white (it may come back)
    depth: int = 0  # paranoid alpha-beta depth in plies (0 = no tree search)
    corner_weight: float = 0.0  # extra worth of a corner face up (it can never flip)


LEVELS: dict[str, Level] = {
    "1": Level(forget=0.5, capacity=None, samples=1, width=0, rounds=0, hidden_weight=0.0),
    "2": Level(forget=0.15, capacity=None, samples=1, width=0, rounds=0, hidden_weight=0.2),
    "3": Level(forget=0.0, capacity=None, samples=1, width=6, rounds=1, hidden_weight=0.3),
    "4": Level(forget=0.0, capacity=None, samples=3, width=10, rounds=1, hidden_weight=0.3),
}


def seat_values(cfg: Config, pos: Pos, hidden_weight: float) -> list[float]:
    """Each seat's pieces face up, plus a fraction of its pieces lying white."""
    values = [0.0] * cfg.players
    up, neutral = pos.up, pos.neutral
    for colour, ident in enumerate(pos.ident):
        shown = (ident & up).bit_count()
        hidden = (ident & ~up & ~neutral).bit_count() if hidden_weight else 0
        values[colour % cfg.players] += shown + hidden_weight * hidden
    return values


def evaluate(cfg: Config, pos: Pos, seat: int, hidden_weight: float) -> float:
    """How far ``seat`` is ahead of the best other seat (a won game counts extra)."""
    if pos.turn < 0:
        scores = rules.scores(cfg, pos)
        best_other = max(s for k, s in enumerate(scores) if k != seat)
        return (scores[seat] - best_other) + (TERMINAL if scores[seat] > best_other else 0.0)
    values = seat_values(cfg, pos, hidden_weight)
    best_other = max(v for k, v in enumerate(values) if k != seat)
    return values[seat] - best_other


def greedy_move(cfg: Config, pos: Pos, hidden_weight: float) -> int:
    """The move that leaves the mover's seat best off right away (first of equals)."""
    moves = rules.legal_moves(cfg, pos)
    if len(moves) == 1:
        return moves[0]
    seat = cfg.seat_of(pos.turn)
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = evaluate(cfg, rules.apply(cfg, pos, move)[0], seat, hidden_weight)
        if value > best_value:
            best, best_value = move, value
    return best


def look_ahead(cfg: Config, pos: Pos, seat: int, plies: int, hidden_weight: float) -> float:
    """Play ``plies`` greedy replies (every colour for itself), then evaluate for ``seat``."""
    for _ in range(plies):
        if pos.turn < 0:
            break
        pos = rules.apply(cfg, pos, greedy_move(cfg, pos, hidden_weight))[0]
    return evaluate(cfg, pos, seat, hidden_weight)


def paranoid(cfg: Config, pos: Pos, depth: int, alpha: float, beta: float, seat: int,
             hw: float) -> float:
    """Alpha-beta where every other seat plays against ``seat`` (the paranoid reduction of
    a many-player game to two sides), children ordered by the static evaluation."""
    if pos.turn < 0 or depth == 0:
        return evaluate(cfg, pos, seat, hw)
    mine = cfg.seat_of(pos.turn) == seat
    children = [rules.apply(cfg, pos, m)[0] for m in rules.legal_moves(cfg, pos)]
    if depth > 1:
        children.sort(key=lambda ch: evaluate(cfg, ch, seat, hw), reverse=mine)
    if mine:
        best = float("-inf")
        for child in children:
            best = max(best, paranoid(cfg, child, depth - 1, alpha, beta, seat, hw))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    best = float("inf")
    for child in children:
        best = min(best, paranoid(cfg, child, depth - 1, alpha, beta, seat, hw))
        beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def move_values(cfg: Config, pos: Pos, seat: int, level: Level) -> dict[int, float]:
    """Value of each legal move in one determinization."""
    hw = level.hidden_weight
    if level.depth:
        out = {}
        alpha = float("-inf")
        for m in rules.legal_moves(cfg, pos):
            child = rules.apply(cfg, pos, m)[0]
            out[m] = paranoid(cfg, child, level.depth - 1, alpha, float("inf"), seat, hw)
            alpha = max(alpha, out[m])
        return out
    children = {m: rules.apply(cfg, pos, m)[0] for m in rules.legal_moves(cfg, pos)}
    values = {m: evaluate(cfg, child, seat, hw) for m, child in children.items()}
    if level.width and level.rounds:
        plies = level.rounds * cfg.colours - 1
        shortlist = sorted(values, key=values.__getitem__, reverse=True)[: level.width]
        for m in shortlist:
            values[m] = TERMINAL * 2 + look_ahead(cfg, children[m], seat, plies, hw)
    return values


class MemoryBot(Bot):
    """A bot that remembers (or forgets) hidden colours and searches determinizations."""

    def __init__(self, level: str, seed: int = 0, spec: Level | None = None) -> None:
        super().__init__(seed)
        self.level = level
        self.spec = spec or LEVELS[level]
        self.name = f"memory_matrix-{level}"
        self.cfg: Config | None = None
        self.memory = Memory(self.spec.forget, self.spec.capacity, Rng(seed, "forget", level))

    def reset(self, seat: int, options: Mapping[str, Any]) -> None:
        from .game import config_from_raw

        super().reset(seat, options)
        self.cfg = config_from_raw(options)
        self.memory = Memory(self.spec.forget, self.spec.capacity,
                             Rng(self.seed, "forget", self.level))

    def observe(self, view: Mapping[str, Any]) -> None:
        self.memory.observe(view)

    def choose(self, view: Mapping[str, Any]) -> str:
        legal = list(view["legal_moves"])
        if not legal:
            raise ValueError("asked to move with no legal move")
        if self.cfg is None or self.seat != view["seat"]:
            self.reset(int(view["seat"]), _options_from_view(view))
        self.memory.observe(view)
        if len(legal) == 1:
            return str(legal[0])
        assert self.cfg is not None
        cfg, seat = self.cfg, int(view["seat"])
        totals: dict[int, float] = {}
        for _ in range(self.spec.samples):
            pos = determinize(cfg, view, self.memory.known, self.rng)
            for move, value in move_values(cfg, pos, seat, self.spec).items():
                totals[move] = totals.get(move, 0.0) + value
        best_value = max(totals.values())
        best = [m for m, v in totals.items() if v >= best_value - 1e-9]
        move = best[self.rng.below(len(best))] if len(best) > 1 else best[0]
        geo = cfg.geometry
        text = "pass" if move == rules.PASS else geo.name(move >> 1) + ("w" if move & 1 else "")
        assert text in legal, (text, legal)
        return text


def _options_from_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """Options a view implies, for a bot handed a view without ``reset`` (a custom mask)."""
    mask = "/".join("".join("." if ch == "-" else "#" for ch in row) for row in view["board"])
    per = max(1, len(view["colours"]) // int(view["seats"]))
    return {"players": int(view["seats"]), "colours": per, "shape": "custom", "mask": mask,
            "white_any_time": bool(view["white_any_time"]), "lost_colour": view["lost_colour"]}


def make_bot(level: str, seed: int = 0) -> Bot:
    if level not in LEVELS:
        raise ValueError(f"unknown memory_matrix bot level {level!r}; levels: "
                         + ", ".join(LEVELS))
    return MemoryBot(level, seed)
