"""``asobiba reverstargo ...``: the app's record text in and out of our JSON records."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core import AsobibaError, Record
from .kifu import kifu_to_record, record_to_kifu

OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="write here")]

app = typer.Typer(help="ReverStarGo tools: convert the app's record text.", no_args_is_help=True)


@app.command("export")
def export_cmd(record: Path, out: OutOption = None) -> None:
    """Write the app's record text of an asobiba JSON record (RECORD.json)."""
    try:
        text = record_to_kifu(Record.loads(record.read_text(encoding="utf-8")))
    except (OSError, AsobibaError) as exc:
        print(f"error: {exc}")
        raise typer.Exit(1) from exc
    if out is None:
        print(text, end="")
    else:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


@app.command("import")
def import_cmd(kifu: Path, out: OutOption = None) -> None:
    """Check the app's record text (KIFU.txt) move by move and write our JSON record."""
    try:
        record = kifu_to_record(kifu.read_text(encoding="utf-8"))
    except (OSError, AsobibaError) as exc:
        print(f"error: {exc}")
        raise typer.Exit(1) from exc
    if out is None:
        print(record.dumps())
    else:
        out.write_text(record.dumps(), encoding="utf-8")
        print(f"wrote {out} ({len(record.moves)} moves)")
