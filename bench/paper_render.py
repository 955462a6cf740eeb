"""How long each game's print-and-play PDF takes to make, beside what a PDF reader needs to
rasterise the same pages (poppler's pdftoppm at 100 dpi, the peer in the same run).

    python bench/paper_render.py [--repeat 3]

Prints wall and CPU time per PDF (best of --repeat), the pdftoppm wall time for the same
bytes, their ratio, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from asobiba.paper import parse_request, print_game
from asobiba.paper.doc import _register_font

CASES = [
    ("patapata", {"course": "dice"}, 7, "ja"),
    ("flipflop", {"board": "5x5"}, None, "en"),
    ("reverstargo", {}, None, "ja"),
    ("memory_matrix", {"shape": "10x10", "players": "4"}, 3, "en"),
    ("algo", {"level": "2", "count": "3"}, 1, "ja"),
    ("algo", {"level": "4", "count": "3"}, 1, "en"),
    ("reversi", {}, None, "en"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    t0, c0 = time.perf_counter(), time.process_time()
    _register_font()
    print(f"font load: wall {time.perf_counter() - t0:.3f} s, cpu {time.process_time() - c0:.3f} s")
    print(f"{'case':34} {'pages':>5} {'KiB':>5} {'wall s':>7} {'cpu s':>6} {'pdftoppm s':>10} "
          f"{'make/render':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for game, options, seed, lang in CASES:
            best_wall, best_cpu, data = 1e9, 1e9, b""
            for _ in range(args.repeat):
                w, c = time.perf_counter(), time.process_time()
                data = print_game(parse_request(game, options, seed, "a4", lang))
                best_wall = min(best_wall, time.perf_counter() - w)
                best_cpu = min(best_cpu, time.process_time() - c)
            pdf = Path(tmp) / "d.pdf"
            pdf.write_bytes(data)
            render = 1e9
            for _ in range(args.repeat):
                w = time.perf_counter()
                subprocess.run(["pdftoppm", "-r", "100", "-png", str(pdf), f"{tmp}/p"],
                               check=True)
                render = min(render, time.perf_counter() - w)
            pages = len(list(Path(tmp).glob("p-*.png")))
            for p in Path(tmp).glob("p-*.png"):
                p.unlink()
            name = f"{game} {' '.join(f'{k}={v}' for k, v in options.items())} {lang}"
            print(f"{name:34} {pages:5d} {len(data) / 1024:5.0f} {best_wall:7.3f} "
                  f"{best_cpu:6.3f} {render:10.3f} {best_wall / render:11.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
