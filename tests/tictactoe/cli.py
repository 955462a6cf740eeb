"""The test game's own commands (``asobiba tictactoe ...``): proves a plug-in's ``cli.py``
becomes a command group of ``asobiba`` without an edit to the CLI."""

from __future__ import annotations

import typer

app = typer.Typer(help="Tic-tac-toe (test game) tools", no_args_is_help=True)


@app.command()
def lines() -> None:
    """Print the eight winning lines."""
    from .game import LINES, square_name

    for line in LINES:
        print(" ".join(square_name(sq) for sq in line))


@app.command()
def about() -> None:
    """One line about the game."""
    print("three in a row on 3x3")
