"""Fast start (issue 17 item 6): the light commands never import the server, the progression
layer, SQLAlchemy, pydantic or rich's console. A structural check, not a timing: the CPU time
is measured by bench/cli_startup.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("asobiba.server", "asobiba.progression", "sqlalchemy", "pydantic", "rich.console",
         "starlette")
PROBE = """
import json, sys
from asobiba.cli.main import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print("\\nMODULES" + json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.rsplit("MODULES", 1)[1]))


@pytest.mark.parametrize("args", [("games",), ("games", "--json"),
                                  ("replay", "reversi", "d3", "c5"),
                                  ("replay", "flipflop", "Rb1xb3", "--json"),
                                  ("bot", "reversi", "--level", "2"),
                                  ("perft", "reversi", "--depth", "3")],
                         ids=lambda a: " ".join(a))
def test_light_commands_import_nothing_heavy(args: tuple[str, ...]) -> None:
    loaded = _modules_after(*args)
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []


def test_replay_loads_only_the_game_it_replays_and_no_search() -> None:
    loaded = _modules_after("replay", "reversi", "d3")
    assert not [m for m in loaded if m.startswith("asobiba.search")]
    games = {m.split(".")[2] for m in loaded if m.startswith("asobiba.games.")}
    assert games == {"reversi"}


def test_lazy_groups_still_run() -> None:
    from typer.testing import CliRunner

    from asobiba.cli.main import app

    res = CliRunner().invoke(app, ["progression", "ranks", "reverstargo"])
    assert res.exit_code == 0, res.output
    assert "Zeus" in res.output or "ゼウス" in res.output
    res = CliRunner().invoke(app, ["--help"])
    assert res.exit_code == 0 and "progression" in res.output and "algo" in res.output
