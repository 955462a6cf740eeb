"""Memory Matrix (メモマト, 「記憶の碁」; Hiro OTA, 2009): reversi for any number of
colours where a flipped piece shows white and only memory keeps the colour beneath."""

from .game import MemoryMatrixGame
from .state import MemoryMatrixState

GAME = MemoryMatrixGame()
MemoryMatrixState.game = GAME

__all__ = ["GAME", "MemoryMatrixGame", "MemoryMatrixState"]
