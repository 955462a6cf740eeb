"""``asobiba memory_matrix ...``: look at board shapes and start layouts before playing."""

from __future__ import annotations

from typing import Annotated

import typer

from ...core.errors import OptionError
from ...core.options import parse_option_pairs
from .shapes import SHAPES, geometry_for

app = typer.Typer(help="Memory Matrix helpers: board shapes and start layouts.")


@app.command()
def shapes() -> None:
    """Every named board shape with its cell count."""
    for name, mask in SHAPES.items():
        geo = geometry_for(mask)
        print(f"{name}: {geo.count} cells")
        for row in mask.split("/"):
            print("   " + " ".join("·" if ch == "#" else " " for ch in row))


@app.command()
def start(
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="name=value")] = None,
    seed: int = 0,
) -> None:
    """The start position for the given options and seed."""
    from . import GAME

    try:
        state = GAME.new_game(parse_option_pairs(option or []), seed)
    except OptionError as exc:
        print(f"error: {exc}")
        raise typer.Exit(2) from exc
    print(state.render(None))
