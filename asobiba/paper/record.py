"""A record on paper: who played, the final position, every move in the game's notation, the
result. The position comes from the final state's public view (``view(None)``), the same a
spectator sees, so printing a record reveals nothing the game keeps hidden."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Record
from ..games import get as get_game
from .doc import MARGIN, Document

if TYPE_CHECKING:
    from . import GamePaper


def _seat_name(record: Record, seat: int, doc: Document) -> str:
    if seat < len(record.seats):
        info = record.seats[seat]
        if info.kind == "bot":
            return f"{info.name or 'CPU'} ({doc.t('bot', 'CPU')} {info.level or ''})".strip()
        if info.name:
            return info.name if len(info.name) <= 32 else info.name[:31] + "…"
    return doc.t(f"seat {seat + 1}", f"席{seat + 1}")


def result_text(record: Record, doc: Document, final_outcome: object) -> str:
    outcome = record.result or final_outcome
    if outcome is None:
        return doc.t("unfinished", "未完（対局中）")
    scores = ", ".join(f"{_seat_name(record, s, doc)} {score:g}"
                       for s, score in enumerate(outcome.scores))  # type: ignore[attr-defined]
    winners = outcome.winners  # type: ignore[attr-defined]
    if outcome.is_draw:  # type: ignore[attr-defined]
        head = doc.t("draw", "引き分け")
    else:
        names = " & ".join(_seat_name(record, w, doc) for w in winners)
        head = doc.t(f"won by {names}", f"勝者：{names}")
    reason = outcome.reason  # type: ignore[attr-defined]
    return f"{head} — {scores}" + (f" ({reason})" if reason else "")


def draw_record(doc: Document, record: Record, paper: GamePaper) -> None:
    game = get_game(record.game)
    states = record.replay(get_game)
    final = states[-1]
    title = doc.t(f"{game.title_en} — game record", f"{game.title_ja} — 棋譜")
    options = ", ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
    sub = f"{record.started[:10]} · seed {record.seed}" + (f" · {options}" if options else "")
    y = doc.page(title, sub)
    players = " / ".join(f"{s + 1}: {_seat_name(record, s, doc)}"
                         for s in range(final.num_seats))
    doc.text(MARGIN, y + 4, doc.t("Players: ", "対局者：") + players, 9)
    y += 7
    doc.text(MARGIN, y + 4, doc.t("Result: ", "結果：") + result_text(record, doc, final.outcome),
             10)
    y += 8
    doc.text(MARGIN, y + 4, doc.t("Final position", "最終局面"), 10)
    y = paper.position(doc, final.view(None), MARGIN, y + 6, doc.width - 2 * MARGIN)
    header = doc.t(f"Moves ({len(record.moves)})", f"指し手（{len(record.moves)}手）")
    own = getattr(paper, "moves", None)  # a game may write moves its own way (a kifu)
    entries = own(final.view(None)) if own else None
    if not entries:
        entries = [f"{n}. [{m.seat + 1}] {m.move}" for n, m in enumerate(record.moves, 1)]
    _moves(doc, entries, header, y + 4, title)


def _moves(doc: Document, entries: list[str], header: str, y: float, title: str) -> None:
    """Numbered moves in columns, continued on further pages as needed."""
    size, line_h = 8.0, 4.0
    longest = max((doc.text_width(e, size) for e in entries), default=20.0)
    col_w = max(30.0, longest + 4)
    cols = max(1, int((doc.width - 2 * MARGIN) // col_w))
    if y > doc.height - MARGIN - 20:
        y = doc.page(title)
    doc.text(MARGIN, y + 4, header, 10)
    y += 7
    i = 0
    while i < len(entries):
        per_col = max(1, int((doc.height - MARGIN - 6 - y) // line_h))
        for c in range(cols):
            for r in range(per_col):
                if i >= len(entries):
                    break
                doc.text(MARGIN + c * col_w, y + r * line_h + 3, entries[i], size)
                i += 1
        if i < len(entries):
            y = doc.page(title, doc.t("moves, continued", "指し手（続き）")) + 2
