"""FlipFlop (フリップフロップ): 3×3 and 5×5 rules, the designer's notation, a perfect 3×3
solver and graded bots."""

from .game import GAME, FlipFlop, FlipFlopState

__all__ = ["GAME", "FlipFlop", "FlipFlopState"]
