"""``asobiba train GAME``: learn an n-tuple evaluation by self-play on Ray (docs/learning.md).
Imported by the CLI at start-up, so it imports nothing heavy: NumPy, Ray and the learner load
inside the command, after the ``train`` extra has been checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..games import available, manifest
from .needs import need


def _fail(code: str, **args: object) -> NoReturn:
    """The refusal as one line: ``error: <code> <args as JSON>`` (status 2)."""
    typer.echo(f"error: {code} {json.dumps(args, ensure_ascii=False, default=str)}", err=True)
    raise typer.Exit(2)


def train(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game with a learning spec")],
    out: Annotated[Path, typer.Option(help="the weights file (.npz) written and resumed")],
    games: Annotated[int, typer.Option(help="self-play games to learn from in all")] = 1000,
    seed: Annotated[int, typer.Option(help="the run's seed (the same seed, the same tables)")
                    ] = 0,
    workers: Annotated[int, typer.Option(help="self-play tasks at a time (Ray CPUs)")] = 2,
    address: Annotated[str | None, typer.Option(
        help="a running Ray cluster's address (default: a local Ray)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="carry on from --out")] = False,
    per_task: Annotated[int, typer.Option(help="games per worker task (a round)")] = 16,
    phases: Annotated[int, typer.Option(help="tables per game phase band")] = 6,
    lr: Annotated[float, typer.Option(help="TD step: share of the error corrected")] = 0.05,
    lam: Annotated[float, typer.Option(help="TD(λ)'s λ")] = 0.5,
    epsilon: Annotated[float, typer.Option(help="share of random self-play moves")] = 0.1,
    lr_halve: Annotated[int, typer.Option(
        help="games after which the TD step is halved (harmonic decay; 0: constant)")] = 0,
    checkpoint_every: Annotated[int, typer.Option(help="rounds between checkpoints")] = 10,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
) -> None:
    """Train a learned (n-tuple) evaluation by self-play on Ray."""
    need("train", "asobiba train")
    if game_id not in available():
        _fail("unknown_game", game=game_id, games=sorted(available()))
    spec = manifest(game_id).load("learning")
    if spec is None:
        learnable = [g for g in available() if manifest(g).learning is not None]
        _fail("train_no_spec", game=game_id, games=learnable)
    from ..learn.selfplay import Settings, TrainError
    from ..learn.selfplay import train as run

    settings = Settings(game=game_id, seed=seed, workers=workers, per_task=per_task,
                        phases=phases, lr=lr, lam=lam, epsilon=epsilon,
                        lr_halve=lr_halve)
    # the command that makes these tables, every setting spelt out (--address and --resume
    # change where and in how many sittings, never the result)
    command = ["asobiba", "train", game_id, "--games", str(games), "--seed", str(seed),
               "--workers", str(workers), "--per-task", str(per_task), "--phases", str(phases),
               "--lr", str(lr), "--lam", str(lam), "--epsilon", str(epsilon)]
    if lr_halve:
        command += ["--lr-halve", str(lr_halve)]
    command += ["--out", str(out)]
    try:
        _, done = run(spec, settings, games, out, resume=resume, address=address,  # type: ignore[arg-type]
                      checkpoint_every=checkpoint_every, progress=not quiet, command=command)
    except TrainError as exc:
        _fail(exc.code, **exc.args_)
    typer.echo(json.dumps({"out": str(out), "games": done.games, "rounds": done.rounds,
                           "learner_cpu_s": round(done.learner_cpu, 1),
                           "worker_cpu_s": round(done.worker_cpu, 1),
                           "wall_s": round(done.wall, 1), "load": done.loads[-1]}))
