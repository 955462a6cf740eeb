"""``asobiba print GAME [--name value …] -o FILE.pdf`` and ``asobiba print record FILE``."""

from __future__ import annotations

from pathlib import Path

from ..core import AsobibaError, Record


def parse_pairs(args: list[str]) -> dict[str, str]:
    """``--course 2 --level=3`` → ``{"course": "2", "level": "3"}``; anything else is an error."""
    from .errors import PaperError

    out: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) < 3:
            raise PaperError(f"unexpected argument {arg!r}: print options are --name value")
        name, eq, value = arg[2:].partition("=")
        if not eq:
            if i + 1 >= len(args):
                raise PaperError(f"option {arg!r} needs a value", option=name)
            value = args[i + 1]
            i += 1
        out[name] = value
        i += 1
    return out


def run(target: str, extra: list[str], output: Path, seed: int | None, paper: str,
        lang: str) -> str:
    """Write the PDF; returns a one-line summary. Raises AsobibaError on bad input, before
    anything is written."""
    from . import parse_request, print_game, print_record
    from .errors import PaperError

    if target == "record":
        if not extra:
            raise PaperError("print record needs the record file: asobiba print record "
                             "RECORD.json -o FILE.pdf")
        path = Path(extra[0])
        if len(extra) > 1:
            raise PaperError(f"unexpected arguments after the record file: {extra[1:]}")
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PaperError(f"cannot read {path}: {exc.strerror}") from exc
        data = print_record(Record.loads(text), paper, lang)
    else:
        request = parse_request(target, parse_pairs(extra), seed, paper, lang)
        data = print_game(request)
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise AsobibaError(f"cannot write {output}: {exc.strerror}") from exc
    return f"wrote {output} ({len(data)} bytes)"
