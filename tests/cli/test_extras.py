"""The rules install alone (issue 26 item 6): with every optional extra's modules made
unimportable, the rules, bots, records, ``asobiba --help`` and ``asobiba play`` work, and each
command or package that needs an extra says which one to install — one line, no traceback.

The extras are hidden here by ``sys.modules[name] = None`` in a fresh interpreter (an import
of it then fails as if it were not installed, and ``importlib.util.find_spec`` finds nothing);
tests/envs/test_wheel.py checks the same in a real virtual environment with the wheel and no
extras."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from asobiba.core import extras

ROOT = Path(__file__).resolve().parents[2]
ALL = sorted({m for mods in extras.EXTRA_MODULES.values() for m in mods} | {"open_spiel"})


def _run(code: str, hide: list[str] = ALL, stdin: str = "") -> subprocess.CompletedProcess[str]:
    prelude = f"import sys\nfor _m in {hide!r}:\n    sys.modules[_m] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=300)


def _cli(*args: str, hide: list[str] = ALL, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return _run("from asobiba.cli.main import app\n"
                f"app({list(args)!r}, prog_name='asobiba')\n", hide, stdin)


def test_the_rules_bots_and_records_need_no_extra(tmp_path: Path) -> None:
    out = _run(
        "import json\n"
        "from asobiba.core import Record\n"
        "from asobiba.games import GAME_IDS, get, replay_record\n"
        "from asobiba.formats import export_record\n"
        "from asobiba.play.runner import play_game\n"
        "for gid in GAME_IDS:\n"
        "    game = get(gid)\n"
        "    bots = [game.make_bot(game.bot_levels[0].level, s) for s in range(game.new_game(seed=1).num_seats)]\n"
        "    result = play_game(game, bots, seed=1)\n"
        "    again = replay_record(Record.loads(result.record.dumps()))\n"
        "    assert again[-1].outcome == result.states[-1].outcome, gid\n"
        "    if gid == 'reversi':\n"
        "        transcript = export_record(result.record, 'transcript').strip()\n"
        "        moves = ''.join(m.move for m in result.record.moves if m.move != 'pass')\n"
        "s = get('reversi').new_game().play('f5').play('d6')\n"
        "print(json.dumps([s.legal_moves().texts(), transcript == moves]))\n"
        "bad = sorted(m for m, v in sys.modules.items() if v is not None and m.split('.')[0] in " + repr(ALL) + ")\n"
        "assert not bad, bad\n")
    assert out.returncode == 0, out.stderr
    legal, same = json.loads(out.stdout.splitlines()[-1])
    assert legal == ["c3", "c4", "c5", "c6", "c7"] and same


def test_help_and_play_need_no_extra(tmp_path: Path) -> None:
    out = _cli("--help")
    assert out.returncode == 0, out.stderr
    for name in ("serve", "print", "play", "progression"):
        assert name in out.stdout
    assert "(needs the 'web' extra)" in out.stdout  # the progression group says so
    save = tmp_path / "game.json"
    out = _cli("play", "reversi", "--vs", "1", "--seat", "0", "--seed", "1", "--save",
               str(save), stdin="d3\nresign\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(save.read_text())["moves"][0] == {"seat": 0, "move": "d3"}
    out = _cli("bot", "reversi", "--level", "2")
    assert out.returncode == 0 and out.stdout.strip(), out.stderr
    out = _cli("arena", "flipflop", "--bot", "1", "--bot", "1", "--games", "2", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["bots"], out.stderr


@pytest.mark.parametrize(("args", "extra", "hide"), [
    (("serve",), "web", ALL),
    (("serve",), "web", ["sqlalchemy"]),  # one module of the extra missing is enough
    (("serve", "--redis", "redis://127.0.0.1:1/0"), "scale", ["redis"]),
    (("worker", "--db", "sqlite://", "--redis", "redis://127.0.0.1:1/0"), "web", ALL),
    (("print", "reversi", "-o", "x.pdf"), "paper", ALL),
    (("progression", "ranks", "reversi"), "web", ALL),
    (("progression", "--help"), "web", ALL),
    (("arena", "reversi", "--bot", "1", "--bot", "1", "--rate", "sqlite://"), "web", ALL),
    (("admin", "pairs"), "web", ALL),
    (("train", "reversi", "--out", "x.npz"), "train", ALL),
    (("train", "reversi", "--out", "x.npz"), "train", ["ray"]),  # NumPy alone is not enough
])
def test_a_command_without_its_extra_names_it_in_one_line(args: tuple[str, ...], extra: str,
                                                          hide: list[str]) -> None:
    out = _cli(*args, hide=hide)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("error: ") and f"pip install 'asobiba[{extra}]'" in lines[0]


@pytest.mark.parametrize(("module", "extra"), [
    ("asobiba.server", "web"), ("asobiba.server.app", "web"), ("asobiba.progression", "web"),
    ("asobiba.progression.matches", "web"), ("asobiba.tables", "web"),
    ("asobiba.paper", "paper"), ("asobiba.envs.aec", "rl"),
    ("asobiba.games.reversi.learned", "learned"), ("asobiba.learn.selfplay", "train"),
    ("asobiba.games.reverstargo.learned", "learned"),
    ("asobiba.games.flipflop.learned", "learned"),
])
def test_an_import_without_its_extra_names_it(module: str, extra: str) -> None:
    out = _run(f"import {module}\n")
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError:") and f"asobiba[{extra}]" in last, out.stderr


def test_a_real_import_error_is_not_dressed_up_as_an_extra() -> None:
    exc = ModuleNotFoundError("No module named 'asobiba.nothing'", name="asobiba.nothing")
    assert extras.explain(exc, "x") is exc
    web = extras.explain(ModuleNotFoundError("no", name="starlette.routing"), "asobiba.server")
    assert "pip install 'asobiba[web]'" in str(web) and web.name == "starlette.routing"


def test_the_extras_match_pyproject() -> None:
    """Every extra named in core/extras.py exists in pyproject.toml, and the default install
    holds nothing of any extra."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(extras.EXTRA_MODULES) <= set(project["optional-dependencies"])
    default = " ".join(project["dependencies"]).lower()
    for dist in ("starlette", "uvicorn", "sqlalchemy", "alembic", "argon2", "openskill",
                 "pydantic", "zxcvbn", "pyicu", "reportlab", "numpy", "redis", "psycopg"):
        assert dist not in default, dist


def test_the_web_app_without_paper_answers_503_naming_the_extra(monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """The web extra without the paper extra: the print routes say what is missing."""
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from asobiba.server.print_routes import print_routes

    real = extras.missing
    monkeypatch.setattr(extras, "missing",
                        lambda extra: ["reportlab"] if extra == "paper" else real(extra))
    with TestClient(Starlette(routes=print_routes())) as client:
        for res in (client.get("/api/print/reversi"),
                    client.post("/api/print/record", content=b"{}")):
            assert res.status_code == 503, res.text
            error = res.json()["error"]
            assert error["code"] == "no_paper" and "asobiba[paper]" in error["message"]
