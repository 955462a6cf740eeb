"""Tic-tac-toe: a tiny test game that is NOT shipped. It lives wholly in this folder and plugs
into the CLI, the server, progression and the browser only through the registry
(``asobiba.games.register("tictactoe", "tests.tictactoe")`` or the environment variable
``ASOBIBA_GAMES=tictactoe=tests.tictactoe``): the proof of docs/architecture.md's checklist
"Adding a game" (tests/test_plugin_game.py)."""

from .game import GAME, TicTacToe, TicTacToeState

__all__ = ["GAME", "TicTacToe", "TicTacToeState"]

from asobiba.core.manifest import GameManifest  # noqa: E402

#: Everything the test game brings: no paper, no formats, no renderer (the generic one draws it)
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    cli=".cli",
)

__all__ += ["MANIFEST"]
