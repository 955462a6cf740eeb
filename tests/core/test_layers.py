"""The layers of docs/architecture.md, checked against the imports (issue 26 item 7).

Every module of ``asobiba/`` is parsed (``ast``, nothing imported) and each of its imports of
another asobiba module — at the top, inside a function or under ``TYPE_CHECKING`` alike — must
go in an allowed direction::

    core ← search, play, learn ← games ← formats, envs, paper ─┐
                                  tables ← progression ← server ← cli
                                                         examples (← envs, games)

A game's contribution modules belong to the layer they contribute to, not to the rules:
``games/<id>/encoding.py`` is part of ``envs``, ``paper.py`` of ``paper``, ``formats.py`` of
``formats``, ``cli.py`` of ``cli`` (``progression.py`` only declares data and hooks on the
game's own modules, so it stays in ``games``). Besides the directions:

* no game imports another game;
* the shared layers reach a game only through the registry (``asobiba.games``), never by
  importing ``asobiba.games.<id>`` — adding a game changes nothing outside its folder.

The few deliberate exceptions are listed in :data:`EXCEPTIONS` with their reasons; an
exception that no longer happens fails too, so the list stays true.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "asobiba"

#: Layer → the layers it may import (besides itself). The picture in docs/architecture.md.
ALLOWED: dict[str, set[str]] = {
    "root": set(),  # asobiba/__init__.py: the version, nothing else
    "core": set(),
    "search": {"core"},
    "play": {"core"},
    "learn": {"core"},  # learned evaluations: n-tuple tables, TD, self-play on Ray
    "games": {"core", "search", "play", "learn"},
    "formats": {"core", "games"},
    "envs": {"core", "games"},
    "paper": {"core", "games"},
    "tables": {"core"},
    "puzzles": {"core", "search", "play", "games"},
    "explorer": {"core", "search", "play", "games", "tables"},
    "progression": {"core", "search", "play", "games", "tables", "puzzles", "explorer"},
    "analysis": {"core", "search", "play", "games", "formats"},
    "tournaments": {"core"},
    "server": {"core", "search", "play", "games", "formats", "paper", "tables", "progression",
               "analysis", "puzzles", "explorer", "tournaments"},
    "cli": {"core", "search", "play", "games", "formats", "paper", "progression", "server",
            "puzzles", "explorer", "tournaments", "learn"},
    "examples": {"core", "search", "play", "games", "envs"},
}

#: A game's modules that belong to another layer: module name → layer.
CONTRIBUTIONS = {"encoding": "envs", "paper": "paper", "formats": "formats", "cli": "cli"}

#: (importing module, imported module) → why it is allowed. Keep it short.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("asobiba.examples.flipflop_qlearning", "asobiba.games.flipflop.solver3"):
        "the example is about FlipFlop 3x3: it checks what it learned against the solved game",
    ("asobiba.explorer.needs_web", "asobiba.server.db"):
        "`asobiba explorer index` rebuilds the index in the server's database (lazily, a CLI path)",
    ("asobiba.explorer.needs_web", "asobiba.server.schema"):
        "... brought to the newest schema first, as the server does",
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    if parts[1] == "games" and len(parts) >= 4 and parts[3] in CONTRIBUTIONS:
        return CONTRIBUTIONS[parts[3]]
    return parts[1]


def game_of(module: str) -> str | None:
    """The game a module belongs to (``asobiba.games.<id>...``), or None."""
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[1] == "games" else None


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, int]]:
    """The asobiba modules ``path`` imports (relative imports resolved, and
    ``importlib.import_module("asobiba....")``), with line numbers. ``from X import name``
    counts as importing ``X.name`` when that is a module, else ``X``."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if _is_module(sub, root) else target, node.lineno))
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (ast.unparse(node.func) in ("importlib.import_module", "import_module"))):
            found.append((node.args[0].value, node.lineno))
    return [(m, line) for m, line in found if m == "asobiba" or m.startswith("asobiba.")]


def _is_module(name: str, root: Path) -> bool:
    rel = Path(*name.split("."))
    return (root / rel).with_suffix(".py").exists() or (root / rel / "__init__.py").exists()


def edges(root: Path = ROOT) -> list[tuple[str, str, int]]:
    out = []
    for path in sorted((root / "asobiba").rglob("*.py")):
        src = module_name(path, root)
        out += [(src, dst, line) for dst, line in imports(path, root)]
    return out


