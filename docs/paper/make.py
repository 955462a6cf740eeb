"""Regenerate the page pictures of docs/paper.md: ``python docs/paper/make.py``.

Each picture is a page of a PDF that ``asobiba print`` makes, rendered by poppler's pdftoppm
(the same renderer the paper tests use) and reduced to a small palette PNG.
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

from asobiba.core import MoveEntry, Record, SeatInfo
from asobiba.games import get
from asobiba.paper import parse_request, print_game, print_record

HERE = Path(__file__).parent
DPI = 80

SHOTS = [  # (file stem, game, options, seed, lang, pages wanted)
    ("patapata-play-ja", "patapata", {"course": "1"}, None, "ja", [1]),
    ("patapata-tasks-dice", "patapata", {"course": "dice"}, 7, "en", [2]),
    ("patapata-course1", "patapata", {"course": "1"}, None, "en", [2, 3]),
    ("flipflop-3x3", "flipflop", {}, None, "en", [1, 2]),
    ("flipflop-5x5-ja", "flipflop", {"board": "5x5"}, None, "ja", [1]),
    ("reverstargo", "reverstargo", {}, None, "ja", [1, 2]),
    ("memory-matrix-cross", "memory_matrix",
     {"shape": "cross", "players": "2", "colours": "2", "layout": "windmill"}, None, "en", [1]),
    ("tsume-algo", "algo", {"level": "3", "count": "2"}, 11, "en", [1, 3]),
    ("reversi", "reversi", {}, None, "en", [1]),
]


def pages(data: bytes, wanted: list[int], stem: str) -> list[str]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "d.pdf"
        pdf.write_bytes(data)
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), f"{tmp}/p"], check=True)
        files = sorted(Path(tmp).glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
        for n in wanted:
            name = f"{stem}-{n}.png"
            img = Image.open(files[n - 1]).convert("RGB").quantize(64)
            img.save(HERE / name, optimize=True)
            out.append(name)
    return out


def sample_record() -> Record:
    game = get("reverstargo")
    state = game.new_game(None, 3)
    states, moves, rng = [state], [], random.Random(3)
    while not state.is_over:
        seat = state.acting_seats[0]
        move = rng.choice(state.legal_moves(seat).texts())
        state = state.play(move, seat)
        states.append(state)
        moves.append(MoveEntry(seat, move))
    return Record.from_states(states, moves, 3, [SeatInfo("human", "山田花子"),
                                                  SeatInfo("bot", "CPU", "2")])


def main() -> None:
    for stem, game, options, seed, lang, wanted in SHOTS:
        data = print_game(parse_request(game, options, seed, "a4", lang))
        print(stem, pages(data, wanted, stem))
    print("record", pages(print_record(sample_record(), "a4", "ja"), [1], "record-reverstargo"))


if __name__ == "__main__":
    main()
