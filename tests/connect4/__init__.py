"""Connect Four: the add-a-game test (issue 26 item 1). A game that is NOT shipped and lives
wholly in this folder — rules, manifest, RL encoding, browser renderer and its words,
print-and-play paper — registered by the test suite only: ``tests/conftest.py`` registers every test folder whose
``__init__.py`` says ``SUITE_PLUGIN = True`` (and puts it in ``ASOBIBA_GAMES`` for the server
processes the tests start). Every test parametrised over the registry
runs it; nothing outside this folder names it (``test_plugs_in.py`` checks that)."""

from asobiba.core.manifest import GameManifest

from .game import GAME, Connect4, Connect4State

#: Registered for the whole test suite by tests/conftest.py.
SUITE_PLUGIN = True

#: Everything Connect Four brings: rules, RL encoding, print-and-play paper, renderer + words.
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    encoding=".encoding:Codec",
    paper=".paper:PAPER",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "Connect4", "Connect4State"]
