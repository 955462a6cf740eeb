"""Algo (アルゴ). See docs/rules/algo.md for the rules and the move notation."""

from .game import GAME, AlgoGame, deal_from
from .state import AlgoState

__all__ = ["GAME", "AlgoGame", "AlgoState", "deal_from"]
