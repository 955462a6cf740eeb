"""``asobiba export`` / ``asobiba import``: records in and out of each game's notations
(the formats registry is :mod:`asobiba.formats`, imported only when these run)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer


def _fail(message: str) -> None:
    # plain text: importing this module (at every CLI start) must not pull in rich
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _read(path: str) -> str:
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {path}: {exc}")
        raise


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        output.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {output}: {exc}")


def export(
    record: Annotated[str | None, typer.Argument(metavar="RECORD",
                                                 help="asobiba record (JSON); - = stdin")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="format name (see --list)")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-O", help="file to write")] = None,
    list_game: Annotated[str | None, typer.Option("--list", metavar="GAME",
                                                  help="list GAME's formats")] = None,
) -> None:
    """Write a game record in another notation (Reversi: transcript, ggf; every game: text)."""
    from ..core import AsobibaError, Record
    from ..formats import export_record, formats_for

    if list_game is not None:
        try:
            for f in formats_for(list_game).values():
                print(f"{f.name:12} {f.suffix:6} {f.description}")
        except AsobibaError as exc:
            _fail(str(exc))
        return
    if record is None:
        _fail("give a RECORD file (or - for stdin), or --list GAME")
        return
    try:
        text = export_record(Record.loads(_read(record)), fmt)
    except AsobibaError as exc:
        _fail(str(exc))
        return
    _write(text, output)


def import_(
    source: Annotated[str, typer.Argument(metavar="FILE", help="record text; - = stdin")],
    fmt: Annotated[str | None, typer.Option("--format", "-f",
                                            help="format (default: recognised)")] = None,
    game: Annotated[str | None, typer.Option("--game", "-g",
                                             help="game, where the text does not say")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-O", help="file to write")] = None,
) -> None:
    """Read a record in another notation, replay it through the rules, write asobiba JSON."""
    from ..core import AsobibaError
    from ..formats import import_record

    try:
        record = import_record(_read(source), fmt, game)
    except AsobibaError as exc:
        _fail(str(exc))
        return
    _write(record.dumps(), output)
