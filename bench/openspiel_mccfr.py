"""Outcome-sampling MCCFR (OpenSpiel's Python ``outcome_sampling_mccfr``) on default Algo,
beside Leduc poker (OpenSpiel's C++ game) in the same run (issue 30 item 1).

Each game runs in its own child process so that its peak memory is its own: iterations per
CPU second, the number of information states, the longest information-state key, and the
process's peak RSS growth over the solver's run (``ru_maxrss`` after minus before). A third
row drives default Algo through the same pyspiel calls MCCFR makes at each decision node
(``information_state_string``, ``legal_actions``, ``apply_action``) with uniformly random
actions and no solver: the game's own share of an iteration, so the solver's share is the
difference.

    python bench/openspiel_mccfr.py [--algo 300] [--leduc 3000] [--game asobiba_algo]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_mccfr(name: str, iterations: int) -> dict[str, float | int | str]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    import asobiba.envs.openspiel  # noqa: F401 - registers the asobiba games

    game = pyspiel.load_game(name)
    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    solver.iteration()  # warm caches and imports outside the measurement
    before = _rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    keys = solver._infostates
    return {"game": name, "mode": "MCCFR", "iterations": iterations, "cpu_s": cpu,
            "wall_s": wall, "per_cpu_s": iterations / cpu, "infostates": len(keys),
            "key_max": max(map(len, keys)), "key_mean": sum(map(len, keys)) / len(keys),
            "rss_growth_mb": _rss_mb() - before, "rss_peak_mb": _rss_mb()}


def run_cpp(name: str, iterations: int) -> dict[str, float | int | str]:
    """OpenSpiel's C++ outcome-sampling MCCFR (``pyspiel.OutcomeSamplingMCCFRSolver``, the
    same algorithm with the same exploration 0.6), calling the game through pyspiel."""
    import pyspiel

    import asobiba.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, 0.6, 1)
    solver.run_iteration()
    before = _rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(iterations):
        solver.run_iteration()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"game": name, "mode": "C++ MCCFR", "iterations": iterations, "cpu_s": cpu,
            "wall_s": wall, "per_cpu_s": iterations / cpu,
            "rss_growth_mb": _rss_mb() - before, "rss_peak_mb": _rss_mb()}


def run_solver_only(name: str, iterations: int) -> dict[str, float | int | str]:
    """The Python solver's own cost: OpenSpiel's Python MCCFR on a stand-in game that costs
    nothing, shaped like ``name`` (its mean decision nodes a playout and legal actions a
    node, measured on random playouts first; one chance node of ``seeds`` outcomes)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    import asobiba.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    rng = np.random.RandomState(0)
    nodes = actions = 0
    for _ in range(50):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(game.max_chance_outcomes())))
                continue
            legal = state.legal_actions()
            nodes, actions = nodes + 1, actions + len(legal)
            state.apply_action(legal[rng.randint(len(legal))])
    depth, width = round(nodes / 50), round(actions / nodes)
    chance = [(i, 1.0 / game.max_chance_outcomes()) for i in range(game.max_chance_outcomes())]

    class Stub:
        def __init__(self) -> None:
            self.d, self.k = -1, ""

        def is_terminal(self) -> bool:
            return self.d >= depth

        def player_return(self, p: int) -> float:
            return 1.0 if p == 0 else -1.0

        def is_chance_node(self) -> bool:
            return self.d == -1

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return chance

        def apply_action(self, a: int) -> None:
            self.d, self.k = self.d + 1, f"{self.k},{a}"

        def current_player(self) -> int:
            return self.d % 2

        def information_state_string(self, p: int) -> str:
            return self.k

        def legal_actions(self) -> list[int]:
            return list(range(width))

    class StubGame:
        def num_players(self) -> int:
            return 2

        def get_type(self) -> pyspiel.GameType:
            return game.get_type()

        def new_initial_state(self) -> Stub:
            return Stub()

    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(StubGame())
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"game": f"stub {depth}x{width}", "mode": "Py solver", "iterations": iterations,
            "cpu_s": cpu, "wall_s": wall, "per_cpu_s": iterations / cpu,
            "rss_growth_mb": 0.0, "rss_peak_mb": _rss_mb()}


