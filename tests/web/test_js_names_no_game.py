"""The shared browser code (asobiba/web/js/) names no game (issue 26): whatever differs per
game comes from the game's own folder (asobiba/games/<id>/web/renderer.js and words.json,
loaded by js/util.js's loadRenderer), so a plug-in game works on every page with no edit
here. A registered game id may appear neither as a string literal ("reversi", 'algo',
`patapata`) nor as an object key (``{ reversi: ".BW" }``), comments included.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from asobiba.games import available

JS = Path(__file__).resolve().parents[2] / "asobiba" / "web" / "js"

# (file, game id): why that file may name it. Empty today; an entry needs a reason a reader
# accepts (e.g. a comment that cannot be written without the id).
ALLOWED: dict[tuple[str, str], str] = {}


def named(text: str, game_id: str) -> list[int]:
    """The line numbers where ``text`` names ``game_id`` as a literal or an object key."""
    g = re.escape(game_id)
    pattern = re.compile(rf"""(["'`]){g}\1|[{{,]\s*{g}\s*:""")
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


def test_the_check_sees_a_game_named() -> None:
    # the patterns catch what issue 26 found (the editor's palettes and the knowledge panel)
    assert named('const PALETTES = { reversi: ".BW", flipflop: ".RBrb" };', "reversi") == [1]
    assert named('x;\nif (a.kind === "algo") {', "algo") == [2]
    assert named("go('patapata'); go(`patapata`)", "patapata") == [1, 1]
    assert named('t("algo.white"); algorithm: 1', "algo") == []


@pytest.mark.parametrize("game_id", available())
def test_no_shared_script_names_a_game(game_id: str) -> None:
    scripts = sorted(JS.glob("**/*.js"))
    assert scripts, JS
    found = [f"{p.relative_to(JS)}:{n}" for p in scripts for n in named(p.read_text(encoding="utf-8"), game_id)
             if (p.name, game_id) not in ALLOWED]
    assert not found, f"{game_id!r} named in asobiba/web/js/ (move it to the game's web/renderer.js): {found}"