def violations(root: Path = ROOT) -> dict[tuple[str, str], str]:
    """(importer, imported) → the rule it breaks."""
    bad: dict[tuple[str, str], str] = {}
    for src, dst, line in edges(root):
        a, b = layer(src), layer(dst)
        ga, gb = game_of(src), game_of(dst)
        if a != b and b not in ALLOWED[a]:
            bad[(src, dst)] = f"line {line}: layer {a} may not import layer {b}"
        elif ga and gb and ga != gb:
            bad[(src, dst)] = f"line {line}: game {ga} imports game {gb}"
        elif gb and not ga:
            bad[(src, dst)] = (f"line {line}: shared code imports the game {gb} "
                               "(use the registry, asobiba.games)")
    return bad


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE.rglob("*.py"):
        assert layer(module_name(path)) in ALLOWED, path


def test_imports_go_in_the_allowed_directions() -> None:
    bad = {k: v for k, v in violations().items() if k not in EXCEPTIONS}
    assert not bad, "\n".join(f"{s} -> {d}: {why}" for (s, d), why in sorted(bad.items()))


def test_every_exception_still_happens() -> None:
    stale = set(EXCEPTIONS) - set(violations())
    assert not stale, f"exceptions that no longer happen (remove them): {sorted(stale)}"


def test_the_checker_sees_relative_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """The checker finds imports wherever they are written (inside a function, under
    TYPE_CHECKING, relative, through importlib): each mistake of a probe tree is reported."""
    files = {
        "asobiba/__init__.py": "",
        "asobiba/core/__init__.py": "",
        "asobiba/games/__init__.py": "",
        "asobiba/games/alpha/__init__.py": "from .game import GAME\n",
        "asobiba/games/alpha/game.py": (
            "from typing import TYPE_CHECKING\n"
            "from ...core import x\n"
            "if TYPE_CHECKING:\n"
            "    from ...progression import service\n"
            "def f():\n"
            "    from ..beta import rules\n"
            "    from ... import server\n"),
        "asobiba/games/alpha/encoding.py": "from ...envs import codec\n",
        "asobiba/games/beta/__init__.py": "",
        "asobiba/games/beta/rules.py": "",
        "asobiba/envs/__init__.py": "", "asobiba/envs/codec.py": "",
        "asobiba/progression/__init__.py": "", "asobiba/progression/service.py": "",
        "asobiba/server/__init__.py": "",
        "asobiba/play/__init__.py": (
            "import importlib\n"
            "def g():\n"
            "    return importlib.import_module('asobiba.games.alpha.game')\n"),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = violations(tmp_path)
    assert set(found) == {
        ("asobiba.games.alpha.game", "asobiba.progression.service"),  # TYPE_CHECKING, upwards
        ("asobiba.games.alpha.game", "asobiba.games.beta.rules"),  # another game
        ("asobiba.games.alpha.game", "asobiba.server"),  # lazy, upwards
        ("asobiba.play", "asobiba.games.alpha.game"),  # importlib, upwards and by name
    }, found
    # the game's encoding belongs to the envs layer, so it may import asobiba.envs
    assert layer("asobiba.games.alpha.encoding") == "envs"


def test_the_architecture_document_draws_these_layers() -> None:
    """docs/architecture.md's picture ("X → a, b" per line) is :data:`ALLOWED`."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("### Layers", 1)[1].split("```\n", 2)[1]
    drawn: dict[str, set[str]] = {}
    for line in block.splitlines():
        if "→" not in line:
            continue
        left, right = line.split("→")
        names = [n.split("[")[0].strip() for n in left.split(",")]
        targets = {t.strip() for t in right.split(",")} - {"nothing"}
        for name in names:
            drawn[name] = targets
    assert drawn == {k: v for k, v in ALLOWED.items() if k != "root"}


#: Modules of the shared layers that may name a shipped game in code, and why.
NAMES_A_GAME = {
    "asobiba.examples.flipflop_qlearning": "the example is about FlipFlop 3x3",
}


def names_of_games(root: Path = ROOT, ids: frozenset[str] | None = None) -> dict[str, list[int]]:
    """Modules outside ``asobiba/games/`` with a string in their code (docstrings aside) that
    is, or has as a word, a shipped game's id: module → line numbers."""
    if ids is None:
        from asobiba.games import GAME_IDS

        ids = frozenset(GAME_IDS)
    found: dict[str, list[int]] = {}
    for path in sorted((root / "asobiba").rglob("*.py")):
        module = module_name(path, root)
        if module == "asobiba.games" or module.startswith("asobiba.games."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                           ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                words = set(node.value.replace(":", " ").replace("/", " ")
                            .replace(".", " ").split())
                if ids & (words | {node.value}):
                    found.setdefault(module, []).append(node.lineno)
    return found


def test_the_shared_layers_name_no_game() -> None:
    """Progression, the server, the CLI, the environments, paper and formats find each game's
    part through the registry and the game's own modules, never by its id (docs/python-api.md:
    "the environments never name a game")."""
    found = names_of_games()
    bad = {m: lines for m, lines in found.items() if m not in NAMES_A_GAME}
    assert not bad, bad
    assert set(NAMES_A_GAME) <= set(found), "an exception that no longer happens: remove it"


def test_a_named_game_is_seen(tmp_path: Path) -> None:
    (tmp_path / "asobiba" / "envs").mkdir(parents=True)
    (tmp_path / "asobiba" / "envs" / "x.py").write_text(
        '"""reversi in a docstring is fine."""\nLIMIT = {"reversi": 130}\nKEY = "pool:reversi"\n',
        encoding="utf-8")
    found = names_of_games(tmp_path, frozenset({"reversi"}))
    assert {m: sorted(lines) for m, lines in found.items()} == {"asobiba.envs.x": [2, 3]}


# ---- no game.py <-> bots.py cycle (issue 26 item 1) ----------------------------------------


def package_graph(directory: Path, package: str) -> dict[str, set[str]]:
    """Every module of the package in ``directory`` → the modules of that same package it
    imports, wherever the import is written (top, inside a function, under TYPE_CHECKING),
    relative or absolute; ``from . import x`` counts as importing ``x`` when it is a module."""
    graph: dict[str, set[str]] = {}
    for path in sorted(directory.rglob("*.py")):
        parts = list(path.relative_to(directory).with_suffix("").parts)
        is_init = parts[-1] == "__init__"
        if is_init:
            parts.pop()
        module = ".".join([package, *parts])
        here = module if is_init else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    rel = Path(*sub.split(".")[len(package.split(".")):])
                    is_mod = sub.startswith(package + ".") and (
                        (directory / rel).with_suffix(".py").exists()
                        or (directory / rel / "__init__.py").exists())
                    found.add(sub if is_mod else target)
        graph[module] = {m for m in found if m == package or m.startswith(package + ".")}
    return graph


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """An import path from ``start`` to ``goal`` (the modules in order), or None."""
    seen = {start}
    paths = [[start]]
    while paths:
        path = paths.pop()
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == goal:
                return [*path, nxt]
            if nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    return None


def bots_cycle(directory: Path, package: str, game_module: str, bots_module: str
               ) -> list[str] | None:
    """The import path by which a game's rules module reaches its bots module, when the bots
    import the rules too (a cycle); None when there is none."""
    graph = package_graph(directory, package)
    there = reaches(graph, game_module, bots_module)
    back = reaches(graph, bots_module, game_module)
    return there if there and back else None


def test_no_game_imports_its_bots() -> None:
    """Every registered game reaches its bots only through its manifest (``bots``): its
    rules module never imports its bots module, at the top or inside a function, directly
    or through another of its modules — so there is no cycle with the bots, which import
    the rules (on the old main five games had one, and Algo's rules imported its bots)."""
    from importlib.util import find_spec

    from asobiba.core.manifest import manifest_of
    from asobiba.games import available, get

    checked = 0
    for game_id in available():
        game = get(game_id)
        manifest = manifest_of(game)
        spec = find_spec(manifest.package)
        assert spec is not None and spec.submodule_search_locations, game_id
        directory = Path(next(iter(spec.submodule_search_locations)))
        bots_module = manifest.module_of("bots") or f"{manifest.package}.bots"
        if not (directory / (bots_module.rpartition(".")[2] + ".py")).exists():
            continue  # a plug-in keeping its bots in its rules module: nothing to cycle
        graph = package_graph(directory, manifest.package)
        path = reaches(graph, type(game).__module__, bots_module)
        assert path is None, f"{game_id}: the rules import the bots: {' -> '.join(path)}"
        assert bots_cycle(directory, manifest.package, type(game).__module__,
                          bots_module) is None
        checked += 1
    assert checked >= 6, checked  # the shipped games all have a bots module


def test_the_cycle_checker_sees_lazy_and_indirect_imports(tmp_path: Path) -> None:
    """The probe: a lazy import inside a method, and one through a helper module, are both
    found; a game that reaches its bots only through the manifest is not reported."""
    pkg = tmp_path / "probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .game import GAME\n", encoding="utf-8")
    (pkg / "bots.py").write_text("from .game import GAME\n", encoding="utf-8")
    (pkg / "helper.py").write_text("def f():\n    from . import bots\n", encoding="utf-8")
    (pkg / "game.py").write_text(
        "class G:\n    def make_bot(self):\n        from .bots import make_bot\n",
        encoding="utf-8")
    assert bots_cycle(pkg, "probe", "probe.game", "probe.bots") == ["probe.game", "probe.bots"]
    (pkg / "game.py").write_text("from .helper import f\n", encoding="utf-8")
    assert bots_cycle(pkg, "probe", "probe.game", "probe.bots") == [
        "probe.game", "probe.helper", "probe.bots"]
    (pkg / "game.py").write_text("GAME = None\n", encoding="utf-8")
    assert bots_cycle(pkg, "probe", "probe.game", "probe.bots") is None
