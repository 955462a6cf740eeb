"""Run one game between seats (bots or callbacks), handing each seat only its views."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import Bot, Game, MoveEntry, Record, SeatInfo, State


@dataclass
class GameResult:
    states: list[State]
    moves: list[MoveEntry]
    record: Record


def play_game(
    game: Game,
    bots: Sequence[Bot],
    options: dict | None = None,
    seed: int = 0,
    seat_info: Sequence[SeatInfo] | None = None,
    max_moves: int = 100_000,
    on_move: Callable[[State, MoveEntry], None] | None = None,
) -> GameResult:
    """Play a whole game between ``bots`` (one per seat). Each bot is reset, then sees every
    view of its seat (after each move) and is asked for a move only when its seat acts."""
    state = game.new_game(options, seed)
    n = state.num_seats
    if len(bots) != n:
        raise ValueError(f"{game.id} with these options has {n} seats; got {len(bots)} bots")
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.options)
        bot.observe(state.view(seat))
    states = [state]
    moves: list[MoveEntry] = []
    while not state.is_over:
        if len(moves) >= max_moves:
            raise RuntimeError(f"{game.id}: game did not end within {max_moves} moves")
        seat = state.acting_seats[0]
        text = bots[seat].choose(state.view(seat))
        state = state.play(text, seat)
        entry = MoveEntry(seat, text)
        moves.append(entry)
        states.append(state)
        if on_move:
            on_move(state, entry)
        for s, bot in enumerate(bots):
            bot.observe(state.view(s))
    info = seat_info or [SeatInfo("bot", b.name, getattr(b, "level", None)) for b in bots]
    record = Record.from_states(states, moves, seed, info)
    return GameResult(states, moves, record)
