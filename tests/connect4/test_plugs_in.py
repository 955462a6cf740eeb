"""The add-a-game test (issue 26 item 1): Connect Four lives wholly in tests/connect4 and
is plugged in by the test suite (tests/conftest.py reads ``SUITE_PLUGIN = True`` in this
folder's ``__init__.py``), so every check parametrised over ``asobiba.games.available()``
runs it — conformance, records, paper, the RL bindings, the served renderer and words, and
in Chromium a game started from the lobby with a move played, axe and the language switch
(tests/core/test_every_game.py, tests/web/test_every_game.py, test_ux.py,
test_accessibility.py, test_lobby_start.py, test_print.py, tests/paper, tests/envs). Here:
that nothing outside this folder names it, that it is no shipped game, and that those
parametrised suites do collect it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from asobiba.games import GAME_IDS, available, manifest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ID = HERE.name  # the folder's name is the game id


def test_nothing_outside_this_folder_names_the_game() -> None:
    """Zero edits outside the plug-in's folder: no tracked file elsewhere (code, tests,
    configuration) holds its id — docs/ aside, which describes this folder as the example."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    naming = []
    for name in files:
        path = ROOT / name
        if not name or name.startswith(("docs/", f"tests/{ID}/")) or not path.is_file():
            continue
        try:
            if ID in path.read_text(encoding="utf-8"):
                naming.append(name)
        except UnicodeDecodeError:
            continue
    assert naming == []
    assert len(files) > 200  # the check read the tree


def test_it_is_plugged_in_by_the_suite_and_not_shipped() -> None:
    assert ID in available() and ID not in GAME_IDS
    found = manifest(ID)
    assert found.package == f"tests.{ID}"
    assert None not in (found.encoding, found.paper, found.web_file("renderer.js"),
                        found.web_file("words.json"))
    # a process started without the suite's set-up does not know it
    env = {k: v for k, v in os.environ.items() if k != "ASOBIBA_GAMES"}
    out = subprocess.run([sys.executable, "-c", "from asobiba.games import available; "
                          "print(','.join(available()))"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    assert ID not in out.stdout.split(",")


def test_the_parametrised_suites_collect_it() -> None:
    suites = ["tests/core/test_every_game.py", "tests/paper/test_games_paper.py",
              "tests/envs/test_pettingzoo.py", "tests/web/test_every_game.py",
              "tests/web/test_accessibility.py", "tests/web/test_ux.py",
              "tests/web/test_lobby_start.py"]
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only",
                          "-p", "no:cacheprovider", *suites], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    for suite in suites:
        ids = [line for line in out.stdout.splitlines() if line.startswith(suite)]
        assert any(f"[{ID}" in line or f"-{ID}" in line or f"{ID}]" in line
                   for line in ids), suite
