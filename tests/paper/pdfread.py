"""Reading a printed PDF back as paper: its text with positions (pypdf), its stroked lines
and rectangles with their colour and dash (the content stream), and its pages as pixels
(Debian's poppler ``pdftoppm``). Coordinates are millimetres from the page's top left."""

from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

PT = 25.4 / 72


@dataclass(frozen=True)
class Text:
    text: str
    x: float
    y: float  # baseline


@dataclass(frozen=True)
class Stroke:
    colour: tuple[float, ...]
    dash: tuple[float, ...]
    kind: str  # "line" or "rect"
    x1: float
    y1: float
    x2: float
    y2: float


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def page_size_mm(data: bytes, index: int = 0) -> tuple[float, float]:
    box = reader(data).pages[index].mediabox
    return float(box.width) * PT, float(box.height) * PT


def texts(data: bytes, index: int) -> list[Text]:
    page = reader(data).pages[index]
    height = float(page.mediabox.height)
    out: list[Text] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor signature
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            out.append(Text(text.strip(), x * PT, (height - y) * PT))

    page.extract_text(visitor_text=visit)
    return out


def strokes(data: bytes, index: int) -> list[Stroke]:
    r = reader(data)
    page = r.pages[index]
    height = float(page.mediabox.height)
    colour: tuple[float, ...] = (0.0,)
    dash: tuple[float, ...] = ()
    path: list[tuple[str, list[float]]] = []
    out: list[Stroke] = []

    def y(v: float) -> float:
        return (height - v) * PT

    for operands, op in ContentStream(page.get_contents(), r).operations:
        if op == b"cm":
            assert [float(v) for v in operands] == [1, 0, 0, 1, 0, 0], "unexpected transform"
        elif op == b"RG":
            colour = tuple(round(float(v), 3) for v in operands)
        elif op == b"d":
            dash = tuple(round(float(v) * PT, 2) for v in operands[0])
        elif op in (b"m", b"l", b"re"):
            path.append((op.decode(), [float(v) for v in operands]))
        elif op in (b"S", b"B", b"B*", b"b", b"b*", b"s"):
            last = None
            for kind, vals in path:
                if kind == "re":
                    x0, y0, w, h = vals
                    out.append(Stroke(colour, dash, "rect", x0 * PT, y(y0 + h), (x0 + w) * PT,
                                      y(y0)))
                elif kind == "m":
                    last = vals
                elif kind == "l" and last is not None:
                    out.append(Stroke(colour, dash, "line", last[0] * PT, y(last[1]),
                                      vals[0] * PT, y(vals[1])))
                    last = vals
            path = []
        elif op in (b"n", b"f", b"F", b"f*"):
            path = []
    return out


def render(data: bytes, tmp: Path, dpi: int = 60) -> list[Image.Image]:
    """Every page as an RGB image, rendered by poppler's pdftoppm (a real PDF reader)."""
    exe = shutil.which("pdftoppm")
    assert exe, "pdftoppm missing: make test installs poppler-utils"
    pdf = tmp / "doc.pdf"
    pdf.write_bytes(data)
    subprocess.run([exe, "-r", str(dpi), "-png", str(pdf), str(tmp / "page")], check=True,
                   timeout=300)
    pages = sorted(tmp.glob("page-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
    return [Image.open(p).convert("RGB") for p in pages]


def pixel(image: Image.Image, x_mm: float, y_mm: float, dpi: int) -> tuple[int, int, int]:
    px = image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))
    assert isinstance(px, tuple)
    return (int(px[0]), int(px[1]), int(px[2]))


def embedded_fonts_only(data: bytes) -> list[str]:
    """Names of the fonts that are NOT embedded (should be none)."""
    missing = []
    for page in reader(data).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            desc = target.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                missing.append(str(font.get("/BaseFont")))
    return missing
