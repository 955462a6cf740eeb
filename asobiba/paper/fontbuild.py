"""Build the font shipped in ``asobiba/paper/fonts/`` (run once by a maintainer, not at run time).

Why a shipped font: a PDF that prints the same everywhere must embed its fonts, and the
PDF library we use (reportlab) embeds only TrueType outlines. The free CJK fonts Debian
installs (fonts-noto-cjk) carry PostScript (CFF) outlines, which reportlab cannot embed, and
reportlab's built-in Japanese CID fonts (HeiseiKakuGo-W5) are never embedded at all. So this
script takes Noto Sans CJK JP (SIL Open Font License 1.1, which allows subsetting and
redistribution under a new name), keeps the characters a printed sheet can need, converts
the cubic outlines to quadratic TrueType ones and writes ``AsobibaPaperSans.ttf``.

Kept: ASCII, Latin-1, general punctuation, arrows, maths and geometric shapes, CJK symbols,
hiragana, katakana, full-width forms, every JIS X 0208 level-1 kanji (the common ones,
which covers nearly all names), and every CJK character that appears in asobiba's own
sources and docs.

    python -m asobiba.paper.fontbuild [--source NotoSansCJK-Regular.ttc] [--out FILE]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = Path(__file__).with_name("fonts") / "AsobibaPaperSans.ttf"
FAMILY = "Asobiba Paper Sans"
RANGES = [(0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x206F), (0x2190, 0x21FF), (0x2200, 0x22FF),
          (0x2460, 0x24FF), (0x2500, 0x25FF), (0x2600, 0x26FF), (0x3000, 0x303F),
          (0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF00, 0xFFEF)]
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def level1_kanji() -> set[int]:
    """JIS X 0208 rows 16–47, read through the EUC-JP codec (no data file needed)."""
    out = set()
    for hi in range(0xB0, 0xD0):
        for lo in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes((hi, lo)).decode("euc_jp")))
            except UnicodeDecodeError:
                continue
    return out


def project_characters(root: Path) -> set[int]:
    out: set[int] = set()
    for pattern in ("asobiba/**/*.py", "asobiba/**/*.json", "asobiba/**/*.js",
                    "asobiba/**/*.html", "docs/**/*.md"):
        for path in root.glob(pattern):
            out.update(ord(ch) for ch in _CJK.findall(path.read_text(encoding="utf-8",
                                                                     errors="ignore")))
    return out


def wanted(root: Path) -> set[int]:
    chars = {cp for lo, hi in RANGES for cp in range(lo, hi + 1)}
    return chars | level1_kanji() | project_characters(root)


def build(source: str, out: Path, unicodes: set[int]) -> None:
    from fontTools import subset
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTCollection, newTable

    collection = TTCollection(source)
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == "Noto Sans CJK JP")
    opts = subset.Options()
    opts.layout_features = []
    opts.hinting = False
    opts.desubroutinize = True
    opts.notdef_outline = True
    opts.name_IDs = ["*"]
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=unicodes)
    sub.subset(font)

    # CFF (cubic) → glyf (quadratic), the way fontTools' otf2ttf example does it.
    order = font.getGlyphOrder()
    glyphset = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphset)
        glyphset[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font["maxp"] = newTable("maxp")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                 "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                 "maxComponentElements", "maxPoints", "maxContours", "maxCompositePoints",
                 "maxCompositeContours", "maxComponentDepth"):
        setattr(maxp, attr, 0)
    maxp.maxZones = 1
    maxp.numGlyphs = len(order)
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 3.0
    font.sfntVersion = "\x00\x01\x00\x00"
    for rec in font["name"].names:
        if rec.nameID in (1, 4, 16):
            rec.string = FAMILY
        elif rec.nameID == 6:
            rec.string = FAMILY.replace(" ", "")
        elif rec.nameID == 3:
            rec.string = FAMILY + " (subset of Noto Sans CJK JP)"
    font.recalcBBoxes = True
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=SOURCE)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    root = Path(__file__).resolve().parents[2]
    chars = wanted(root)
    build(args.source, args.out, chars)
    print(f"{args.out}: {len(chars)} characters, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
