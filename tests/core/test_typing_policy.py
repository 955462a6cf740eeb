"""Issue 17 item 4: `Any` only at JSON boundaries, enforced by mypy (`make test` runs it).

These tests keep the enforcement from being switched off quietly: the flags stay on for the
whole package, the boundary list names real modules and gives each a reason, and a module
outside it that writes `Any` is refused by mypy with the project's own configuration.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"


def _mypy_config() -> dict[str, Any]:
    with PYPROJECT.open("rb") as fh:
        config: dict[str, Any] = tomllib.load(fh)["tool"]["mypy"]
    return config


def _exempt_modules() -> list[str]:
    return [m for o in _mypy_config()["overrides"] if o.get("disallow_any_explicit") is False
            for m in o["module"]]


def test_no_explicit_any_and_no_bare_generics_across_the_package() -> None:
    config = _mypy_config()
    assert config["disallow_any_explicit"] is True
    assert config["disallow_any_generics"] is True
    for override in config["overrides"]:
        assert override.get("disallow_any_generics", True) is True, override["module"]


def test_every_boundary_module_exists_and_says_why() -> None:
    text = PYPROJECT.read_text(encoding="utf-8")
    block = text.split("# The JSON boundaries", 1)[1].split("[[tool.mypy.overrides]]", 2)[1]
    entries = re.findall(r'^\s*"([\w.*]+)",\s*(#.*)?$', block.split("]", 1)[0], re.M)
    assert entries, "the boundary list is empty or unreadable"
    for module, reason in entries:
        assert reason and len(reason) > 15, f"{module} gives no reason for allowing Any"
        assert importlib.util.find_spec(module) is not None, f"{module} does not exist"
    # short: the JSON types, the hooks and tutorials that hand back JSON, and the three
    # message-model modules (HTTP API, Bot API, WebSocket protocol: pydantic's models take
    # Any by construction)
    assert len(entries) <= 7, "the boundary list is meant to stay short"


def test_the_core_protocol_is_not_exempt() -> None:
    exempt = _exempt_modules()
    for module in ("asobiba.core.protocol", "asobiba.core.record", "asobiba.games.reversi.game",
                   "asobiba.play.runner", "asobiba.envs.session", "asobiba.cli.main",
                   # the server is typed through (only its HTTP schema is a JSON boundary)
                   "asobiba.server.app", "asobiba.server.rooms", "asobiba.server.db",
                   "asobiba.server.lobby", "asobiba.server.progression_routes"):
        parent = module.rsplit(".", 1)[0] + ".*"
        assert module not in exempt and parent not in exempt, module


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is a dev extra")
def test_mypy_refuses_an_explicit_any_and_the_test_game_follows_the_policy() -> None:
    # a module placed in the package (so the package's per-module flags apply to it), and the
    # test game that "Adding a game" holds up as the pattern (tests/tictactoe): one mypy run
    # (a name no other run shares: two test sessions on one checkout must not collide)
    probe = ROOT / "asobiba" / "play" / f"_any_probe_{os.getpid()}_{uuid.uuid4().hex[:8]}.py"
    probe.write_text("from typing import Any\n\n\ndef f(x: Any, y: list) -> None:\n"
                     "    pass\n", encoding="utf-8")
    game = [f"tests/tictactoe/{name}.py" for name in ("game", "progression", "encoding", "cli")]
    try:
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent",
             str(probe.relative_to(ROOT)), *game],
            cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    finally:
        probe.unlink()
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert errors and all(line.startswith(f"asobiba/play/{probe.name}:") for line in errors), \
        result.stdout
    assert "[explicit-any]" in result.stdout
    assert "[type-arg]" in result.stdout
