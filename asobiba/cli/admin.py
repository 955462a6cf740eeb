"""``asobiba admin`` — an operator's view of fair play (docs/fair-play.md).

    asobiba admin pairs --data-dir data --days 7
    asobiba admin pairs --db postgresql+psycopg://user@host/asobiba --json

Heavy imports (SQLAlchemy, the progression service) happen inside the commands, so
``asobiba --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="operator tools: suspicious pairs of accounts (fair play)",
                  no_args_is_help=True)


def _engine(data_dir: str, db: str | None):  # type: ignore[no-untyped-def]
    from sqlalchemy import create_engine

    if db is None:
        path = Path(data_dir) / "asobiba.db"
        if not path.exists():
            raise typer.BadParameter(f"no database at {path} (give --data-dir or --db)")
        db = f"sqlite:///{path}"
    return create_engine(db)


@app.command("pairs")
def pairs(
    data_dir: Annotated[str, typer.Option(help="the server's data directory (SQLite)")] = "data",
    db: Annotated[str | None, typer.Option(help="SQLAlchemy URL instead of --data-dir")] = None,
    days: Annotated[int, typer.Option(min=1, max=365, help="look back this many days")] = 7,
    min_games: Annotated[int, typer.Option(min=2, help="games for a one-sided pair")] = 4,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Pairs of accounts that keep playing each other with one side always winning, or that
    hit the daily limit of rated games between two accounts: candidates for rating farming."""
    from .needs import need

    need("web", "asobiba admin pairs")
    from ..progression import Progression

    found = Progression(_engine(data_dir, db)).suspicious_pairs(days, min_games)
    if as_json:
        typer.echo(json.dumps({"days": days, "pairs": found}, ensure_ascii=False))
        return
    if not found:
        typer.echo(f"no suspicious pairs in the last {days} day(s)")
        return
    for p in found:
        a, b = p["names"]
        typer.echo(f"{a} (#{p['players'][0]}) vs {b} (#{p['players'][1]}): {p['games']} games, "
                   f"{p['rated']} rated, wins {p['wins'][0]}-{p['wins'][1]}; "
                   + "; ".join(p["reasons"]))


from .admin_tournament import app as _tournament_app  # noqa: E402

app.add_typer(_tournament_app, name="tournament")

from .admin_chat import register as _register_chat  # noqa: E402

_register_chat(app)  # reports, resolve, mute, unmute, ban, unban, audit
