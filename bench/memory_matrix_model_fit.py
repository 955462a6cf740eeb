"""How well does the rollouts' model of the other players predict what a level-4 player
does? (issue 31 item 3: level 6 models each other seat as a greedy player choosing on a
muddled memory with noise; the opponents it must beat are level-4 searchers.)

``gen GAMES START FILE``: play 4-player games of four level-4 bots (game seeds START…,
bot seeds as ``memory_matrix_arena.py``'s) and write every decision with a choice — the
position (level 4 remembers everything, so it decides on the true position) and the move it
played — one JSON line each.

``fit FILE… [--samples N]``: for every model on a grid (the greedy weights, ``noise`` and
``muddle`` of :func:`asobiba.games.memory_matrix.bots.greedy_move` and
:func:`~asobiba.games.memory_matrix.bots.muddled`), draw the model's move N times per
decision (seeded) and print, per model: how often it picked level 4's move (hit rate) and
the mean log-likelihood of level 4's moves (each probability smoothed by one draw spread
over the legal moves). CPU seconds and the load average are printed with the table.

``logit FILE… [--held-out N]``: a conditional logit over each decision's legal moves on a
few features of what the move does (``FEATURES``), fitted on all games but the last N and
scored on those beside the greedy move and a uniform choice: how much of level 4's choice
one-ply features can explain at all.

``reseeded FILE… [--every K] [--limit N]``: level 4's own search with two other seeds on
the recorded decisions — how much of its choice is its rollouts' noise.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys

import numpy as np
from conditional_logit import fit_conditional_logit

from asobiba.core.rng import Rng
from asobiba.games import get
from asobiba.games.memory_matrix import rules
from asobiba.games.memory_matrix.bots import (
    LEVELS,
    MemoryBot,
    Weights,
    evaluate,
    greedy_move,
    move_values,
    muddled,
)
from asobiba.play.runner import play_game

GAME = get("memory_matrix")

MODELS: dict[str, Weights] = {
    "level 2's (rollout model)": Weights(0.2, 1.0),
    "level 4's own": Weights(0.0, 2.0, contempt=2.5, shared=2.0),
    "plain count": Weights(),
}
NOISES = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)
MUDDLES = (0.0, 0.25, 0.5, 0.75, 1.0)


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def gen(games: int, start: int, out: str, level: str) -> None:
    seed = 1000  # the arena's 4-player seed base
    with open(out, "a", encoding="utf-8") as fh:
        for i in range(start, start + games):
            bots = [MemoryBot(level, seed * 7919 + i * 31 + s) for s in range(4)]
            result = play_game(GAME, bots, {"players": 4}, seed + i)
            n = 0
            for before, after in zip(result.states, result.states[1:]):
                cfg, pos = rules.model_of(before.cfg), before.pos
                last = after.last
                if last is None or len(rules.legal_moves(cfg, pos)) < 2:
                    continue
                fh.write(json.dumps({"game": i, "occ": pos.occ, "up": pos.up,
                                     "ident": list(pos.ident), "neutral": pos.neutral,
                                     "hand": list(pos.hand), "turn": pos.turn,
                                     "move": last.move}) + "\n")
                n += 1
            print(f"game {i}: {n} decisions, CPU {cpu():.0f} s", flush=True)


def fit(files: list[str], samples: int) -> None:
    rows = [json.loads(line) for f in files for line in open(f, encoding="utf-8")]
    cfg = rules.model_of(GAME.new_game({"players": 4}, 0).cfg)  # type: ignore[attr-defined]
    positions = [(rules.Pos(r["occ"], r["up"], tuple(r["ident"]), r["neutral"],
                            tuple(r["hand"]), r["turn"]), r["move"]) for r in rows]
    start = cpu()
    print(f"{len(positions)} decisions from {len(files)} file(s); "
          f"{samples} draws of each model per decision")
    for name, w in MODELS.items():
        best = 0
        for pos, move in positions:
            seat = cfg.seat_of(pos.turn)
            worth = {m: evaluate(cfg, rules.apply(cfg, pos, m)[0], seat, w)
                     for m in rules.legal_moves(cfg, pos)}
            best += worth[move] >= max(worth.values()) - 1e-9
        print(f"the move played is one of the greedy-best on {name} weights: "
              f"{best / len(positions):.3f}")
    print("| model weights | noise | muddle | hit rate | mean log-likelihood |")
    print("|---|---|---|---|---|")
    results = []
    for name, w in MODELS.items():
        for noise in NOISES:
            for muddle in MUDDLES:
                hits, loglik = 0, 0.0
                for k, (pos, move) in enumerate(positions):
                    legal = len(rules.legal_moves(cfg, pos))
                    rng = Rng(k, "fit")
                    if noise or muddle:
                        same = 0
                        for _ in range(samples):
                            belief = muddled(pos, muddle, rng) if muddle else pos
                            same += greedy_move(cfg, belief, w, noise, rng) == move
                    else:  # no randomness: every draw is the same move
                        same = samples * (greedy_move(cfg, pos, w) == move)
                    hits += same / samples
                    loglik += math.log((same + 1 / legal) / (samples + 1))
                n = len(positions)
                results.append((loglik / n, name, noise, muddle, hits / n))
                print(f"| {name} | {noise} | {muddle} | {hits / n:.3f} | {loglik / n:.3f} |",
                      flush=True)
    best = max(results)
    print(f"best by log-likelihood: {best[1]}, noise {best[2]}, muddle {best[3]} "
          f"(hit rate {best[4]:.3f}, {best[0]:.3f})")
    print(f"CPU {cpu() - start:.0f} s; load average {os.getloadavg()[0]:.1f}")


FEATURES = ("greedy worth", "own pieces up", "best rival's pieces up", "white piece",
            "corner", "next player's best greedy gain", "next player's moves")


def features(cfg: rules.Config, pos: rules.Pos, move: int) -> list[float]:
    """What a move does, for the mover: the greedy worth (level 2's weights) of the child,
    the mover's and the best rival's pieces face up after it, whether it places a white
    piece or takes a corner, and what it leaves the next player (its best greedy gain on
    the same weights, its number of legal moves)."""
    w = MODELS["level 2's (rollout model)"]
    seat = cfg.seat_of(pos.turn)
    child = rules.apply(cfg, pos, move)[0]
    up = [0.0] * cfg.players
    for colour, ident in enumerate(child.ident):
        up[cfg.seat_of(colour)] += (ident & child.up).bit_count()
    rival = max(v for k, v in enumerate(up) if k != seat)
    corner = float(bool((1 << (move >> 1)) & cfg.geometry.unflippable))
    gain, replies = 0.0, 0.0
    if child.turn >= 0:
        nxt = cfg.seat_of(child.turn)
        replies = float(len(rules.legal_moves(cfg, child)))
        before = evaluate(cfg, child, nxt, w)
        reply = rules.apply(cfg, child, greedy_move(cfg, child, w))[0]
        gain = evaluate(cfg, reply, nxt, w) - before
    return [evaluate(cfg, child, seat, w), up[seat], rival, float(move & 1), corner,
            gain, replies]


def logit(files: list[str], held_out: int) -> None:
    """A conditional logit over each decision's legal moves (the features above, each
    taken relative to the decision's mean), fitted by Newton's method on the games but
    the last ``held_out``, scored on those."""
    rows = [json.loads(line) for f in files for line in open(f, encoding="utf-8")]
    cfg = rules.model_of(GAME.new_game({"players": 4}, 0).cfg)  # type: ignore[attr-defined]
    start = cpu()
    games = sorted({r["game"] for r in rows})
    test_games = set(games[-held_out:])
    data = {True: [], False: []}
    for r in rows:
        pos = rules.Pos(r["occ"], r["up"], tuple(r["ident"]), r["neutral"],
                        tuple(r["hand"]), r["turn"])
        moves = rules.legal_moves(cfg, pos)
        x = np.array([features(cfg, pos, m) for m in moves])
        data[r["game"] in test_games].append((x - x.mean(axis=0), moves.index(r["move"])))
    beta = fit_conditional_logit(data[False], len(FEATURES), steps=30, tol=1e-8)

    def score(part: list[tuple[np.ndarray, int]]) -> tuple[float, float, float]:
        hits = ll = greedy = 0.0
        for x, k in part:
            z = x @ beta
            p = np.exp(z - z.max())
            p /= p.sum()
            ll += math.log(p[k])
            hits += p[k]
            greedy += float(np.argmax(x[:, 0]) == k)
        return hits / len(part), ll / len(part), greedy / len(part)

    print(f"{len(data[False])} decisions fitted ({len(games) - len(test_games)} games), "
          f"{len(data[True])} held out ({len(test_games)} games)")
    for name, b in zip(FEATURES, beta):
        print(f"  {name}: {b:+.3f}")
    for label, part in (("fitted", data[False]), ("held out", data[True])):
        hits, ll, greedy = score(part)
        print(f"{label}: chance of level 4's move {hits:.3f}, mean log-likelihood {ll:.3f}, "
              f"the greedy move's hit rate {greedy:.3f}, uniform "
              f"{np.mean([1 / len(x) for x, _ in part]):.3f} / "
              f"{np.mean([-math.log(len(x)) for x, _ in part]):.3f}")
    print(f"CPU {cpu() - start:.0f} s; load average {os.getloadavg()[0]:.1f}")


def reseeded(files: list[str], every: int, limit: int) -> None:
    """Level 4's own decision procedure with two other random seeds on every ``every``-th
    of the first ``limit`` decisions: how often the two agree, and how often the first
    picks the move level 4 played (the best any model without its seed can hope for is
    near this)."""
    rows = [json.loads(line) for f in files for line in open(f, encoding="utf-8")]
    cfg = rules.model_of(GAME.new_game({"players": 4}, 0).cfg)  # type: ignore[attr-defined]
    start = cpu()
    picked = rows[:limit:every]
    agree = hits = 0
    for r in picked:
        pos = rules.Pos(r["occ"], r["up"], tuple(r["ident"]), r["neutral"],
                        tuple(r["hand"]), r["turn"])
        seat = cfg.seat_of(pos.turn)
        choices = []
        for seed in (11, 12):
            values = move_values(cfg, pos, seat, LEVELS["4"], Rng(seed, "reseeded"))
            choices.append(max(values, key=values.__getitem__))
        agree += choices[0] == choices[1]
        hits += choices[0] == r["move"]
    n = len(picked)
    print(f"{n} decisions: two reseeded level 4s agree on {agree / n:.3f}, a reseeded "
          f"level 4 picks level 4's move in {hits / n:.3f}; CPU {cpu() - start:.0f} s; "
          f"load average {os.getloadavg()[0]:.1f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("games", type=int)
    g.add_argument("start", type=int)
    g.add_argument("file")
    g.add_argument("--level", default="4")
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--samples", type=int, default=32)
    lg = sub.add_parser("logit")
    lg.add_argument("files", nargs="+")
    lg.add_argument("--held-out", type=int, default=10)
    rs = sub.add_parser("reseeded")
    rs.add_argument("files", nargs="+")
    rs.add_argument("--every", type=int, default=2)
    rs.add_argument("--limit", type=int, default=300)
    args = parser.parse_args(argv)
    if args.cmd == "gen":
        gen(args.games, args.start, args.file, args.level)
    elif args.cmd == "fit":
        fit(args.files, args.samples)
    elif args.cmd == "logit":
        logit(args.files, args.held_out)
    else:
        reseeded(args.files, args.every, args.limit)


if __name__ == "__main__":
    main(sys.argv[1:])
