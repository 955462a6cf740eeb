"""``asobiba explorer`` — the opening explorer's tools (docs/explorer.md).

    asobiba explorer book --game reversi --plies 8 --depth 5
    asobiba explorer index --data-dir data            # the index again from stored games

Heavy imports happen inside the commands, so ``asobiba --help`` stays fast.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="opening explorer: build the engine book, index stored games",
                  no_args_is_help=True)

@app.command("book")
def book(
    game: Annotated[str, typer.Option(help="an explorer id (the games' explorer_sets; a wrong one lists them)")],
    plies: Annotated[int | None, typer.Option(min=1, max=12, help="plies of positions")] = None,
    depth: Annotated[int | None, typer.Option(min=1, max=12, help="search plies per move")]
    = None,
    out: Annotated[str | None, typer.Option(help="file (default: the shipped book)")] = None,
) -> None:
    """Score the moves of the first plies with the game's engine into the bundled book
    (by default the plies and depth of the shipped book, the game's ``ExplorerSpec``)."""
    from .book import build, write
    from .positions import explorers

    if game not in explorers():
        raise typer.BadParameter(f"no explorer {game!r}; explorers: {', '.join(explorers())}")
    ex = explorers()[game]
    data = build(ex, plies or ex.spec.book_plies, depth or ex.spec.book_depth, typer.echo)
    path = write(data, Path(out) if out else None)
    typer.echo(f"{path}: {len(data['positions'])} positions, {path.stat().st_size} bytes, "  # type: ignore[arg-type]
               f"{data['cpu_seconds']} s CPU (load {os.getloadavg()[0]:.1f})")


@app.command("index")
def index(
    data_dir: Annotated[str, typer.Option(help="the server's data directory (SQLite)")] = "data",
    db: Annotated[str | None, typer.Option(help="SQLAlchemy URL instead of --data-dir")] = None,
    game: Annotated[str | None, typer.Option(help="one explorer (default: all)")] = None,
) -> None:
    """Make the index again from every stored finished game (one transaction)."""
    from .index import rebuild
    from .needs_web import session_for

    cpu = time.process_time()
    with session_for(data_dir, db) as s, s.begin():
        out = rebuild(s, game)
    out["cpu_seconds"] = round(time.process_time() - cpu, 2)
    typer.echo(json.dumps(out))
