"""The game's CLI hooks (mounted by the lead's CLI as ``asobiba memory_matrix ...``)."""

from __future__ import annotations

from typer.testing import CliRunner

from asobiba.games.memory_matrix.cli import app


def test_cli_shapes_lists_every_named_shape() -> None:
    result = CliRunner().invoke(app, ["shapes"])
    assert result.exit_code == 0
    assert "cross: 64 cells" in result.output and "octagon: 76 cells" in result.output


def test_cli_start_shows_layout_and_refuses_bad_options() -> None:
    ok = CliRunner().invoke(app, ["start", "-o", "layout=windmill"])
    assert ok.exit_code == 0 and " 4 · · · B R · · ·" in ok.output
    bad = CliRunner().invoke(app, ["start", "-o", "players=99"])
    assert bad.exit_code == 2 and "players" in bad.output
