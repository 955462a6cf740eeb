"""Cards as small integers, so rows sort by plain ``<``.

A card's *key* is ``number * colours + colour``: sorting keys sorts by number, and on equal
numbers black (0) < white (1) < red (2) — the seed's rule 「黒と白の数が同じ場合は、黒の数の方が
小さい」 extended to the three-colour variant. With two sets a key occurs twice; the two copies
are indistinguishable, so a key is all a row needs to store.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from ...core import MalformedMoveError

COLOUR_LETTERS = "bwr"
COLOUR_NAMES = ("black", "white", "red")
NUMBERS = 12
JOKER_NUMBER = 6


def key(number: int, colour: int, colours: int) -> int:
    return number * colours + colour


def card_name(k: int, colours: int) -> str:
    """``b7`` = black 7, ``w11`` = white 11, ``r0`` = red 0."""
    return f"{COLOUR_LETTERS[k % colours]}{k // colours}"


def parse_card(text: str, colours: int, numbers: int = NUMBERS) -> int:
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in COLOUR_LETTERS[:colours] or not t[1:].isdigit():
        raise MalformedMoveError(f"{text!r} is not a card: write b7, w11 ...", move=text)
    n = int(t[1:])
    if n >= numbers:
        raise MalformedMoveError(f"{text!r}: numbers run 0..{numbers - 1}", move=text)
    return key(n, COLOUR_LETTERS.index(t[0]), colours)


def deck(colours: int = 2, sets: int = 1, numbers: int = NUMBERS) -> list[int]:
    """Every card of the game in key order (two sets: each key twice)."""
    return [k for k in range(numbers * colours) for _ in range(sets)]


def is_joker(k: int, colours: int, jokers: bool) -> bool:
    """With the joker rule, every 6 is a joker (「アルゴカードの「６」をジョーカーとして」)."""
    return jokers and k // colours == JOKER_NUMBER


def insert_positions(row: Sequence[int], card: int, colours: int, jokers: bool) -> list[int]:
    """Indices where ``card`` may be inserted into a row of keys.

    A non-joker must keep the non-jokers in order; a joker goes anywhere (seed: 「ジョーカーは
    基本ルールに関係なくどこに置いても良い」). Next to an identical card only the right-hand
    side is offered, because the two copies are indistinguishable.
    """
    n = len(row)
    if is_joker(card, colours, jokers):
        return list(range(n + 1))
    if not jokers:
        # a sorted row: only right after the last card <= ``card`` (anywhere from the first
        # card >= it up to there keeps the order, but an identical card's left side is not
        # offered, which leaves that one place)
        return [bisect_right(row, card)]
    out = []
    for p in range(n + 1):
        left_ok = all(is_joker(c, colours, jokers) or c <= card for c in row[:p])
        right_ok = all(is_joker(c, colours, jokers) or c >= card for c in row[p:])
        if left_ok and right_ok and not (p < n and row[p] == card):
            out.append(p)
    return out
