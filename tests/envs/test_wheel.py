"""The package stands alone (issue 30 item 3): the wheel built from this checkout, installed
with its dependencies in a fresh virtual environment (no system site-packages, no
PYTHONPATH), run from a directory outside the checkout: the library, the CLI and
``asobiba serve`` (pages, static files, the API); every file of the package that git
tracks is in the wheel (templates, fonts, tutorials, the web client, the examples); the
licence travels with it.

The rules install alone (issue 26 item 6): first the wheel with no extra — nothing of the
platform is installed, and the rules, bots, records, ``asobiba --help`` and ``asobiba play``
work; ``asobiba serve`` / ``print`` and ``import asobiba.server`` say which extra to install,
and so does ``asobiba.envs`` without ``rl``. Then ``[web,paper]`` on top, and the web app runs.
``gymnasium.make("asobiba/Reversi-v0")`` works in a program that imports only
Gymnasium, from the wheel and from an editable install (the .pth line).

Needs the package registry (pip resolves the wheel's dependencies, pinned by
constraints.txt; its cache makes a second run quicker) and takes a few minutes: slow.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 900,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout)
    if check and out.returncode != 0:
        raise AssertionError(f"{cmd} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 - loopback only
        return r.status, r.read()


GYM_CHECK = """
import sys
assert 'asobiba_gymnasium_hook' in sys.modules, 'the .pth line did not run'
assert not {'gymnasium', 'numpy', 'asobiba'} & set(sys.modules), sorted(sys.modules)
import gymnasium
assert 'asobiba' not in sys.modules  # registered, nothing of asobiba imported yet
env = gymnasium.make('asobiba/Reversi-v0', opponent='random')
obs, _ = env.reset(seed=0)
print(int(obs['action_mask'].sum()), sorted(i for i in gymnasium.registry if 'asobiba' in i))
"""


def _assert_gym_ids_without_import(py: str, work: Path, env: dict[str, str]) -> None:
    out = _run([py, "-c", GYM_CHECK], work, env)
    assert out.stdout.startswith("4 ") and out.stdout.count("asobiba/") == 6, out.stdout


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs the git checkout (to list the package's tracked files)")
def test_the_wheel_runs_alone(tmp_path: Path) -> None:
    # (ASOBIBA_GAMES too: the suite's plug-in games live in tests/, not in the wheel)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "ASOBIBA_GAMES")}
    work = tmp_path / "outside"  # not the checkout: nothing can be imported from it
    work.mkdir()

    # the wheel, built as pip builds it (an isolated build environment)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
         work, env)
    wheel = next(dist.glob("asobiba-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = _run(["git", "ls-files", "asobiba"], ROOT, env).stdout.split()
    missing = [f for f in tracked if f not in names]
    assert not missing, f"files of the package missing from the wheel: {missing}"
    assert "asobiba/server/migrations/script.py.mako" in names
    assert "asobiba/examples/flipflop_qlearning.py" in names
    licences = [n for n in names if n.endswith("/LICENSE") and ".dist-info/" in n]
    assert licences and b"MIT License" in zipfile.ZipFile(wheel).read(licences[0])

    # a fresh environment with the wheel and its dependencies, nothing else
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], work, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = str(bin_dir / "python")
    _run([py, "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"), str(wheel)],
         work, env)
    asobiba = str(bin_dir / "asobiba")

    # the default install is the rules: none of the platform's libraries came with it
    out = _run([py, "-c", (
        "import importlib.util, json\n"
        "from asobiba.core.extras import EXTRA_MODULES\n"
        "print(json.dumps(sorted(m for ms in EXTRA_MODULES.values() for m in ms\n"
        "                        if importlib.util.find_spec(m))))")], work, env)
    assert json.loads(out.stdout) == [], out.stdout

    # the library
    out = _run([py, "-c", (
        "import asobiba, json\n"
        "from asobiba.games import GAME_IDS, get\n"
        "s = get('reversi').new_game().play('f5').play('d6')\n"
        "print(json.dumps([asobiba.__file__, list(GAME_IDS), s.legal_moves().texts()]))")],
        work, env)
    where, games, legal = json.loads(out.stdout)
    assert Path(where).is_relative_to(venv)
    assert len(games) == 6 and legal == ["c3", "c4", "c5", "c6", "c7"]

    # the README's library example, as written there
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## As a library in your own project", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    out = _run([py, "-c", example], work, env)
    assert "'winners'" in out.stdout and "'reason'" in out.stdout

    # without the rl extra, the environments name it
    out = _run([py, "-c", "from asobiba.envs import pettingzoo_env; pettingzoo_env('reversi')"],
               work, env, check=False)
    assert out.returncode != 0 and "asobiba[rl]" in out.stderr, out.stderr
    out = _run([py, "-c", "import asobiba.envs.openspiel"], work, env, check=False)
    assert out.returncode != 0 and "asobiba[rl]" in out.stderr, out.stderr

    # the Gymnasium ids without an import (issue 30 item 3): the .pth line is in the wheel
    # and installed; with Gymnasium (and PettingZoo, which the environments build on) added,
    # a program that imports only gymnasium makes one
    assert {"asobiba-gymnasium.pth", "asobiba_gymnasium_hook.py"} <= names
    _run([py, "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"), "gymnasium",
          "pettingzoo"], work, env)
    _assert_gym_ids_without_import(py, work, env)

    # the same from an editable install (what `make test` uses) in another fresh environment
    editable = tmp_path / "editable"
    _run([sys.executable, "-m", "venv", str(editable)], work, env)
    epy = str(editable / ("Scripts" if os.name == "nt" else "bin") / "python")
    _run([epy, "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"), "-e",
          str(ROOT), "gymnasium", "pettingzoo"], work, env)
    _assert_gym_ids_without_import(epy, work, env)

    # the CLI: help, the light commands, a bot, a record played in the terminal and exported
    out = _run([asobiba, "--help"], work, env)
    assert "serve" in out.stdout and "play" in out.stdout
    out = _run([asobiba, "games"], work, env)
    assert "reversi" in out.stdout.lower() and "algo" in out.stdout.lower()
    out = _run([asobiba, "replay", "flipflop", "--json"], work, env)
    assert json.loads(out.stdout)
    out = _run([asobiba, "bot", "reversi", "--level", "2"], work, env)
    assert out.stdout.strip() in ("c4", "d3", "e6", "f5")
    record = tmp_path / "game.json"
    out = subprocess.run([asobiba, "play", "reversi", "--vs", "1", "--seat", "0", "--seed", "1",
                          "--save", str(record)], cwd=work, env=env, input="d3\nresign\n",
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    out = _run([asobiba, "export", str(record), "--format", "transcript"], work, env)
    assert out.stdout.strip().startswith("d3"), out.stdout

    # what needs an extra says which, in one line, and nothing else
    for args, extra in ((["serve", "--port", str(_free_port())], "web"),
                        (["print", "reversi", "-o", str(tmp_path / "x.pdf")], "paper"),
                        (["progression", "ranks", "reversi"], "web")):
        out = _run([asobiba, *args], work, env, check=False)
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr.strip().count("\n") == 0, out.stderr
        assert f"pip install 'asobiba[{extra}]'" in out.stderr, out.stderr
    out = _run([py, "-c", "import asobiba.server"], work, env, check=False)
    assert out.returncode != 0 and "asobiba[web]" in out.stderr.splitlines()[-1], out.stderr

    # the platform: the web and paper extras on top of the same wheel
    _run([py, "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"),
          f"{wheel}[web,paper]"], work, env)
    out = _run([asobiba, "print", "reversi", "-o", str(tmp_path / "board.pdf")], work, env)
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")

    # the web app, with its pages, static files and API
    port = _free_port()
    server = subprocess.Popen(
        [asobiba, "serve", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                status, body = _get(f"http://127.0.0.1:{port}/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("asobiba serve did not start:\n"
                                         + (server.stdout.read() if server.stdout else "")
                                         ) from None
                time.sleep(0.5)
        assert status == 200 and b"<html" in body.lower()
        status, body = _get(f"http://127.0.0.1:{port}/static/js/board.js")
        assert status == 200 and body
        status, body = _get(f"http://127.0.0.1:{port}/api/games")
        ids = {g["id"] for g in json.loads(body)["games"]} if b'"games"' in body else {
            g["id"] for g in json.loads(body)}
        assert {"reversi", "flipflop", "reverstargo", "memory_matrix", "algo",
                "patapata"} <= ids
        assert (tmp_path / "data").exists()  # the database went where it was told
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
