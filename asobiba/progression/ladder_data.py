"""The 30-rank ladder as data (ReverStarGo app, shared/REFERENCE.md "Ranks"; seed §9), and how
each game's bot levels fill the ladder's seven CPU tiers.

A condition is one of:

* :class:`Wins` — ``count`` wins (reverse-match sets from Lv.5 up) against CPU tier ``tier``
  (``tier=None``: any tier — Leather's "any win");
* :class:`Exam` — a best-of-``best_of`` series at ``tier`` (reverse-match sets when ``reverse``),
  optionally passed instead by ``career`` units won in this exam's games over all attempts
  (seed: "プラチナからレジェンドまでの昇格試験は、通算20勝でも昇格できます").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Game

TIERS: tuple[str, ...] = ("lv1", "lv2", "lv3", "lv4", "lv5", "max", "final")
TIER_TITLES: dict[str, str] = {"lv1": "Lv.1", "lv2": "Lv.2", "lv3": "Lv.3", "lv4": "Lv.4",
                               "lv5": "Lv.5", "max": "MAX", "final": "FINAL"}
REVERSE_FROM_TIER = 4
"""Seed §8: "Lv.5 以上の対戦では自動的に「リバースマッチ」形式で対戦します" — tiers from Lv.5 up."""


@dataclass(frozen=True)
class Wins:
    count: int
    tier: str | None


@dataclass(frozen=True)
class Exam:
    best_of: int
    tier: str
    reverse: bool = False
    career: int | None = None


@dataclass(frozen=True)
class Rank:
    index: int
    key: str
    en: str
    ja: str
    condition: Wins | Exam | None
    unlocks: str | None = None


def _ranks() -> tuple[Rank, ...]:
    rows: list[tuple[str, str, Wins | Exam | None, str | None]] = [
        ("Paper", "ペーパー", None, "lv1"),
        ("Leather", "レザー", Wins(1, None), None),
        ("Wood", "ウッド", Wins(3, "lv1"), None),
        ("Stone", "ストーン", Exam(3, "lv1"), "lv2"),
        ("Iron", "アイアン", Wins(5, "lv2"), None),
        ("Steel", "スチール", Wins(10, "lv2"), None),
        ("Bronze", "ブロンズ", Exam(5, "lv2"), "lv3"),
        ("Silver", "シルバー", Wins(5, "lv3"), None),
        ("Gold", "ゴールド", Wins(10, "lv3"), None),
        ("Platinum", "プラチナ", Exam(7, "lv3", career=20), "lv4"),
        ("Turquoise", "ターコイズ", Wins(2, "lv4"), None),
        ("Aquamarine", "アクアマリン", Wins(5, "lv4"), None),
        ("Garnet", "ガーネット", Wins(10, "lv4"), None),
        ("Topaz", "トパーズ", Exam(7, "lv4", career=20), "lv5"),
        ("Amethyst", "アメジスト", Wins(2, "lv5"), None),
        ("Ruby", "ルビー", Wins(5, "lv5"), None),
        ("Sapphire", "サファイア", Wins(10, "lv5"), None),
        ("Emerald", "エメラルド", Wins(20, "lv5"), None),
        ("Diamond", "ダイヤモンド", Exam(5, "lv5", True, career=20), "max"),
        ("Specialist", "スペシャリスト", Wins(2, "max"), None),
        ("Expert", "エキスパート", Wins(5, "max"), None),
        ("Champion", "チャンピオン", Wins(10, "max"), None),
        ("Master", "マスター", Wins(20, "max"), None),
        ("Legend", "レジェンド", Exam(7, "max", True, career=20), None),
        ("Grandmaster", "グランドマスター", Exam(15, "max", True), "final"),
        ("Archmaster", "アークマスター", Wins(10, "final"), None),
        ("Overlord", "オーバーロード", Wins(30, "final"), None),
        ("Demigod", "デミゴッド", Wins(50, "final"), None),
        ("God", "ゴッド", Exam(11, "final", True), None),
        ("Zeus", "ゼウス", Exam(21, "final", True), None),
    ]
    return tuple(Rank(i, en.lower(), en, ja, cond, unlock)
                 for i, (en, ja, cond, unlock) in enumerate(rows))


RANKS: tuple[Rank, ...] = _ranks()
assert len(RANKS) == 30


def unlocked_tiers(rank_index: int) -> list[str]:
    """CPU tiers open at this rank (Paper opens Lv.1; each exam rank opens the next)."""
    return [r.unlocks for r in RANKS[: rank_index + 1] if r.unlocks]


# ---- per game: which bot level plays each tier, and with which options ---------------------

def spread_levels(levels: list[str]) -> tuple[str, ...]:
    """Tier t plays level ⌊t·(k−1)/6 + ½⌋, weakest first, so Lv.1 is
    the weakest and FINAL the strongest; with fewer than seven levels some repeat evenly."""
    if "random" in levels:
        levels = ["random"] + [lv for lv in levels if lv != "random"]
    k = len(levels)
    return tuple(levels[int(t * (k - 1) / 6 + 0.5)] for t in range(len(TIERS)))


def tier_levels(game: Game) -> tuple[str, ...]:
    """The bot level for each of the seven tiers of ``game``: the game's ``ladder_levels``
    hook (e.g. ReverStarGo's app levels one to one), else its levels spread evenly."""
    explicit = game.progression().ladder_levels
    if explicit is not None:
        return explicit
    return spread_levels(game.level_names())


def ladder_options(game: Game) -> dict[str, object]:
    """The two-seat form of games that also have more seats (the ladder is one against the
    CPU): the game's ``ladder_options`` hook."""
    return dict(game.progression().ladder_options)


def has_ladder(game: Game) -> bool:
    """The ladder makes sense for a game with at least two bot levels and a two-seat form."""
    if len(game.level_names()) < 2:
        return False
    try:
        return game.num_seats(game.validate_options(ladder_options(game))) == 2
    except Exception:  # noqa: BLE001 - a game whose options refuse the two-seat form
        return False


def tier_of_level(game: Game, level: str) -> int | None:
    """The lowest tier that plays ``level`` (None if no tier does)."""
    levels = tier_levels(game)
    return levels.index(level) if level in levels else None
