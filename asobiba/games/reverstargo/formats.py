"""ReverStarGo's record texts in the shared registry (``asobiba export`` / ``asobiba import``):

* ``app`` — the designer's app's own record text, byte for byte (``appkifu``): what its
  "copy record" writes, in either build; recognised by its `────` rule or Japanese header.
* ``kifu`` — asobiba's ReverStarGo record text (``kifu``): the app's header and entry
  shapes, one entry a line, with the players and the entry count.

``asobiba reverstargo export|import`` does the same with ``--format app`` (see
docs/rules/reverstargo.md § 9).
"""

from __future__ import annotations

from ...core import Record
from ...formats import RecordFormat


def _app_dumps(record: Record) -> str:
    from .appkifu import record_to_app_text

    return record_to_app_text(record)


def _app_loads(text: str) -> Record:
    from .appkifu import app_text_to_record

    return app_text_to_record(text)


def _app_sniff(text: str) -> bool:
    from .appkifu import is_app_text

    return is_app_text(text)


def _kifu_dumps(record: Record) -> str:
    from .kifu import record_to_kifu

    return record_to_kifu(record)


def _kifu_loads(text: str) -> Record:
    from .kifu import kifu_to_record

    return kifu_to_record(text)


def _kifu_sniff(text: str) -> bool:
    from .kifu import HEADER

    return HEADER in text and not _app_sniff(text)


FORMATS = (
    RecordFormat("app", "the ReverStarGo app's own record text (byte for byte)", ".txt",
                 _app_dumps, _app_loads, _app_sniff),
    RecordFormat("kifu", "asobiba's ReverStarGo record text (the app's entries, one a line)",
                 ".txt", _kifu_dumps, _kifu_loads, _kifu_sniff),
)
