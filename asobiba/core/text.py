"""Text from people, before it is stored or shown (docs/fair-play.md, "Transport and
browser defences", issue 25 item 7).

* **Refused:** control characters — C0 except tab, line feed and carriage return, DEL, C1
  — and lone UTF-16 surrogates, anywhere in a request: PostgreSQL cannot store NUL (the
  request answered 500) and no game, name or record needs any of them. In URLs (paths,
  queries) tab, LF and CR are refused too. :func:`bad_char` finds the first one;
  :class:`TextError` is the refusal (400 ``bad_text``).
* **Cleaned:** a name shown to other people (a seat's name) keeps no control characters,
  line breaks, or bidirectional overrides, embeddings and isolates (U+202A–U+202E,
  U+2066–U+2069, the marks U+200E/U+200F/U+061C) — those reverse or hide the text around it
  ("Trojan Source"); whitespace runs become one space; the length is bounded
  (:func:`display_name`).
"""

from __future__ import annotations

import re
from typing import ClassVar

from .errors import AsobibaError

_CONTROL = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_SURROGATES = "\ud800-\udfff"
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates."""

_BAD = re.compile(f"[{_CONTROL}{_SURROGATES}]")
_BAD_IN_URL = re.compile(f"[\t\n\r{_CONTROL}{_SURROGATES}]")
_NOT_SHOWN = re.compile(f"[{_CONTROL}{_SURROGATES}{BIDI_CONTROLS}"
                        "\u2028\u2029\ufeff\ufff9-\ufffb]")
_SPACES = re.compile(r"\s+")


class TextError(AsobibaError, ValueError):
    """Text with a character no request may carry. ``where``: what held it (``path``,
    ``query``, ``body``, ``message``, a field); ``char``: the character as ``U+XXXX``."""

    code: ClassVar[str] = "bad_text"

    def __init__(self, where: str, char: str) -> None:
        self.where, self.char = where, f"U+{ord(char):04X}"
        super().__init__(f"the {where} holds {self.char}: control characters and unpaired "
                         "surrogates are not accepted")

    @property
    def args_json(self) -> dict[str, str]:
        return {"where": self.where, "char": self.char}


def bad_char(text: str, url: bool = False) -> str | None:
    """The first character of ``text`` no request may carry (``url``: tab, LF and CR too),
    or None."""
    found = (_BAD_IN_URL if url else _BAD).search(text)
    return found.group() if found else None


def check_text(text: str, where: str, url: bool = False) -> str:
    """``text`` itself, or :class:`TextError` naming ``where``."""
    ch = bad_char(text, url)
    if ch is not None:
        raise TextError(where, ch)
    return text


def display_name(text: str, limit: int) -> str:
    """A name safe to show beside others': no control characters, line breaks or bidi
    controls, whitespace runs as one space, trimmed, at most ``limit`` characters."""
    return _SPACES.sub(" ", _NOT_SHOWN.sub("", text)).strip()[:limit].strip()


__all__ = ["BIDI_CONTROLS", "TextError", "bad_char", "check_text", "display_name"]
