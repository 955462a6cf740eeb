"""``asobiba play``: a game in the terminal against bots or hot-seat, with hints, undo in
casual games, a hand-over screen for hidden-information games, and the record saved at the end."""

from __future__ import annotations

import sys
from collections.abc import Container
from pathlib import Path
from typing import Annotated

import typer

from ..core import AsobibaError, Game, MoveEntry, Record, SeatInfo, State, parse_option_pairs
from ..games import get

HELP = ("type a move in the game's notation; 'moves' lists the legal ones, 'undo' takes back "
        "your last move (casual games), 'resign' ends the game, 'help' shows this")


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _catch_up(game: Game, states: list[State], moves: list[MoveEntry], bots: Container[int],
              seat: int, seen: dict[int, int]) -> str:
    """What the person at ``seat`` would have seen at the table since they last looked:
    every move since, each with its visible effect, from ``view(seat)`` only (a Memory Matrix
    flip shows the white side, an Algo card stays hidden), then the position to move in.
    Nothing else: no other seat's view, no bot's answer the seat cannot see yet."""
    first = seen.get(seat, 0) + 1
    seen[seat] = len(states) - 1
    shown = [i for i in range(first, len(states)) if _told(game, states, i)]
    parts = []
    if len(seen) > 1 and shown:
        parts.append(f"— seat {seat}: {len(shown)} move(s) since your last turn —")
        for i in shown:
            mover = moves[i - 1].seat
            who = f"seat {mover}" + (" (bot)" if mover in bots else "")
            parts.append(f"move {i}: {who}")
            parts.append(game.render_view(states[i].view(seat)))
        return "\n".join(parts)
    return game.render_view(states[-1].view(seat))


def _told(game: Game, states: list[State], i: int) -> bool:
    """Whether the move into ``states[i]`` is told at the table. In a simultaneous round an
    answer is not (neither what it was nor that it was given) until the round ends — when
    the seats that answered act again, or the game ends — so nobody learns anything about a
    task they still have to play (Patapata)."""
    if not game.simultaneous or states[i].is_over:
        return True
    return bool(set(states[i].acting_seats) - set(states[i - 1].acting_seats))


