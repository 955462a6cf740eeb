"""Colour names and letters. The first four follow the seed's four-player example
(1 青 blue, 2 赤 red, 3 黄 yellow, 4 緑 green). ``W`` is white, never a colour."""

from __future__ import annotations

PALETTE: tuple[tuple[str, str, str], ...] = (
    ("B", "blue", "青"), ("R", "red", "赤"), ("Y", "yellow", "黄"), ("G", "green", "緑"),
    ("O", "orange", "橙"), ("P", "purple", "紫"), ("K", "pink", "桃"), ("C", "cyan", "水"),
    ("N", "brown", "茶"), ("L", "lime", "黄緑"), ("M", "magenta", "赤紫"), ("T", "teal", "青緑"),
    ("V", "violet", "菫"), ("A", "amber", "琥珀"), ("I", "indigo", "藍"),
    ("U", "ultramarine", "群青"),
)
LETTERS = "".join(p[0] for p in PALETTE)
WHITE = "W"
EMPTY = "."
HOLE = "-"
NEUTRAL = "*"
