"""Account names: one stored form, one owner per look-alike (docs/fair-play.md, "Names").

A name is stored in Unicode NFKC (``ＡＤＭＩＮ`` becomes ``ADMIN``, ``ｶﾅ`` becomes ``カナ``),
and owned through its :func:`skeleton`: the UTS #39 confusable skeleton of its case-folded
form, computed by ICU's spoof checker (PyICU's ``SpoofChecker.getSkeleton``, the Unicode
consortium's own implementation of UTS #39 on its ``confusables.txt``). Two names with one
skeleton look alike — ``admin``, ``ADMIN``, ``аdmin`` with a Cyrillic ``а``, ``adrnin``,
``admin`` written with a fullwidth letter — and only the first registered may exist: the
``prog_players.skeleton`` column has a unique index, so the check is one index lookup and
two racing registrations cannot both win.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Protocol


class _Checker(Protocol):
    def getSkeleton(self, checks: int, text: str) -> str: ...  # noqa: N802 - ICU's name


@functools.cache
def _checker() -> _Checker:
    import icu  # PyICU: ICU's UTS #39 implementation (see docs/fair-play.md for why)

    checker: _Checker = icu.SpoofChecker()
    return checker


def normal(name: str) -> str:
    """The form a name is stored and looked up in: NFKC."""
    return unicodedata.normalize("NFKC", name)


def skeleton(name: str) -> str:
    """The look-alike key of a name: UTS #39 ``skeleton(casefold(NFKC(name)))``. Names with
    equal skeletons are confusable; the database keeps one per skeleton."""
    folded = unicodedata.normalize("NFKC", normal(name).casefold())
    return str(_checker().getSkeleton(0, folded))


__all__ = ["normal", "skeleton"]
