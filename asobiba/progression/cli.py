"""Terminal commands for progression, as a Typer app the main CLI can mount with one line:
``app.add_typer(asobiba.progression.cli.app, name="progression")``.

    asobiba progression ranks reverstargo
    asobiba progression daily algo --date 2026-11-29
    asobiba progression match reversi 2 random --format rm-bo3
    asobiba progression review game.json
    asobiba progression calibrate reversi random 1 2 --rounds 4
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from ..core import AsobibaError, Record
from ..games import get
from ..tables import now
from . import daily, feedback, ladder
from .calibrate import calibrate_bots
from .ladder_data import RANKS, TIER_TITLES, TIERS, has_ladder, tier_levels
from .matches import MatchFormat, play_match
from .models import create_all

app = typer.Typer(help="ladder ranks, daily challenges, matches, reviews, bot ratings",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
out = Console()
err = Console(stderr=True)
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


def _fail(message: str) -> None:
    err.print("[red]error:[/red] ", end="")
    err.print(message, markup=False, highlight=False)
    raise typer.Exit(2)


@app.command()
def ranks(game: str) -> None:
    """The 30 ranks, their conditions and unlocks for GAME's CPU levels."""
    try:
        g = get(game)
    except AsobibaError as exc:
        _fail(str(exc))
    if not has_ladder(g):
        _fail(f"{game} has no ladder")
    levels = tier_levels(g)
    table = Table("#", "rank", "ランク", "condition", "unlocks")
    for r in RANKS:
        unlock = "" if r.unlocks is None else (
            f"{TIER_TITLES[r.unlocks]} ({levels[TIERS.index(r.unlocks)]})")
        table.add_row(str(r.index + 1), r.en, r.ja, ladder.describe(r, g)["en"], unlock)
    out.print(table)


@app.command("daily")
def daily_cmd(game: str,
              day: Annotated[str | None, typer.Option("--date", help="YYYY-MM-DD")] = None,
              as_json: JsonOpt = False) -> None:
    """Today's (or DATE's) challenge of GAME, as a player sees it."""
    try:
        when = date.fromisoformat(day) if day else now().date()
        ch = daily.challenge(game, when)
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    public = ch.public_json()
    if as_json:
        out.print_json(json.dumps(public, ensure_ascii=False))
        return
    out.print(f"{ch.id}: {ch.description['en']}", highlight=False, markup=False)
    if ch.kind == "tsume" and ch.puzzle is not None:
        for r, row in enumerate(ch.puzzle["rows"]):
            cards = " ".join(f"[{c['colour']}{c['number']}]" if "number" in c
                             else f"({c['colour']}?)" for c in row)
            out.print(f"{'ABCD'[r]}: {cards}", highlight=False, markup=False)
        for q in ch.puzzle["questions"]:
            out.print(f"  {q['text']}", highlight=False, markup=False)
    else:
        out.print(get(game).render_view(public["view"]), highlight=False, markup=False)


@app.command()
def match(game: str, a: str, b: str,
          fmt: Annotated[str, typer.Option("--format", help="single, reverse, boN, rm-boN")]
          = "single",
          seed: int = 0, as_json: JsonOpt = False) -> None:
    """Play a match between bot levels A and B of GAME."""
    try:
        g = get(game)
        f = MatchFormat.parse(fmt)
        res = play_match(g, lambda s: g.make_bot(a, s), lambda s: g.make_bot(b, s), f,
                         seed=seed)
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    data = res.match.to_json()
    if as_json:
        out.print_json(json.dumps(data))
        return
    for i, pg in enumerate(res.match.games, 1):
        colour = "first seat" if pg.seat_of_a == 0 else "second seat"
        out.print(f"game {i}: {a} ({colour}) {pg.score_a:g} – {pg.score_b:g} {b}",
                  markup=False)
    wa, wb = res.match.wins()
    winner = {"A": a, "B": b}.get(res.match.winner or "", "nobody (drawn)")
    out.print(f"{f.text()}: {a} {wa} – {wb} {b}; winner: {winner}", markup=False)


@app.command()
def review(record: Path, as_json: JsonOpt = False) -> None:
    """Move-quality review of a finished game record (games with an evaluator)."""
    try:
        rec = Record.loads(record.read_text(encoding="utf-8"))
    except (OSError, AsobibaError) as exc:
        _fail(str(exc))
    if not feedback.has_feedback(rec.game, rec.options):
        _fail(f"{rec.game} has no move feedback for these options yet")
    rv = feedback.review(rec.game, [(m.seat, m.move) for m in rec.moves], rec.options,
                         rec.seed)
    if as_json:
        out.print_json(json.dumps(rv.to_json()))
        return
    for m in rv.moves:
        if m.quality in ("inaccuracy", "mistake", "blunder"):
            mark = "  ← turning point" if m.ply in rv.turning_points else ""
            out.print(f"{m.ply:3}. seat {m.seat} {m.move:8} {m.quality:10} best {m.best_move}"
                      f"{mark}", highlight=False, markup=False)
    for seat, counts in rv.counts.items():
        out.print(f"seat {seat}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


@app.command()
def calibrate(game: str, levels: list[str], rounds: int = 4, seed: int = 0,
              db: Annotated[str, typer.Option(help="SQLAlchemy URL to keep the ratings in")]
              = "sqlite://") -> None:
    """Rate bot LEVELS of GAME against each other (Glicko-2)."""
    engine = create_engine(db)
    create_all(engine)
    try:
        with Session(engine) as s:
            rows = calibrate_bots(s, game, levels, rounds=rounds, seed=seed)
            s.commit()
    except (AsobibaError, ValueError) as exc:
        _fail(str(exc))
    for r in rows:
        out.print(f"{r.level:>12}: {r.rating:7.1f} ± {r.deviation:5.1f} ({r.games} games)")
