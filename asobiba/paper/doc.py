"""A printed document: pages of a chosen paper size, drawn in millimetres from the top left.

Thin over reportlab's canvas so the per-game modules read like drawing instructions. Every
string goes through the one embedded font (see :mod:`.fontbuild`); no PDF base-14 font is
ever referenced, so a printer or viewer substitutes nothing.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

try:  # the 'paper' extra; without it, say which extra to install
    from reportlab.lib.pagesizes import A4, LETTER
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas as rl_canvas
except ModuleNotFoundError as _exc:
    from ..core.extras import explain

    raise explain(_exc, "asobiba.paper") from _exc

from .errors import PaperError

FONT = "AsobibaPaperSans"
FONT_FILE = Path(__file__).with_name("fonts") / "AsobibaPaperSans.ttf"
PAPERS = {"a4": A4, "letter": LETTER}
LANGS = ("en", "ja")
MARGIN = 12.0


_font_lock = threading.Lock()


@cache
def _load_font() -> str:
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))
    return FONT


def _register_font() -> str:
    with _font_lock:  # the web app renders in worker threads
        return _load_font()


@dataclass(frozen=True)
class LineStyle:
    """How a printed line looks; the paper tests tell lines apart by these exact values."""

    name: str
    width: float  # mm
    colour: tuple[float, float, float]
    dash: tuple[float, ...] = ()  # mm, on/off


SOLID = LineStyle("solid", 0.3, (0.0, 0.0, 0.0))
THIN = LineStyle("thin", 0.15, (0.45, 0.45, 0.45))
GRID = LineStyle("grid", 0.25, (0.45, 0.72, 0.92))  # the seed's light-blue cell frames
#: Print-and-play conventions: dotted = cut, dashed = valley fold, dash-dot = mountain fold.
CUT = LineStyle("cut", 0.55, (0.8, 0.1, 0.1), (0.6, 1.0))
VALLEY = LineStyle("valley", 0.55, (0.1, 0.3, 0.7), (3.0, 2.0))
MOUNTAIN = LineStyle("mountain", 0.55, (0.1, 0.55, 0.2), (3.0, 1.2, 0.6, 1.2))


class Document:
    """Pages in millimetres, y growing downwards; ``t(en, ja)`` picks the document language."""

    def __init__(self, paper: str = "a4", lang: str = "en", title: str = "asobiba") -> None:
        if paper not in PAPERS:
            raise PaperError(f"option 'paper': {paper!r} is not allowed; allowed values: "
                             + ", ".join(PAPERS), option="paper")
        if lang not in LANGS:
            raise PaperError(f"option 'lang': {lang!r} is not allowed; allowed values: "
                             + ", ".join(LANGS), option="lang")
        self.paper, self.lang = paper, lang
        size = PAPERS[paper]
        self.width, self.height = float(size[0] / mm), float(size[1] / mm)
        self._buf = io.BytesIO()
        font = _register_font()
        self.c = rl_canvas.Canvas(self._buf, pagesize=size, initialFontName=font,
                                  initialFontSize=10, pageCompression=1)
        self.c.setTitle(title)
        self.c.setAuthor("asobiba")
        self.c.setCreator("asobiba paper")
        self._page_open = False
        self.pages = 0

    # ---- language ------------------------------------------------------------------------
    def t(self, en: str, ja: str) -> str:
        return ja if self.lang == "ja" else en

    # ---- pages ---------------------------------------------------------------------------
    def page(self, title: str, subtitle: str = "") -> float:
        """Start a page with a heading; returns the y (mm) below it."""
        if self._page_open:
            self.c.showPage()
        self._page_open = True
        self.pages += 1
        self.text(MARGIN, MARGIN + 6, title, 15)
        y = MARGIN + 8
        if subtitle:
            self.text(MARGIN, y + 5, subtitle, 9, colour=(0.3, 0.3, 0.3))
            y += 6
        self.text(self.width - MARGIN, self.height - MARGIN / 2, f"asobiba · {self.pages}",
                  7, anchor="end", colour=(0.5, 0.5, 0.5))
        return y + 4

    def finish(self) -> bytes:
        if not self._page_open:
            raise PaperError("nothing to print")
        self.c.showPage()
        self.c.save()
        return self._buf.getvalue()

    # ---- drawing -------------------------------------------------------------------------
    def _y(self, y: float) -> float:
        return float((self.height - y) * mm)

    def _stroke(self, style: LineStyle) -> None:
        self.c.setStrokeColorRGB(*style.colour)
        self.c.setLineWidth(style.width * mm)
        self.c.setDash([d * mm for d in style.dash] if style.dash else [])

    def line(self, x1: float, y1: float, x2: float, y2: float, style: LineStyle = SOLID) -> None:
        self._stroke(style)
        self.c.line(x1 * mm, self._y(y1), x2 * mm, self._y(y2))

    def rect(self, x: float, y: float, w: float, h: float, style: LineStyle | None = SOLID,
             fill: tuple[float, float, float] | None = None) -> None:
        if style is not None:
            self._stroke(style)
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        self.c.rect(x * mm, self._y(y + h), w * mm, h * mm, stroke=int(style is not None),
                    fill=int(fill is not None))

    def circle(self, cx: float, cy: float, r: float, style: LineStyle | None = SOLID,
               fill: tuple[float, float, float] | None = None) -> None:
        if style is not None:
            self._stroke(style)
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        self.c.circle(cx * mm, self._y(cy), r * mm, stroke=int(style is not None),
                      fill=int(fill is not None))

    def polygon(self, points: Sequence[tuple[float, float]], style: LineStyle | None = SOLID,
                fill: tuple[float, float, float] | None = None) -> None:
        path = self.c.beginPath()
        path.moveTo(points[0][0] * mm, self._y(points[0][1]))
        for x, y in points[1:]:
            path.lineTo(x * mm, self._y(y))
        path.close()
        if style is not None:
            self._stroke(style)
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        self.c.drawPath(path, stroke=int(style is not None), fill=int(fill is not None))

    def cross(self, cx: float, cy: float, r: float, width: float = 0.8,
              colour: tuple[float, float, float] = (0, 0, 0)) -> None:
        style = LineStyle("mark", width, colour)
        self.line(cx - r, cy - r, cx + r, cy + r, style)
        self.line(cx - r, cy + r, cx + r, cy - r, style)

    def text(self, x: float, y: float, s: str, size: float = 10, anchor: str = "start",
             colour: tuple[float, float, float] = (0, 0, 0)) -> None:
        """``y`` is the baseline; ``anchor`` is start, middle or end."""
        self.c.setFillColorRGB(*colour)
        self.c.setFont(FONT, size)
        if anchor == "middle":
            self.c.drawCentredString(x * mm, self._y(y), s)
        elif anchor == "end":
            self.c.drawRightString(x * mm, self._y(y), s)
        else:
            self.c.drawString(x * mm, self._y(y), s)

    def text_width(self, s: str, size: float) -> float:
        return float(pdfmetrics.stringWidth(s, FONT, size) / mm)

    def paragraph(self, x: float, y: float, width: float, s: str, size: float = 9,
                  leading: float = 1.45) -> float:
        """Wrapped text (character-wise, so it wraps Japanese too); returns the next y."""
        line_h = size * 0.3528 * leading
        for para in s.split("\n"):
            line = ""
            for ch in para:
                if self.text_width(line + ch, size) > width and line:
                    cut = line.rfind(" ")
                    if cut > 0 and ch != " ":
                        self.text(x, y + line_h, line[:cut], size)
                        line = line[cut + 1:] + ch
                    else:
                        self.text(x, y + line_h, line, size)
                        line = ch.lstrip()
                    y += line_h
                else:
                    line += ch
            self.text(x, y + line_h, line, size)
            y += line_h
        return y + line_h * 0.3

    def table(self, x: float, y: float, widths: Sequence[float], rows: Sequence[Sequence[str]],
              row_h: float = 7.0, size: float = 9, header: bool = True) -> float:
        """A ruled table (text left-aligned in each cell); returns the y below it."""
        total = sum(widths)
        for r, row in enumerate(rows):
            top = y + r * row_h
            if r == 0 and header:
                self.rect(x, top, total, row_h, None, fill=(0.92, 0.95, 0.98))
            cx = x
            for w, cell in zip(widths, row, strict=False):
                self.text(cx + 1.5, top + row_h * 0.7, cell, size)
                cx += w
        bottom = y + len(rows) * row_h
        for r in range(len(rows) + 1):
            self.line(x, y + r * row_h, x + total, y + r * row_h, THIN)
        cx = x
        for w in (0.0, *widths):
            cx += w
            self.line(cx, y, cx, bottom, THIN)
        return bottom + 3
