"""FlipFlop (フリップフロップ): 3×3 and 5×5 rules, the designer's notation, a perfect 3×3
solver and graded bots."""

from ...core.manifest import GameManifest
from .game import GAME, FlipFlop, FlipFlopState

#: Everything this game brings to the platform (docs/architecture.md, "A game is one manifest").
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    bots=".bots:make_bot",
    learning=".learning:SPEC",  # 5×5 only (learning.py)
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    paper=".paper:PAPER",
    cli=".cli",
    gym_name="FlipFlop",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "FlipFlop", "FlipFlopState"]
