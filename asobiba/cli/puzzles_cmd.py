"""``asobiba puzzles``: build and check puzzle sets (docs/puzzles.md). No extra needed."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from ..core import Record

app = typer.Typer(help="puzzles mined from games and verified by the engines",
                  no_args_is_help=True, add_completion=False)


@app.command("build")
def build_cmd(
    game: Annotated[list[str] | None, typer.Option(
        "--game", "-g",
        help="set(s) to build (default: every set; `asobiba puzzles sets` lists them)")] = None,
    count: Annotated[int, typer.Option("--count", "-n", min=1,
                                       help="verified puzzles per set")] = 500,
    seed: Annotated[int, typer.Option("--seed", "-s", help="first self-play seed")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0,
                                      help="worker processes (0: the CPU count, at most 4)")] = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="folder for <set>.jsonl (default: the package's)")] = None,
    records: Annotated[Path | None, typer.Option(
        "--records", help="a file of asobiba records (JSON), one a line, to mine first")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", help="a server's database URL: mine its stored games first (web extra)")] = None,
) -> None:
    """Mine COUNT verified puzzles per set from stored records and seeded self-play."""
    from ..core import Record
    from ..puzzles.mine import DATA, KINDS, build, jobs_default

    kinds = game or list(KINDS)
    for k in kinds:
        if k not in KINDS:
            raise typer.BadParameter(f"unknown set {k!r}; sets: {', '.join(KINDS)}",
                                     param_hint="--game")
    recs: list[Record] = []
    if records is not None:
        with records.open(encoding="utf-8") as f:
            recs = [Record.from_json(json.loads(line)) for line in f if line.strip()]
    if db is not None:
        recs += _stored_records(db)
    folder = out or DATA
    for k in kinds:
        mine = [r for r in recs if r.game == KINDS[k][0]]
        puzzles, rep = build(k, count, seed=seed, jobs=jobs or jobs_default(), records=mine,
                             out=folder / f"{k}.jsonl")
        size = (folder / f"{k}.jsonl").stat().st_size
        load = os.getloadavg()[0]
        typer.echo(f"{k}: {rep.count} puzzles from {rep.games} self-play games"
                   f"{f' and {len(mine)} records' if mine else ''}; CPU {rep.cpu_seconds:.1f} s,"
                   f" wall {rep.wall_seconds:.1f} s, load {load:.1f}; {size} bytes")
        if rep.count < count:
            raise typer.Exit(1)


@app.command("verify")
def verify_cmd(
    game: Annotated[list[str] | None, typer.Option("--game", "-g")] = None,
    sample: Annotated[int, typer.Option("--sample",
                                        help="check this many at random (0: all)")] = 0,
    folder: Annotated[Path | None, typer.Option("--dir")] = None,
) -> None:
    """Re-verify puzzle sets with the engines; exits 1 on any problem."""
    from ..puzzles.mine import DATA, KINDS, load_set, verify

    bad = 0
    for k in game or list(KINDS):
        puzzles = load_set(k, (folder or DATA) / f"{k}.jsonl")
        chosen = random.Random(time.time_ns()).sample(puzzles, min(sample, len(puzzles))) \
            if sample else puzzles
        for pz in chosen:
            for problem in verify(pz):
                bad += 1
                typer.echo(f"{k} {pz.id}: {problem}")
        typer.echo(f"{k}: {len(chosen)} checked")
    if bad:
        raise typer.Exit(1)


@app.command("sets")
def sets_cmd() -> None:
    """The puzzle sets: name, game, options, puzzles shipped."""
    from ..puzzles.mine import KINDS, load_set

    for name, (gid, options) in KINDS.items():
        typer.echo(f"{name}\t{gid}\t{json.dumps(dict(options))}\t{len(load_set(name))}")


def _stored_records(url: str) -> list[Record]:
    """The finished games stored by a server (progression's ``prog_games.record``)."""
    from sqlalchemy import create_engine, select

    from ..core import Record, RecordError
    from ..progression.models import GameRow

    out: list[Record] = []
    engine = create_engine(url)
    with engine.connect() as conn:
        for (text,) in conn.execute(select(GameRow.record).where(GameRow.record.is_not(None))):
            if text is None:
                continue
            try:
                out.append(Record.from_json(json.loads(text)))
            except (RecordError, ValueError):
                continue  # a record this build cannot read is no puzzle source
    engine.dispose()
    return out
