"""ReverStarGo: reversi flips plus go captures on a 37-cell star, as the designer's app
plays it (seed 004, REFERENCE § ReverStarGo)."""

from ...core.manifest import GameManifest
from .game import GAME, ReverStarGo, ReverStarGoState

#: Everything this game brings to the platform (docs/architecture.md, "A game is one manifest").
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    bots=".bots:make_bot",
    learning=".learning:SPEC",
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    formats=".formats:FORMATS",
    paper=".paper:PAPER",
    cli=".cli",
    gym_name="ReverStarGo",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "ReverStarGo", "ReverStarGoState"]
