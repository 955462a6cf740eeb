"""A command whose optional extra is missing says so in one line (no traceback)."""

from __future__ import annotations

import typer

from ..core.extras import message, missing


def need(extra: str, what: str) -> None:
    """Exit with ``error: <what> needs the optional '<extra>' extra …; install it with pip
    install 'asobiba[<extra>]'`` (status 2) unless every module of ``extra`` is installed."""
    lacking = missing(extra)
    if lacking:
        typer.echo(f"error: {message(extra, what, lacking[0])}", err=True)
        raise typer.Exit(2)