def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="k=v")] = None,
    seat: Annotated[list[int] | None, typer.Option(help="a seat you play (repeatable)")] = None,
    vs: Annotated[list[str] | None, typer.Option(help="bot level for the other seats, in order")] = None,
    seed: Annotated[int | None, typer.Option(help="seed (default: random)")] = None,
    save: Annotated[Path | None, typer.Option(help="where to save the record")] = None,
    casual: Annotated[bool, typer.Option(help="allow undo")] = True,
) -> None:
    """Play GAME in the terminal against bots (--vs LEVEL) or hot-seat (no --vs)."""
    import secrets

    try:
        game = get(game_id)
        options = game.validate_options(parse_option_pairs(option or []))
    except AsobibaError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    state = game.new_game(options, seed)
    n = state.num_seats
    humans = sorted(set(seat or ([0] if vs else range(n))))
    if any(not 0 <= s < n for s in humans):
        typer.echo(f"error: seats are 0..{n - 1}", err=True)
        raise typer.Exit(2)
    bot_seats = [s for s in range(n) if s not in humans]
    levels = list(vs or [])
    if bot_seats and not levels:
        levels = [game.level_names()[0] if game.level_names() else "random"]
    bots = {}
    try:
        for i, s in enumerate(bot_seats):
            bots[s] = game.make_bot(levels[min(i, len(levels) - 1)], seed + s)
            bots[s].reset(s, options)
    except (AsobibaError, ValueError, NotImplementedError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    hidden = not game.perfect_information
    secret = hidden or game.chance  # the seed would give away cards, colours or dice to come
    watcher = humans[0] if len(humans) == 1 else None
    states = [state]
    seen = dict.fromkeys(humans, 0)
    """Hot-seat: the last position (index in ``states``) each person at the table has seen."""
    moves: list[MoveEntry] = []
    last_human = None
    told = f"seed {seed}" if not secret else "the seed is shown when the game ends"
    typer.echo(f"{game.title_en} / {game.title_ja} — {told}. {HELP}.")
    resigned = None
    deferred: list[tuple[int, str]] = []
    """Bots' answers in a simultaneous round, told once the people have given theirs."""
    while not state.is_over:
        for s, b in bots.items():
            b.observe(state.view(s))
        acting = state.acting_seats
        people_acting = [s for s in acting if s not in bots]
        actor = acting[0]
        if game.simultaneous and people_acting:
            # bots answer the round first, from their own views (which hold nobody else's
            # answer), and nobody is told their answers until the people have answered
            actor = next((s for s in acting if s in bots), people_acting[0])
        if actor in bots:
            text = bots[actor].choose(state.view(actor))
            # what a person at the table sees: the move itself where nothing is hidden,
            # otherwise only that it was made (its visible effect is in the view below)
            said = f"seat {actor} (bot) plays {text}" if not hidden \
                else f"seat {actor} (bot) has moved"
            try:
                after = state.play(text, actor)
            except AsobibaError as exc:
                typer.echo(f"error: the bot in seat {actor} chose an illegal move: {exc}",
                           err=True)
                break
            state = after
            moves.append(MoveEntry(actor, text))
            states.append(state)
            if game.simultaneous and people_acting:
                deferred.append((actor, said))
            else:
                typer.echo(said)
                if watcher is not None and hidden and not state.is_over:
                    # every move's visible effect (e.g. Memory Matrix flips), as the person
                    # at the table would have seen it, not only the position at their turn
                    typer.echo(game.render_view(state.view(watcher)))
            continue
        else:
            if hidden and len(humans) > 1 and last_human is not None and last_human != actor:
                typer.echo("\n" * 60 + f"Hand the device to seat {actor}, then press Enter.")
                if _ask("") is None:
                    break
                typer.echo("\n" * 60)
            last_human = actor
            typer.echo(_catch_up(game, states, moves, bots, actor, seen))
            line = _ask(f"seat {actor}> ")
            if line is None:
                break
            line = line.strip()
            if line in ("help", "?"):
                typer.echo(HELP)
                continue
            if line == "moves":
                typer.echo(" ".join(state.legal_moves(actor).texts()))
                continue
            if line == "resign":
                resigned = actor
                break
            if line == "undo":
                if not casual:
                    typer.echo("undo is off in this game")
                    continue
                # take back to this seat's previous turn
                back = [i for i, m in enumerate(moves) if m.seat == actor]
                if not back:
                    typer.echo("nothing to undo")
                    continue
                cut = back[-1]
                moves = moves[:cut]
                states = states[: cut + 1]
                state = states[-1]
                seen.update({h: min(i, cut) for h, i in seen.items()})
                for s, b in bots.items():  # bots start over and re-watch the game
                    b.reset(s, options)
                    for st in states:
                        b.observe(st.view(s))
                typer.echo(f"undone back to move {cut + 1}")
                continue
            text = line
        try:
            state = state.play(text, actor)
        except AsobibaError as exc:
            typer.echo(f"not played: {exc}")
            continue
        moves.append(MoveEntry(actor, text))
        states.append(state)
        if len(humans) > 1 and not state.is_over:
            # hot-seat: the mover sees the effect of their own move (Memory Matrix flips)
            # before handing over, as at the table (where nothing is hidden, the next
            # seat's catch-up shows it on the same screen)
            if hidden:
                typer.echo(game.render_view(state.view(actor)))
            seen[actor] = len(states) - 1
        # the round is over once the bots that answered it act again (the next round) or
        # no person acts any more: only then are their answers told
        if deferred and (all(b in state.acting_seats for b, _ in deferred)
                         or not any(h in humans for h in state.acting_seats)):
            typer.echo("\n".join(said for _, said in deferred))
            deferred.clear()
    if deferred:
        typer.echo("\n".join(said for _, said in deferred))
    seat_info = [SeatInfo("bot", f"level {bots[s].level}" if hasattr(bots[s], "level") else "bot",
                          getattr(bots[s], "level", None)) if s in bots else SeatInfo("human")
                 for s in range(n)]
    record = Record.from_states(states, moves, seed, seat_info)
    typer.echo(game.render_view(state.view(humans[0] if len(humans) == 1 else None)))
    if state.is_over and state.outcome:
        o = state.outcome
        typer.echo(f"game over: scores {list(o.scores)}, ranks {list(o.ranks)} ({o.reason})")
    elif resigned is not None:
        typer.echo(f"seat {resigned} resigned")
    if secret:
        typer.echo(f"seed {seed}")
    path = save or Path(f"asobiba-{game.id}-{seed}.json")
    try:
        path.write_text(record.dumps(), encoding="utf-8")
        typer.echo(f"record saved to {path}")
    except OSError as exc:
        typer.echo(f"could not save the record: {exc}", err=True)
    sys.stdout.flush()
