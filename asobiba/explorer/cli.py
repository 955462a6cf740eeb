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

DEFAULTS = {"reversi": (6, 5), "flipflop-3x3": (8, 8), "flipflop-5x5": (3, 4),
            "reverstargo": (5, 3)}
"""Per explorer, the (plies, depth) of the shipped book (docs/explorer.md gives the sizes)."""


@app.command("book")
def book(
    game: Annotated[str, typer.Option(help="explorer: " + ", ".join(DEFAULTS))],
    plies: Annotated[int | None, typer.Option(min=1, max=12, help="plies of positions")] = None,
    depth: Annotated[int | None, typer.Option(min=1, max=12, help="search plies per move")]
    = None,
    out: Annotated[str | None, typer.Option(help="file (default: the shipped book)")] = None,
) -> None:
    """Score the moves of the first plies with the game's engine into the bundled book."""
    from .book import build, write
    from .positions import explorers

    if game not in explorers():
        raise typer.BadParameter(f"no explorer {game!r}; explorers: {', '.join(explorers())}")
    p, d = DEFAULTS[game]
    data = build(explorers()[game], plies or p, depth or d, typer.echo)
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
