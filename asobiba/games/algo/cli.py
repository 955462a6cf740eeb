"""Algo's command-line hooks: ``asobiba algo infer RECORD --seat N [--json]`` (exact
deduction for one seat of a recorded game) and ``asobiba puzzle algo`` (tsume-algo)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Annotated

import typer

from ...core import AsobibaError, Record
from ...core.jsontypes import JSONMapping, JSONObject
from .infer import Inconsistent, infer_view
from .state import seat_letter
from .tsume import LEVELS, explain, generate
from .views import algo_view

app = typer.Typer(help="Algo (アルゴ) tools: exact deduction and tsume-algo puzzles.",
                  no_args_is_help=True)


def inference_report(view: JSONMapping) -> JSONObject:
    """Per hidden card the seat cannot see: row, position, colour and exact odds."""
    view = algo_view(view)
    inf = infer_view(view)
    slots = []
    for owner, row in enumerate(view["rows"]):
        for pos, s in enumerate(row):
            if s["id"] in inf.counts:
                slots.append({"row": seat_letter(owner), "pos": pos + 1, "id": s["id"],
                              "colour": s["colour"],
                              "probabilities": {str(n): round(p, 6)
                                                for n, p in inf.numbers(s["id"]).items()}})
    return {"seat": view["seat"], "consistent_deals": inf.total, "cards": slots}


@app.command("infer")
def infer_cmd(
    record: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    seat: Annotated[int, typer.Option("--seat", help="the seat whose knowledge is used")],
    move: Annotated[int, typer.Option("--move", help="after this many moves")] = -1,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Exact probability of every number for every card SEAT cannot see."""
    from asobiba.games import replay_record

    try:
        rec = Record.loads(record.read_text(encoding="utf-8"))
        if rec.game != "algo":
            raise typer.BadParameter(f"{record} is a {rec.game} record, not algo")
        states = replay_record(rec)
        state = states[move] if move >= 0 else states[-1]
        if not 0 <= seat < state.num_seats:
            raise typer.BadParameter(f"--seat must be 0..{state.num_seats - 1}")
        report = inference_report(state.view(seat))
    except (AsobibaError, OSError, IndexError, Inconsistent) as exc:
        print(f"error: {exc}")
        raise typer.Exit(2) from exc
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return
    print(state.render(seat))
    print(f"consistent deals: {report['consistent_deals']}")
    for card in report["cards"]:
        odds = "  ".join(f"{n}:{p:.0%}" for n, p in sorted(
            card["probabilities"].items(), key=lambda kv: -kv[1]))
        print(f"{card['row']}{card['pos']} ({card['colour']}): {odds}")


@app.command("puzzle")
def puzzle_cmd(
    level: Annotated[int, typer.Option("--level")] = 1,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    show: Annotated[bool, typer.Option("--show", help="print the solution")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Play a tsume-algo puzzle in the terminal."""
    args = ["--level", str(level), "--seed", str(seed)]
    args += ["--show"] if show else []
    args += ["--json"] if as_json else []
    raise typer.Exit(puzzle(args))


def puzzle(args: list[str]) -> int:
    """``asobiba puzzle algo [--level 1-4] [--seed N] [--show] [--json]``."""
    parser = argparse.ArgumentParser(prog="asobiba puzzle algo",
                                     description="Tsume-algo (詰めアルゴ): deduce hidden cards.")
    parser.add_argument("--level", type=int, default=1, choices=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print the solution at once")
    parser.add_argument("--json", action="store_true", help="print the puzzle as JSON")
    try:
        opts = parser.parse_args(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    pz = generate(opts.level, opts.seed)
    if opts.json:
        data = pz.to_json()
        if opts.show:
            data["answers"] = [pz.answer(q) for q in pz.questions]
            data["explanation"] = explain(pz)
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print(f"Tsume-algo, level {opts.level}, seed {opts.seed}: the 20 cards black and white "
          "0–9 lie in these rows; [b3] is face up, (w?) face down.")
    print(pz.render())
    right = 0
    if not opts.show:
        for q in pz.questions:
            hint = "(answer like B3)" if q.kind == "where" else "(answer like w7)"
            try:
                given = input(f"{q.text()} {hint} > ")
            except EOFError:
                print()
                break
            ok = given.strip().lower() == pz.answer(q).lower()
            right += ok
            print("correct!" if ok else f"no — it is {pz.answer(q)}")
        print(f"{right}/{len(pz.questions)} correct.")
    print("Deduction:")
    for step in explain(pz):
        print("  " + step)
    return 0
