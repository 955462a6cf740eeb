"""``asobiba`` — play, replay, script, test and serve every game from the terminal.

The JSON printed by ``replay --json`` and ``bot --json`` is a stable scripting interface,
documented in docs/cli.md.

**Start-up is kept fast** (``asobiba games`` and ``asobiba replay`` cost ≤ 0.3 s CPU over
``python -c pass``; measured by bench/cli_startup.py): importing this module loads only
typer, rich, ``asobiba.core`` and the game registry — never the server, the progression layer
or SQLAlchemy. Two patterns keep it so; follow them when adding a command:

* **a command** — decorate a function with ``@app.command()`` here and import what it needs
  *inside* the function (``from ..server import run``), so other commands never pay for it::

      @app.command()
      def export(game_id: str) -> None:
          \"\"\"Export a game's records.\"\"\"
          from ..envs.export import export_records  # heavy imports stay in here
          export_records(game_id)

* **a group of commands in its own module** (a typer app) — add one line to
  :data:`LAZY_GROUPS` (name → ``("module", "attribute", "help")``); the module is imported
  only when its group is run (or ``--help`` lists it). Each game's ``cli.py`` (its ``app``)
  is found the same way, as ``asobiba <game> ...``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, NoReturn, cast

import typer
import typer.main
from typer.core import TyperGroup

if TYPE_CHECKING:
    from rich.console import Console
    from typer._click.core import Command, Context  # the click that typer bundles

from ..core import (
    AsobibaError,
    Bot,
    Game,
    MoveEntry,
    MoveError,
    Outcome,
    Record,
    State,
    parse_option_pairs,
)
from ..core.extras import missing as missing_extra
from ..core.jsontypes import JSONObject
from ..games import available, get, manifest, replay_record
from .needs import need

LAZY_GROUPS: dict[str, tuple[str, str, str, str | None]] = {
    "progression": ("asobiba.progression.cli", "app",
                    "ranks, daily challenges, matches, reviews, bot calibration", "web"),
    "puzzles": ("asobiba.cli.puzzles_cmd", "app",
                "build and verify puzzle sets mined from games", None),
}
"""Command groups imported only when used: name → (module, typer app attribute, help, the
optional extra it needs or None). Without its extra a group is still listed, and says which
extra to install when run."""


def _game_cli_names() -> list[str]:
    """Registered games whose manifest names a CLI module with a typer ``app`` (``asobiba
    <id> ...``). Only ``--help`` lists them: it resolves every game's manifest."""
    found = []
    for gid in available():
        module = manifest(gid).load("cli")
        if getattr(module, "app", None) is not None:
            found.append(gid)
    return found


