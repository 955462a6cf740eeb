"""Algo (アルゴ). See docs/rules/algo.md for the rules and the move notation."""

from ...core.manifest import GameManifest
from .game import GAME, AlgoGame, deal_from
from .state import AlgoState

#: Everything this game brings to the platform (docs/architecture.md, "A game is one manifest").
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    bots=".bots:make_bot",
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    paper=".paper:PAPER",
    cli=".cli",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "AlgoGame", "AlgoState", "deal_from"]
