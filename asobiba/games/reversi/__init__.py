"""Classic Reversi/Othello, the reference game."""

from .game import GAME, Reversi, ReversiState

__all__ = ["GAME", "Reversi", "ReversiState"]
