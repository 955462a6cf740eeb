"""The one game loop: run a game between seats (bots), each seat handed only its views.

Everything that plays whole games between bots goes through :func:`play_game` — the arena
(``cli/arena.py``), bot-vs-bot matches, calibration and daily challenges
(``progression/matches.py``, ``progression/daily.py``), ReverStarGo's opening arena
(``games/reverstargo/arena.py``) and the benchmarks — and reverse matches through
:func:`asobiba.play.reverse.play_reverse`. Options: a seeded ``opening`` of forced plies
before the bots take over; a reverse match is two calls with the seats swapped.

The step of one bot turn — ask the bot, check its move, time it, and (where a game must go on
regardless, as on the server) fall back to a seeded random legal move — is :func:`bot_turn`,
split in two halves for when the bot runs in another process than the rules:
:func:`pick` (the bot's side: what it chooses, and how long it thought) and :func:`settle`
(the rules' side: the move checked, or the fallback). :func:`play_game` plays every bot turn
through it; so do the web server's bot turns, in the embedded pool and in ``asobiba
worker`` (``asobiba.server.bots`` runs :func:`pick` in a bot process, ``Hub.bot_choice``
settles its answer with :func:`settle`).

Views cost time, so they are built only for the observers that need them:

* a bot that keeps no memory (it does not override :meth:`Bot.observe`) is shown no views
  between its turns;
* in a perfect-information game a bot that says ``reads_state`` chooses from the state
  itself (:meth:`Bot.choose_state`): there the state holds nothing the seat's view does not,
  so the bot sees exactly what it is entitled to, without a view being built. In games with
  hidden information every bot chooses from its view, always.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..core import Bot, Game, IllegalMoveError, Move, MoveEntry, Record, Rng, SeatInfo, State
from ..core.jsontypes import JSONMapping

Fallback = Literal["timeout", "crash", "illegal"]
"""Why a bot turn was played by the fallback: the bot overran its time limit, raised, or
chose a move that is not legal."""

FALLBACK_NOTES: dict[str, str] = {
    "timeout": "timed out", "crash": "failed", "illegal": "chose an illegal move",
}


@dataclass(slots=True)
class Pick:
    """What a bot chose, as its own side saw it: the move (a text, or a move object from a
    ``reads_state`` bot) and the seconds it thought (CPU-independent wall time)."""

    move: str | Move
    seconds: float


@dataclass(slots=True)
class BotTurn:
    """One bot turn as played: the move played (``text``: its notation), the state after it
    (``after``), the seconds the bot thought (None when it gave no answer), and
    ``fallback``: None when the bot's own move was played, else why a seeded random legal
    move was played instead."""

    text: str
    after: State
    seconds: float | None
    fallback: Fallback | None = None
    detail: str = ""

    def note(self, seat: int) -> str | None:
        """The line a room's log shows about this turn (None for an ordinary turn). An
        illegal move's text is not repeated: it could reveal a secret."""
        if self.fallback is None:
            return None
        why = FALLBACK_NOTES[self.fallback]
        if self.detail:
            why += f" ({self.detail})"
        return f"the bot in seat {seat} {why}; it played a random legal move"


def _choose(bot: Bot, seat: int, state: State | None,
            view: JSONMapping | None) -> str | Move:
    if state is not None and bot.reads_state and state.game.perfect_information:
        return bot.choose_state(state)
    if view is None:
        if state is None:
            raise ValueError("a bot turn needs the state or the seat's view")
        view = state.view(seat)
    return bot.choose(view)


def pick(bot: Bot, seat: int, state: State | None = None,
         view: JSONMapping | None = None) -> Pick:
    """The bot's side of a turn: its choice for ``seat`` and how long it took. A
    ``reads_state`` bot of a perfect-information game chooses from ``state`` (it holds
    nothing the seat's view does not); every other bot from ``view`` (built from ``state``
    if not given). Whatever the bot raises propagates."""
    started = time.perf_counter()
    move = _choose(bot, seat, state, view)
    return Pick(move, time.perf_counter() - started)


def settle(state: State, seat: int, picked: Pick | None, *,
           failure: Fallback | None = None, detail: str = "",
           fallback: Rng | None = None) -> BotTurn:
    """The rules' side of a turn: ``picked`` played on ``state`` for ``seat`` — the rules
    check it (:meth:`State.play`), so a move is legal exactly when it can be played.
    ``failure``: the bot gave no move (``picked`` is None) and why. Without ``fallback`` a
    missing or illegal move raises (:class:`MoveError`: an arena's bot is at fault and the
    game cannot be scored); with it, a random legal move drawn from that seeded stream is
    played instead and the turn says why."""
    if picked is not None:
        try:
            move = picked.move
            text = move if isinstance(move, str) else state.move_text(move, seat)
            return BotTurn(text, state.play(move, seat), picked.seconds)
        except Exception:  # noqa: BLE001 - whatever the bot returned, it is not a move here
            if fallback is None:
                raise
        failure = "illegal"
    elif failure is None:
        raise ValueError("settle needs the bot's pick or the reason it gave none")
    if fallback is None:
        raise IllegalMoveError(f"the bot in seat {seat} "
                               f"{FALLBACK_NOTES[failure]}{f' ({detail})' if detail else ''}")
    texts = state.legal_moves(seat).texts()
    text = texts[fallback.below(len(texts))]
    return BotTurn(text, state.play(text, seat),
                   picked.seconds if picked is not None else None, failure, detail)


def bot_turn(state: State, seat: int, bot: Bot, *, view: JSONMapping | None = None,
             fallback: Rng | None = None) -> BotTurn:
    """One whole bot turn in this process: :func:`pick`, then :func:`settle` (a bot that
    raises counts as ``crash`` when there is a ``fallback``, else its error propagates).
    The ordinary turn is inlined (it is the runner's inner loop): the same steps, without
    the intermediate :class:`Pick`."""
    started = time.perf_counter()
    try:
        # _choose inlined for the common case (a perfect-information bot reading the state)
        if view is None and bot.reads_state and state.game.perfect_information:
            move = bot.choose_state(state)
        else:
            move = _choose(bot, seat, state, view)
    except Exception as exc:
        if fallback is None:
            raise
        return settle(state, seat, None, failure="crash", detail=type(exc).__name__,
                      fallback=fallback)
    seconds = time.perf_counter() - started
    if fallback is None:  # no fallback: whatever the rules refuse propagates
        text = move if isinstance(move, str) else state.move_text(move, seat)
        return BotTurn(text, state.play(move, seat), seconds)
    return settle(state, seat, Pick(move, seconds), fallback=fallback)


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
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.options)
    for seat, bot in watchers:
        bot.observe(state.view(seat))
    states = [state]
    moves: list[MoveEntry] = []
    forced = [(m if isinstance(m, tuple) else (None, m)) for m in opening]
    while True:
        acting = state.acting_seats  # asked once per ply: empty once the game is over
        if not acting:
            break
        if len(moves) >= max_moves:
            raise RuntimeError(f"{game.id}: game did not end within {max_moves} moves")
        if len(moves) < len(forced):
            wanted, text = forced[len(moves)]
            seat = acting[0] if wanted is None else wanted
            state = state.play(text, seat)
        else:
            seat = acting[0]
            # the one bot-turn step (the server's too): a reads_state bot of a
            # perfect-information game chooses from the state, others from their view
            turn = bot_turn(state, seat, bots[seat])
            text, state = turn.text, turn.after
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
