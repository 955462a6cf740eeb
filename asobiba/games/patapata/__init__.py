"""Patapata Kamipen (パタパタ紙ペン): see :mod:`.game` and docs/rules/patapata.md."""

from .game import GAME, Patapata, PatapataState, Sheet

__all__ = ["GAME", "Patapata", "PatapataState", "Sheet"]
