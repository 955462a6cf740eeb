"""``asobiba reverstargo ...``: the app's record text in and out of our JSON records."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, cast

import typer

from ...core import AsobibaError, Record
from ...core.jsontypes import JSONObject
from .kifu import FORMATS, kifu_to_record, record_to_kifu

OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="write here")]

app = typer.Typer(help="ReverStarGo tools: convert the app's record text.", no_args_is_help=True)


FormatOption = Annotated[str, typer.Option(
    "--format", "-f", help="asobiba (our record text, the default) or app (exactly what the "
    "designer's app writes)")]


@app.command("export")
def export_cmd(record: Path, out: OutOption = None, format: FormatOption = "asobiba") -> None:
    """Write the record text of an asobiba JSON record (RECORD.json)."""
    if format not in FORMATS:
        print(f"error: --format must be one of {', '.join(FORMATS)}, not {format!r}")
        raise typer.Exit(1)
    try:
        text = record_to_kifu(Record.loads(record.read_text(encoding="utf-8")), format)
    except (OSError, AsobibaError) as exc:
        print(f"error: {exc}")
        raise typer.Exit(1) from exc
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_bytes(text.encode("utf-8"))  # byte for byte: no newline translation
        print(f"wrote {out}")


@app.command("import")
def import_cmd(kifu: Path, out: OutOption = None) -> None:
    """Check a record text (KIFU.txt: the app's, either build, or asobiba's) move by move
    and write our JSON record."""
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


def solve(options: JSONObject, moves: list[str], as_json: bool) -> int:
    """``asobiba solve reverstargo MOVES...``: FINAL's search from the position after
    ``moves`` — exact when few cells remain, else its best move at the depth reached."""
    import json

    from .board import STONE_CELLS
    from .bots import root_children
    from .game import GAME, ReverStarGoState
    from .search import WIN, AlphaBeta, our_evaluation

    try:
        state = cast(ReverStarGoState, GAME.replay(moves, options)[-1])
    except AsobibaError as exc:
        print(f"error: {exc}")
        return 1
    if state.is_over:
        print(f"the game is over: {state.reason}; score {state.score()}")
        return 0
    empties = (STONE_CELLS & ~(state.black | state.white)).bit_count()
    engine = AlphaBeta(our_evaluation, endgame_empties=14)
    result = engine.search(root_children(state, auto_only=False), empties, 30, 10.0)
    assert result.move is not None
    text = state.move_text(result.move, state.turn)
    exact = abs(result.value) >= WIN / 2
    data = {"move": text, "value": result.value, "depth": result.depth,
            "nodes": result.nodes, "proven": exact}
    if as_json:
        print(json.dumps(data))
    else:
        # exact to the end of the game, but ko is only applied to the first move
        verdict = (("a win" if result.value > 0 else "a loss") + " to the end (ko aside)"
                   if exact else "heuristic value")
        print(f"{('Black', 'White')[state.turn]} to move: {text} "
              f"({verdict} {result.value:+.0f}, depth {result.depth}, {result.nodes} nodes)")
    return 0
