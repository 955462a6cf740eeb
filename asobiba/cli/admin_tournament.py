"""``asobiba admin tournament`` — scheduled tournaments for operators (docs/tournaments.md).

    asobiba admin tournament create --game reversi --kind swiss --rounds 5 --starts-in 60
    asobiba admin tournament list [--json]
    asobiba admin tournament cancel 7

An operator's tournament has no creator (no daily limit) and is marked as the operator's on
its page. The running servers' drivers start and pair it like any other.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

app = typer.Typer(help="scheduled tournaments: create, list, cancel", no_args_is_help=True)

DataDir = Annotated[str, typer.Option(help="the server's data directory (SQLite)")]
Db = Annotated[str | None, typer.Option(help="SQLAlchemy URL instead of --data-dir")]


def _store(data_dir: str, db: str | None):  # type: ignore[no-untyped-def]
    from .admin import _engine
    from .needs import need

    need("web", "asobiba admin tournament")
    from ..server.schema import upgrade

    engine = _engine(data_dir, db)
    upgrade(engine)
    return engine


@app.command("create")
def create(
    game: Annotated[str, typer.Option(help="the game's id (see asobiba --help)")],
    kind: Annotated[str, typer.Option(help="swiss, arena or tables")] = "swiss",
    name: Annotated[str, typer.Option(help="shown on the pages")] = "",
    rounds: Annotated[int, typer.Option(min=1, max=30, help="Swiss / tables")] = 5,
    minutes: Annotated[int, typer.Option(min=5, max=720, help="Arena's length")] = 30,
    starts_in: Annotated[int, typer.Option(min=0, help="minutes from now")] = 60,
    rated: Annotated[bool, typer.Option(help="rated games (needs a clock)")] = False,
    clock_initial: Annotated[int, typer.Option(help="seconds (rated: default 300)")] = 300,
    clock_increment: Annotated[int, typer.Option(help="seconds a move")] = 3,
    options: Annotated[str, typer.Option(help="the game's options as JSON")] = "{}",
    data_dir: DataDir = "data", db: Db = None,
) -> None:
    """Schedule a tournament."""
    engine = _store(data_dir, db)
    from ..games import get
    from ..server.rooms import ClientError
    from ..server.tournament_routes import create_tournament

    data = {"game": game, "kind": kind, "name": name, "rounds": rounds, "minutes": minutes,
            "starts_in": starts_in, "casual": not rated, "options": json.loads(options)}
    if rated:
        data["clock"] = {"initial": clock_initial, "increment": clock_increment}
    try:
        made = create_tournament(engine, get, data, None)
    except ClientError as exc:
        typer.echo(f"refused ({exc.code}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"tournament {made['id']} ({made['kind']}, {made['game']}) starts "
               f"{made['starts']}: /t/{made['id']}")


@app.command("list")
def list_(data_dir: DataDir = "data", db: Db = None,
          as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Every tournament, newest first."""
    engine = _store(data_dir, db)
    from ..server.tournament_routes import list_rows

    rows = list_rows(engine)
    if as_json:
        typer.echo(json.dumps({"tournaments": rows}, ensure_ascii=False))
        return
    for r in rows:
        who = "operator" if r["creator_id"] is None else f"player #{r['creator_id']}"
        typer.echo(f"{r['id']}: {r['name']} — {r['kind']} {r['game']}, {r['status']}, "
                   f"starts {r['starts']} ({who})")


@app.command("cancel")
def cancel(tournament: int, data_dir: DataDir = "data", db: Db = None) -> None:
    """Cancel a tournament that has not finished (its games already played stay stored)."""
    engine = _store(data_dir, db)
    from ..server.tournament_routes import cancel_tournament

    got = cancel_tournament(engine, tournament)
    if not got:
        typer.echo(f"no open or running tournament {tournament}", err=True)
        raise typer.Exit(2)
    typer.echo(f"tournament {tournament} cancelled")