def run_playouts(name: str, playouts: int) -> dict[str, float | int | str]:
    import numpy as np
    import pyspiel

    import asobiba.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    rng = np.random.RandomState(0)
    nodes = 0
    before = _rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                continue
            state.information_state_string(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            nodes += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"game": name, "mode": "playouts", "iterations": playouts, "cpu_s": cpu,
            "wall_s": wall, "per_cpu_s": playouts / cpu, "nodes_per_playout": nodes / playouts,
            "rss_growth_mb": _rss_mb() - before, "rss_peak_mb": _rss_mb()}


def child(args: list[str]) -> dict[str, float | int | str]:
    out = subprocess.run([sys.executable, __file__, "--child", *args], check=True,
                         capture_output=True, text=True, env={**os.environ})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--algo", type=int, default=300, help="MCCFR iterations on the game")
    ap.add_argument("--leduc", type=int, default=3000, help="MCCFR iterations on Leduc poker")
    ap.add_argument("--cpp", type=int, default=2000,
                    help="C++ MCCFR iterations on the game (Leduc: 20 times as many)")
    ap.add_argument("--game", default="asobiba_algo")
    ap.add_argument("--child", nargs=3, metavar=("MODE", "GAME", "N"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        mode, name, n = a.child
        fn = {"mccfr": run_mccfr, "cpp": run_cpp, "stub": run_solver_only,
              "playouts": run_playouts}[mode]
        print(json.dumps(fn(name, int(n))))
        return
    print(f"# {platform.python_version()}, load average {os.getloadavg()}")
    rows = [child(["mccfr", "leduc_poker", str(a.leduc)]),
            child(["mccfr", a.game, str(a.algo)]),
            child(["playouts", a.game, str(a.algo)]),
            child(["stub", a.game, str(a.algo)]),
            child(["cpp", "leduc_poker", str(20 * a.cpp)]),
            child(["cpp", a.game, str(a.cpp)])]
    print(f"{'game':<16} {'mode':<10} {'iter':>6} {'CPU s':>7} {'it/CPU s':>9} "
          f"{'infostates':>10} {'key max':>8} {'key mean':>8} {'RSS +MB':>8} {'peak MB':>8}")
    for r in rows:
        print(f"{r['game']:<16} {r['mode']:<10} {r['iterations']:>6} {r['cpu_s']:>7.2f} "
              f"{r['per_cpu_s']:>9.1f} {r.get('infostates', ''):>10} {r.get('key_max', ''):>8} "
              f"{r.get('key_mean', 0):>8.0f} {r['rss_growth_mb']:>8.1f} {r['rss_peak_mb']:>8.1f}")
    leduc, algo, play, stub, cpp_leduc, cpp_algo = rows
    print(f"Leduc / {a.game} iterations per CPU s: {leduc['per_cpu_s'] / algo['per_cpu_s']:.1f}x")
    game_share = algo["per_cpu_s"] / play["per_cpu_s"]
    print(f"{a.game}: the game's calls are {game_share:.0%} of an MCCFR iteration's CPU "
          f"({play['nodes_per_playout']:.1f} decision nodes a playout); MCCFR alone would "
          f"run at most {1 / (1 / algo['per_cpu_s'] - 1 / play['per_cpu_s']):.0f} it/CPU s "
          f"on this tree")
    print(f"OpenSpiel's Python solver alone, on a free stand-in of {a.game}'s shape: "
          f"{stub['per_cpu_s']:.0f} it/CPU s (the most it could give on this game)")
    print(f"C++ MCCFR: Leduc {cpp_leduc['per_cpu_s']:.0f}, {a.game} "
          f"{cpp_algo['per_cpu_s']:.0f} it/CPU s (peak RSS {cpp_algo['rss_peak_mb']:.0f} MB); "
          f"Leduc / {a.game}: {cpp_leduc['per_cpu_s'] / cpp_algo['per_cpu_s']:.0f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
