"""The one game loop: run a game between seats (bots), each seat handed only its views.

Everything that plays whole games between bots goes through :func:`play_game` — the arena
(``cli/arena.py``), bot-vs-bot matches, calibration and daily challenges
(``progression/matches.py``, ``progression/daily.py``), ReverStarGo's opening arena
(``games/reverstargo/arena.py``) and the benchmarks — and reverse matches through
:func:`asobiba.play.reverse.play_reverse`. Options: a seeded ``opening`` of forced plies
before the bots take over; a reverse match is two calls with the seats swapped.

Views cost time, so they are built only for the observers that need them:

* a bot that keeps no memory (it does not override :meth:`Bot.observe`) is shown no views
  between its turns;
* in a perfect-information game a bot that says ``reads_state`` chooses from the state
  itself (:meth:`Bot.choose_state`): there the state holds nothing the seat's view does not,
  so the bot sees exactly what it is entitled to, without a view being built. In games with
  hidden information every bot chooses from its view, always.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import Bot, Game, MoveEntry, Record, SeatInfo, State
from ..core.jsontypes import JSONMapping


@dataclass
class GameResult:
    states: list[State]
    moves: list[MoveEntry]
    record: Record


def _watches(bot: Bot) -> bool:
    """Whether the bot keeps memory of the views it is shown (overrides ``observe``)."""
    return type(bot).observe is not Bot.observe


def play_game(
    game: Game,
    bots: Sequence[Bot],
    options: JSONMapping | None = None,
    seed: int = 0,
    seat_info: Sequence[SeatInfo] | None = None,
    max_moves: int = 100_000,
    on_move: Callable[[State, MoveEntry], None] | None = None,
    opening: Sequence[tuple[int, str] | str] = (),
) -> GameResult:
    """Play a whole game between ``bots`` (one per seat). Each bot is reset, then sees every
    view of its seat (after each move, if it keeps memory) and is asked for a move only when
    its seat acts. ``opening``: moves (text, or ``(seat, text)``) played first, in order, as
    if the seats had chosen them; bots that keep memory see their views too."""
    state = game.new_game(options, seed)
    n = state.num_seats
    if len(bots) != n:
        raise ValueError(f"{game.id} with these options has {n} seats; got {len(bots)} bots")
    watchers = [(seat, bot) for seat, bot in enumerate(bots) if _watches(bot)]
    direct = game.perfect_information
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.options)
    for seat, bot in watchers:
        bot.observe(state.view(seat))
    states = [state]
    moves: list[MoveEntry] = []
    forced = [(m if isinstance(m, tuple) else (None, m)) for m in opening]
    while not state.is_over:
        if len(moves) >= max_moves:
            raise RuntimeError(f"{game.id}: game did not end within {max_moves} moves")
        if len(moves) < len(forced):
            wanted, text = forced[len(moves)]
            seat = state.acting_seats[0] if wanted is None else wanted
            state = state.play(text, seat)
        else:
            seat = state.acting_seats[0]
            bot = bots[seat]
            if direct and bot.reads_state:  # a move object: checked by play, no parsing
                move = bot.choose_state(state)
                text = state.move_text(move, seat)
                state = state.play(move, seat)
            else:
                text = bot.choose(state.view(seat))
                state = state.play(text, seat)
        entry = MoveEntry(seat, text)
        moves.append(entry)
        states.append(state)
        if on_move:
            on_move(state, entry)
        for s, bot in watchers:
            bot.observe(state.view(s))
    info = seat_info or [SeatInfo("bot", b.name, getattr(b, "level", None)) for b in bots]
    record = Record.from_states(states, moves, seed, info)
    return GameResult(states, moves, record)
