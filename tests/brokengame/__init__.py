"""A deliberately broken test game (tests/core/test_registry.py): its package imports a
module that does not exist, as a game with a typo or a missing dependency would."""

from .no_such_module import GAME  # noqa: F401
