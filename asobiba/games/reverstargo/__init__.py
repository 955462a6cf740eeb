"""ReverStarGo: reversi flips plus go captures on a 37-cell star, as the designer's app
plays it (seed 004, REFERENCE § ReverStarGo)."""

from .game import GAME, ReverStarGo, ReverStarGoState

__all__ = ["GAME", "ReverStarGo", "ReverStarGoState"]
