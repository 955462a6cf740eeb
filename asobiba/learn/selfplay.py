"""Training on Ray: self-play workers and one learner (issue 31 item 1).

A run is rounds. In each round the learner puts the current tables into Ray's object store
once; ``workers`` remote tasks each play ``per_task`` games with them (ε-greedy at one ply,
:func:`asobiba.learn.td.play_game`) from their own seed, derived from (seed, round, worker),
and return the games. The learner applies TD(λ) to the games in a fixed order (worker by
worker, game by game), so a run is a function of its settings alone: the same command gives
the same tables, on one machine or a cluster, interrupted and resumed or not.

After every ``checkpoint_every`` rounds (and at the end) the tables and the run's state go to
``out`` atomically; ``resume`` carries on from there, refusing a file written with other
settings. Ray is local by default (``ray.init(num_cpus=workers)``) or a running cluster by
``address`` (every node needs asobiba installed with the ``train`` extra).
"""

from __future__ import annotations

import logging
import os
import platform
import shlex
import time
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path

from ..core.extras import require

require("train", "asobiba train")  # Ray, NumPy, tqdm: one message naming the extra

import numpy as np  # noqa: E402
import ray  # noqa: E402
from tqdm import tqdm  # noqa: E402

from .ntuple import FloatArray, NTuple  # noqa: E402
from .spec import LearningSpec, Pos  # noqa: E402
from .td import play_game, td_update  # noqa: E402


@dataclass(frozen=True)
class Settings:
    """Everything that decides the tables a run makes (its file refuses a resume with others)."""

    game: str
    seed: int
    workers: int = 2
    per_task: int = 16
    phases: int = 6
    lr: float = 0.05
    lam: float = 0.5
    epsilon: float = 0.1
    lr_halve: int = 0
    """Games after which the TD step is half of ``lr`` (harmonic decay: the step for a game
    learned after ``g`` games is ``lr · h / (h + g)``); 0 keeps ``lr`` constant."""

    def step(self, games: int) -> float:
        """The TD step for a game learned after ``games`` games."""
        if self.lr_halve <= 0:
            return self.lr
        return self.lr * self.lr_halve / (self.lr_halve + games)


@dataclass
class Progress:
    rounds: int = 0
    games: int = 0
    positions: int = 0
    learner_cpu: float = 0.0
    worker_cpu: float = 0.0
    wall: float = 0.0
    loads: list[list[float]] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)


class TrainError(ValueError):
    """A run that cannot start: ``code`` and ``args`` say why (the CLI prints them)."""

    def __init__(self, code: str, **args: object) -> None:
        super().__init__(code, args)
        self.code = code
        self.args_ = args


@ray.remote
def _selfplay(spec: LearningSpec, settings: Settings, weights: FloatArray, round_: int,
              worker: int) -> tuple[list[tuple[list[Pos], float]], float]:
    """One worker's games of one round, and the CPU seconds they took."""
    cpu = time.process_time()
    model = NTuple(spec.layout(settings.phases), weights)
    rng = np.random.default_rng([settings.seed, round_, worker])
    games = [play_game(model, spec, rng, settings.epsilon) for _ in range(settings.per_task)]
    return games, time.process_time() - cpu


def _load(out: Path, spec: LearningSpec, settings: Settings) -> tuple[NTuple, Progress]:
    model = NTuple.load(out)
    run = model.meta.get("run")
    if isinstance(run, dict) and isinstance(run.get("settings"), dict):
        # a file from before a setting existed was made with its default
        run["settings"] = {**{f.name: f.default for f in fields(Settings)
                              if f.default is not MISSING}, **run["settings"]}
    if not isinstance(run, dict) or run.get("settings") != asdict(settings):
        theirs = run.get("settings") if isinstance(run, dict) else None
        raise TrainError("train_settings_differ", path=str(out), file=theirs,
                         asked=asdict(settings))
    done = run["progress"]
    assert isinstance(done, dict)
    return model, Progress(**done)


def train(spec: LearningSpec, settings: Settings, games: int, out: Path | str, *,
          resume: bool = False, address: str | None = None, checkpoint_every: int = 10,
          progress: bool = True, command: Sequence[str] = ()) -> tuple[NTuple, Progress]:
    """Train until ``games`` games have been learned from; returns the tables and the run's
    figures (written into ``out`` too). ``command`` is the argv that asked for the run: each
    file records it with ``--games`` set to the games it holds, which reproduces it exactly
    (a run is a function of its settings, and stops on a round's end)."""
    out = Path(out)
    if games < 1 or settings.workers < 1 or settings.per_task < 1:
        raise TrainError("train_bad_counts", games=games, workers=settings.workers,
                         per_task=settings.per_task)
    if settings.game != spec.game_id:
        raise TrainError("train_wrong_game", game=settings.game, spec=spec.game_id)
    if out.exists() and not resume:
        raise TrainError("train_out_exists", path=str(out))
    if resume and out.exists():
        model, done = _load(out, spec, settings)
    else:
        model, done = NTuple(spec.layout(settings.phases)), Progress()
    started_ray = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            ray.init(num_cpus=settings.workers, include_dashboard=False,
                     logging_level=logging.ERROR, log_to_driver=False)
        started_ray = True
    per_round = settings.workers * settings.per_task
    bar = tqdm(total=games, initial=min(done.games, games), unit="game", disable=not progress,
               desc=f"train {spec.game_id}")
    try:
        done.loads.append(list(os.getloadavg()))
        since_checkpoint = 0
        while done.games < games:
            wall = time.perf_counter()
            ref = ray.put(model.w)
            tasks = [_selfplay.remote(spec, settings, ref, done.rounds, w)
                     for w in range(settings.workers)]
            cpu = time.process_time()
            errors = []
            learned = done.games
            for task in tasks:  # in worker order: the run does not depend on who ends first
                played, worker_cpu = ray.get(task)
                done.worker_cpu += worker_cpu
                for positions, final in played:
                    errors.append(td_update(model, spec, positions, final,
                                            settings.step(learned), settings.lam))
                    learned += 1
                    done.positions += len(positions) - 1
            done.learner_cpu += time.process_time() - cpu
            done.errors.append(round(float(np.mean(errors)), 4))
            done.rounds += 1
            done.games += per_round
            done.wall += time.perf_counter() - wall
            bar.update(min(per_round, games - bar.n))
            bar.set_postfix(err=done.errors[-1])
            since_checkpoint += 1
            if since_checkpoint >= checkpoint_every or done.games >= games:
                done.loads.append(list(os.getloadavg()))
                _save(model, out, spec, settings, done, command)
                since_checkpoint = 0
    finally:
        bar.close()
        if started_ray:
            ray.shutdown()
    return model, done


def _save(model: NTuple, out: Path, spec: LearningSpec, settings: Settings, done: Progress,
          command: Sequence[str]) -> None:
    argv = list(command)
    if "--games" in argv[:-1]:
        argv[argv.index("--games") + 1] = str(done.games)
    model.meta.update(
        game=spec.game_id, rules_version=spec.rules_version, games_trained=done.games,
        seed=settings.seed, command=shlex.join(argv) if argv else model.meta.get("command", ""),
        trainer="asobiba.learn.selfplay (TD(lambda), n-tuple, Ray)",
        ray=ray.__version__, numpy=np.__version__, python=platform.python_version(),
        run={"settings": asdict(settings), "progress": asdict(done)})
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