class LazyGroup(TyperGroup):
    """The top-level group: eager commands as usual, plus :data:`LAZY_GROUPS` and the games'
    own command groups, imported on first use."""

    def list_commands(self, ctx: Context) -> list[str]:
        eager = super().list_commands(ctx)
        return [*eager, *(n for n in [*_game_cli_names(), *LAZY_GROUPS] if n not in eager)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        if cmd_name in LAZY_GROUPS:
            module_name, attr, help_text, extra = LAZY_GROUPS[cmd_name]
            if extra is not None and missing_extra(extra):
                return _needs_extra(cmd_name, extra, help_text)
        elif cmd_name in available():
            found_cli = manifest(cmd_name).module_of("cli")
            if found_cli is None:
                return None
            module_name, attr, help_text = found_cli, "app", f"{cmd_name} tools"
        else:
            return None
        sub = getattr(importlib.import_module(module_name), attr, None)
        if sub is None:
            return None
        sub._add_completion = False  # as a group under `asobiba`, like add_typer would
        command = typer.main.get_command(sub)
        command.name = cmd_name
        command.help = command.help or help_text
        self.commands[cmd_name] = command
        return command


def _needs_extra(name: str, extra: str, help_text: str) -> Command:
    """A stand-in for the group ``name`` whose ``extra`` is not installed: listed by
    ``--help``, and run (with any arguments, ``--help`` included) it says which extra to
    install."""
    def missing(ctx: typer.Context) -> None:
        need(extra, f"asobiba {name}")

    stub = typer.Typer(add_completion=False)
    stub.command(name=name, help=f"{help_text} (needs the '{extra}' extra)",
                 add_help_option=False,
                 context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
                 )(missing)
    command = typer.main.get_command(stub)
    command.name = name
    return command


app = typer.Typer(
    cls=LazyGroup,
    help="asobiba (遊び場): Japanese games on exact rules engines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
class _LazyConsole:
    """A rich Console made on first use: commands that print plain text or JSON (``replay``,
    ``games --json``) never import rich's console."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def __getattr__(self, name: str) -> object:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return getattr(self._console, name)


# typed as the Console they stand for (every attribute is the real console's)
console = cast("Console", _LazyConsole())
err = cast("Console", _LazyConsole(stderr=True))

OptionArg = Annotated[list[str] | None, typer.Option("--option", "-o", help="k=v game option")]


def _fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[red]error:[/red] {message}", markup=True, highlight=False)
    raise typer.Exit(code)


def _game_cli(game: Game) -> ModuleType | None:
    """The game's CLI module (its solver, puzzles), as its manifest names it, or None."""
    found = manifest(game.id).load("cli")
    return found if isinstance(found, ModuleType) else None


def _load(game_id: str) -> Game:
    try:
        return get(game_id)
    except AsobibaError as exc:
        _fail(str(exc))


def _split_moves(moves: list[str]) -> list[tuple[int | None, str]]:
    """Moves on a command line: plain text, or ``SEAT:MOVE`` (needed in simultaneous games)."""
    out: list[tuple[int | None, str]] = []
    for m in moves:
        head, sep, tail = m.partition(":")
        out.append((int(head), tail) if sep and head.isdigit() else (None, m))
    return out


def _replay(game: Game, moves: list[str], options: JSONObject, seed: int | None,
            record_file: Path | None) -> tuple[list[State], list[MoveEntry], int]:
    """The states from the start (or from a record's end) through ``moves``."""
    if record_file is not None:
        try:
            record = Record.loads(record_file.read_text(encoding="utf-8"))
        except OSError as exc:
            _fail(f"cannot read {record_file}: {exc}")
        if record.game != game.id:
            _fail(f"{record_file} is a {record.game} record, not {game.id}")
        states, entries, seed_used = replay_record(record), list(record.moves), record.seed
    else:
        seed_used = game.default_seed if seed is None else seed
        states, entries = [game.new_game(options, seed_used)], []
    for seat, text in _split_moves(moves):
        state = states[-1]
        seat = state.to_move if seat is None else seat
        try:
            states.append(state.play(text, seat))
        except MoveError as exc:
            raise type(exc)(f"move {len(entries) + 1} ({text}): {exc}", move=text) from exc
        assert seat is not None  # play() refuses a move when no seat is to act
        entries.append(MoveEntry(seat, text))
    return states, entries, seed_used


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The games, their variants, options and bot levels."""
    described = [get(gid).describe() for gid in available()]
    if as_json:
        print(json.dumps(described, ensure_ascii=False, indent=1))
        return
    # plain text, one block per game: a listing needs no table engine (rich's import and
    # layout cost more than the rest of the command; bench/cli_startup.py)
    out = []
    for d in described:
        seats = d["seats"][0] if d["seats"][0] == d["seats"][1] else \
            f"{d['seats'][0]}–{d['seats'][1]}"
        out.append(f"{d['id']}  {d['title']['en']} / {d['title']['ja']}  ({seats} seats)")
        if d["summary"]:
            out.append(f"  {d['summary']}")
        for o in d["options"]:
            out.append(f"  -o {o['name']}={o['default']}  ({o['allowed']})")
        if d["variants"]:
            out.append(f"  variants: {', '.join(d['variants'])}")
        if d["bots"]:
            out.append(f"  bot levels: {', '.join(b['level'] for b in d['bots'])}")
        out.append("")
    print("\n".join(out).rstrip())


@app.command()
def replay(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    moves: Annotated[list[str] | None, typer.Argument(metavar="MOVE")] = None,
    option: OptionArg = None,
    seed: Annotated[int | None, typer.Option(help="seed for chance (default 0)")] = None,
    record: Annotated[Path | None, typer.Option(help="start from this record file")] = None,
    seat: Annotated[int | None, typer.Option(help="print only what this seat sees")] = None,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="print the full state, hidden cards, colours and dice included")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Apply MOVEs and print the position (with --json: the scripting interface).

    Games with hidden information or chance print what a spectator sees (or with --seat N
    what that seat sees: its view, its own legal moves, no seed); the full state and the
    seed need --reveal, and say that they spoil the game."""
    game = _load(game_id)
    if seat is not None and reveal:
        _fail("--seat shows one seat's view and --reveal the whole state: choose one")
    secret = not game.perfect_information or game.chance
    full = reveal or (seat is None and not secret)
    try:
        options = game.validate_options(parse_option_pairs(option or []))
        states, entries, seed_used = _replay(game, moves or [], options, seed, record)
        state = states[-1]
        if seat is not None and not 0 <= seat < state.num_seats:
            raise ValueError(f"seats are 0..{state.num_seats - 1}")
        shown = state.to_json() if full else state.view(seat)
        # legal moves only of a seat whose view it is (a spectator of a hidden game sees none)
        legal = (state.legal_moves().texts() if full and state.to_move is not None else
                 state.legal_moves(seat).texts()
                 if seat is not None and seat in state.acting_seats else [])
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    outcome = state.outcome
    if reveal and secret:
        err.print("[yellow]--reveal:[/yellow] the full state and the seed are shown — "
                  "hidden cards, colours and dice to come included (a spoiler for play)",
                  markup=True, highlight=False)
    if as_json:
        out: JSONObject = {
            "game": game.id,
            "rules_version": game.rules_version,
            "options": dict(state.options),
            "ply": len(entries),
            "to_move": state.to_move,
            "acting": list(state.acting_seats),
            "legal_moves": legal,
            "outcome": outcome.to_json() if outcome else None,
        }
        if full:
            out["seed"] = seed_used
            out["revealed"] = bool(reveal and secret)
        if full or game.perfect_information:  # move texts can hold hidden cards otherwise
            out["moves"] = [e.to_json() for e in entries]
        out["state" if full else "view"] = shown
        if not full:
            out["seat"] = seat
        print(json.dumps(out, ensure_ascii=False))
        return
    print(game.render_view(state.view(seat)) if not full else state.render(None))
    if outcome:
        print(f"game over: scores {list(outcome.scores)}, ranks {list(outcome.ranks)}"
              f" ({outcome.reason})")
    elif legal:
        print(f"to move: seat {state.to_move}; legal: {' '.join(legal)}")
    else:
        print(f"to move: seat {state.to_move}")


def _feed(bot: Bot, states: list[State], seat: int) -> None:
    bot.reset(seat, states[0].options)
    for s in states:
        bot.observe(s.view(seat))


@app.command()
def bot(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    moves: Annotated[list[str] | None, typer.Argument(metavar="MOVE")] = None,
    level: Annotated[str, typer.Option(help="bot level (see `asobiba games`)")] = "1",
    option: OptionArg = None,
    seed: Annotated[int | None, typer.Option()] = None,
    bot_seed: Annotated[int, typer.Option(help="seed of the bot's own randomness")] = 0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Print the move the bot of LEVEL chooses after MOVEs (it sees only its seat's views)."""
    game = _load(game_id)
    try:
        options = game.validate_options(parse_option_pairs(option or []))
        states, _, _ = _replay(game, moves or [], options, seed, None)
        state = states[-1]
        if state.is_over:
            _fail("the game is over; there is no move to choose")
        seat = state.to_move
        assert seat is not None
        the_bot = game.make_bot(level, bot_seed)
        _feed(the_bot, states, seat)
        t0 = time.perf_counter()
        move = the_bot.choose(state.view(seat))
        seconds = time.perf_counter() - t0
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    if as_json:
        print(json.dumps({"game": game.id, "level": level, "seat": seat, "move": move,
                          "seconds": round(seconds, 4)}, ensure_ascii=False))
    else:
        print(move)


@app.command()
def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    bot_specs: Annotated[list[str], typer.Option("--bot", help="a bot level; one per seat")],
    games: Annotated[int, typer.Option(min=1, help="games (with --reverse: matches)")] = 10,
    seed: Annotated[int, typer.Option()] = 0,
    option: OptionArg = None,
    reverse: Annotated[bool, typer.Option(
        "--reverse", help="reverse matches: two games, same seed, colours swapped")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    rate: Annotated[str | None, typer.Option(
        "--rate", metavar="DB_URL",
        help="rate every game in this database's bot ratings (calibration), e.g. "
             "sqlite:///data/asobiba.db — the web app's leaderboards and bot suggestions "
             "read them")] = None,
) -> None:
    """Bots against each other, seats rotated: W/D/L, mean scores, Elo difference (95%)."""
    from .arena import run_arena, run_reverse_arena

    game = _load(game_id)
    try:
        options = game.validate_options(parse_option_pairs(option or []))
        for spec in bot_specs:
            game.make_bot(spec, 0)
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    if rate:
        need("web", "asobiba arena --rate")
    rater = _BotRater(rate, game_id, options) if rate else None
    progress_cb = None
    if sys.stderr.isatty() and not as_json:
        from rich.progress import Progress

        prog = Progress(console=err)
        task = prog.add_task(f"{game_id} arena", total=games)
        prog.start()
        progress_cb = lambda done: prog.update(task, completed=done)  # noqa: E731
    try:
        runner = run_reverse_arena if reverse else run_arena
        result = runner(game, bot_specs, game.make_bot, games, seed, options, progress_cb,
                        rater.rate if rater else None)
        if rater:
            result["ratings"] = rater.finish(bot_specs)
    except (AsobibaError, ValueError) as exc:
        if rater:
            rater.session.rollback()
        _fail(str(exc))
    finally:
        if progress_cb is not None:
            prog.stop()
        if rater:
            rater.session.close()
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    from rich.table import Table

    what = f"{games} reverse matches" if reverse else f"{games} games, seats rotated"
    table = Table(title=f"{game_id} arena: {what}")
    for col in ("bot", "wins", "draws", "losses", "mean points",
                "mean match total" if reverse else "mean score"):
        table.add_column(col)
    for b in result["bots"]:
        table.add_row(b["bot"], str(b["wins"]), str(b["draws"]), str(b["losses"]),
                      f"{b['mean_points']:.3f}", f"{b['mean_score']:.2f}")
    console.print(table)
    if "elo" in result:
        e = result["elo"]
        console.print(f"Elo {bot_specs[0]} − {bot_specs[1]}: {e['first_minus_second']:+.0f} "
                      f"(95%: {e['low95']:+.0f} … {e['high95']:+.0f})")
    if "ratings" in result:
        if rater and rater.unrated:
            console.print(f"{rater.unrated} game(s) had one bot level in several seats: stored, "
                          "not rated (a rating needs distinct players)")
        rt = Table(title=f"bot ratings in {rate} ({result['ratings'][0]['pool']})")
        for col in ("bot", "rating", "deviation", "rated games"):
            rt.add_column(col)
        for r in result["ratings"]:
            rt.add_row(r["bot"], f"{r['rating']:.0f}", f"{r['deviation']:.0f}", str(r["games"]))
        console.print(rt)


class _BotRater:
    """``arena --rate``: each game is stored and rated in the game's pool with the bots'
    ratings moving (``update_bots``), exactly as ``progression calibrate`` does; committed once
    at the end, so a failed run leaves the database as it was."""

    def __init__(self, url: str, game_id: str, options: JSONObject) -> None:
        from sqlalchemy import create_engine
        from sqlalchemy.exc import ArgumentError
        from sqlalchemy.orm import Session

        from ..progression.models import create_all

        try:
            engine = create_engine(url)
            create_all(engine)
        except (ArgumentError, ImportError, OSError) as exc:
            _fail(f"--rate: cannot open the database {url!r}: {exc}")
        except Exception as exc:  # sqlalchemy.exc.OperationalError and kin
            _fail(f"--rate: cannot open the database {url!r}: {exc.__class__.__name__}: "
                  f"{str(exc).splitlines()[0]}")
        self.session = Session(engine)
        self.game_id, self.options = game_id, options
        self.ids: dict[str, int] = {}
        self.unrated = 0

    def _id(self, spec: str) -> int:
        from ..progression import accounts

        if spec not in self.ids:
            self.ids[spec] = accounts.bot_player(self.session, self.game_id, spec).id
        return self.ids[spec]

    def rate(self, seats: list[str], outcome: Outcome, seed: int) -> None:
        from ..progression import ratings

        self.unrated += len(set(seats)) < len(seats)
        ratings.record_result(self.session, self.game_id, [self._id(s) for s in seats], outcome,
                              options=self.options, seed=seed, context="arena",
                              update_bots=True)

    def finish(self, specs: list[str]) -> list[JSONObject]:
        from ..progression import ratings

        self.session.commit()
        n = len(specs)
        pool, _ = ratings.pool_for(self.game_id, n, ratings.teams_for(self.game_id, self.options, n))
        out = []
        for spec in dict.fromkeys(specs):
            cur = ratings.current_rating(self.session, self._id(spec), pool) or {}
            out.append({"bot": spec, "pool": pool, "rating": float(cur.get("rating", 1500.0)),
                        "deviation": float(cur.get("deviation", 500.0)),
                        "games": int(cur.get("games", 0))})
        return out


def generic_perft(state: State, depth: int) -> int:
    """Leaves at ``depth`` (a finished game is one leaf; last-ply moves counted)."""
    if state.is_over:
        return 1
    if depth == 1:
        return len(state.legal_moves())
    return sum(generic_perft(state.child(m), depth - 1) for m in state.legal_moves())


@app.command()
def perft(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    depth: Annotated[int, typer.Option(min=1, max=20)] = 5,
    option: OptionArg = None,
    seed: Annotated[int | None, typer.Option()] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Count leaves of the game tree from the start (pass = one ply, game end = one leaf)."""
    game = _load(game_id)
    try:
        options = game.validate_options(parse_option_pairs(option or []))
    except AsobibaError as exc:
        _fail(str(exc))
    t0 = time.perf_counter()
    fast = getattr(game, "perft", None)
    if fast is not None:
        leaves = fast(depth, options)
    else:
        leaves = generic_perft(game.new_game(options, seed), depth)
    seconds = time.perf_counter() - t0
    if as_json:
        print(json.dumps({"game": game.id, "depth": depth, "leaves": leaves,
                          "seconds": round(seconds, 4)}))
    else:
        rate = leaves / seconds if seconds > 0 else float("inf")
        print(f"perft({depth}) = {leaves}   [{seconds:.3f} s, {rate:,.0f} leaves/s]")


@app.command()
def solve(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    moves: Annotated[list[str] | None, typer.Argument(metavar="MOVE")] = None,
    option: OptionArg = None,
    seed: Annotated[int | None, typer.Option(help="seed for games with chance")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Solve a position exactly (games that have a solver, e.g. flipflop 3x3)."""
    game = _load(game_id)
    mod = _game_cli(game)
    if mod is None or not hasattr(mod, "solve"):
        _fail(f"{game.id} has no solver")
    try:
        options = game.validate_options(parse_option_pairs(option or []))
        if seed is not None:
            if not game.chance:
                _fail(f"{game.id} has no chance; --seed means nothing here")
            options["seed"] = seed  # the hooks of games with chance read it from here
        code = mod.solve(options, list(moves or []), as_json)
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    raise typer.Exit(code or 0)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def puzzle(ctx: typer.Context,
           game_id: Annotated[str, typer.Argument(metavar="GAME")]) -> None:
    """Puzzles of a game (tsume-algo, Patapata courses): extra arguments go to the game."""
    game = _load(game_id)
    mod = _game_cli(game)
    if mod is None or not hasattr(mod, "puzzle"):
        _fail(f"{game.id} has no puzzle mode")
    raise typer.Exit(mod.puzzle(list(ctx.args)) or 0)


@app.command("print", context_settings={"allow_extra_args": True,
                                        "ignore_unknown_options": True})
def print_(ctx: typer.Context,
           target: Annotated[str, typer.Argument(metavar="GAME|record")],
           output: Annotated[Path, typer.Option("--output", "-o", help="the PDF to write")],
           seed: Annotated[int | None, typer.Option(help="seed (dealt layouts, dice)")] = None,
           paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
           lang: Annotated[str, typer.Option(help="en or ja")] = "en") -> None:
    """Print-and-play PDFs (docs/paper.md): `print GAME [--name value …] -o F.pdf`, or
    `print record RECORD.json -o F.pdf`. Game options and print options go as --name value."""
    need("paper", "asobiba print")
    from ..paper.cli import run  # lazy: reportlab loads only when printing

    try:
        console.print(run(target, list(ctx.args), output, seed, paper, lang), highlight=False)
    except AsobibaError as exc:
        _fail(str(exc))


@app.command()
def serve(
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    port: Annotated[int, typer.Option()] = 8000,
    data_dir: Annotated[str, typer.Option(help="where the SQLite database lives")] = "data",
    db: Annotated[str | None, typer.Option(help="SQLAlchemy URL, e.g. postgresql://…")] = None,
    trust_proxy: Annotated[bool, typer.Option(
        "--trust-proxy", help="behind a reverse proxy: take client addresses from "
        "X-Forwarded-For (never without one: clients could pose as any address)")] = False,
    proxy_ips: Annotated[str | None, typer.Option(
        "--proxy-ips", help="with --trust-proxy: the proxies' addresses, comma-separated "
        "(default 127.0.0.1,::1); X-Forwarded-For from any other peer is ignored")] = None,
    allowed_hosts: Annotated[str | None, typer.Option(
        "--allowed-hosts", help="the Host names answered, comma-separated (name or "
        "name:port; default: --host and localhost/127.0.0.1/[::1] with --port); others get "
        "400 bad_host (DNS rebinding)")] = None,
    redis: Annotated[str | None, typer.Option(
        help="redis://HOST:PORT/N: run as one of many web processes (bots: asobiba worker)")
    ] = None,
) -> None:
    """Start the web app (every game in the browser)."""
    need("web", "asobiba serve")
    if redis:
        need("scale", "asobiba serve --redis")
    server = importlib.import_module("asobiba.server")
    from ..server.security import parse_hosts

    server.run(host=host, port=port, data_dir=data_dir, db_url=db, redis_url=redis,
               trust_proxy=trust_proxy,
               proxy_ips=parse_hosts(proxy_ips) if proxy_ips else None,
               allowed_hosts=parse_hosts(allowed_hosts) if allowed_hosts else None)


@app.command()
def worker(
    db: Annotated[str, typer.Option(help="the web processes' database URL")],
    redis: Annotated[str, typer.Option(help="the web processes' redis://HOST:PORT/N")],
    processes: Annotated[int, typer.Option(help="bot processes (moves at a time)")] = 2,
    time_limit: Annotated[float, typer.Option(help="seconds a bot move may run")] = 10.0,
) -> None:
    """Run bot workers for `asobiba serve --redis` (the scaled mode's bot queue)."""
    need("web", "asobiba worker")
    need("scale", "asobiba worker")
    mod = importlib.import_module("asobiba.server.worker")
    mod.run(db, redis, processes, time_limit)


@app.command()
def connect(
    token: Annotated[str, typer.Option(help="the BOT account's API token (bot:play)")],
    engine: Annotated[str, typer.Option(help="the engine's command line (docs/bot-api.md)")],
    server: Annotated[str, typer.Option(help="the server's address")] = "http://127.0.0.1:8000",
    games: Annotated[int, typer.Option(help="stop after this many games (0: never)")] = 0,
    ai: Annotated[str | None, typer.Option(help="first challenge the server's CPU to GAME")
                  ] = None,
    level: Annotated[str, typer.Option(help="the CPU's level for --ai")] = "1",
    seat: Annotated[int, typer.Option(help="the BOT's seat for --ai")] = 0,
) -> None:
    """Play a BOT account's games with any engine program (the Bot API, docs/bot-api.md)."""
    from .connect import ApiError, run

    try:
        run(server, token, engine, games=games, ai_game=ai, ai_level=level, ai_seat=seat)
    except ApiError as exc:
        _fail(str(exc))


from .play_cmd import play  # noqa: E402  (registers the `play` command)

app.command()(play)

from .records_cmd import export, import_  # noqa: E402  (records in other notations)

app.command("export")(export)
app.command("import")(import_)

from .train_cmd import train  # noqa: E402  (learned evaluations: NumPy and Ray load inside)

app.command()(train)


from .admin import app as _admin_app  # noqa: E402  (typer only; the rest loads lazily)

app.add_typer(_admin_app, name="admin", help="operator tools: suspicious pairs (fair play)")

from ..explorer.cli import app as _explorer_app  # noqa: E402  (opening explorer's tools)

app.add_typer(_explorer_app, name="explorer", help="opening explorer: engine book, index")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
