"""Seeded randomness that is the same on every Python version and machine.

A game is reproducible from (game, options, seed, moves), so every random choice a game
makes must come from an :class:`Rng` derived from the seed. ``random.Random`` is avoided on
purpose: its derived methods (``randrange``, ``shuffle``) have changed between Python
versions, which would silently change old records.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


def derive_seed(seed: int | str, *labels: object) -> int:
    """A 64-bit seed for one independent stream, e.g. ``derive_seed(seed, "deal")``."""
    text = "\x1f".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class Rng:
    """SplitMix64: tiny, fast, and fully specified, so streams never change."""

    __slots__ = ("_state",)

    def __init__(self, seed: int | str, *labels: object) -> None:
        self._state = derive_seed(seed, *labels)

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 bits."""
        return (self.next64() >> 11) / float(1 << 53)

    def randoms(self, n: int) -> list[float]:
        """``n`` calls of :meth:`random` at once, the same numbers in the same order (the
        bots' rollouts draw one per legal move; one call instead of ``n`` is their hot
        loop's saving)."""
        state, out = self._state, []
        for _ in range(n):
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            out.append(((z ^ (z >> 31)) >> 11) / 9007199254740992.0)
        self._state = state
        return out

    def choice(self, items: Sequence[T]) -> T:
        n = len(items)
        if not n:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(n)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def getstate(self) -> int:
        return self._state

    @classmethod
    def from_state(cls, state: int) -> Rng:
        rng = cls.__new__(cls)
        rng._state = state & _MASK64
        return rng
