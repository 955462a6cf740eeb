"""The bundled engine book of each explorer (docs/explorer.md, "The book").

``asobiba explorer book --game G --plies P --depth D`` walks every position of the first
``P`` plies (one per symmetry class, :mod:`.positions`) and scores each move there with the
game's own engine searching ``D`` plies below the move: the value for the side that plays
the move, in the engine's units (positive is good for the mover), or a decided ``win`` /
``loss`` when the search proves one. The result is a small JSON file shipped in
``asobiba/explorer/books/`` and read at request time (cached per process).

The engine is the game's own (``ExplorerSpec.score``, brought by its ``explorer`` hook), as
are the shipped book's plies and depth (``ExplorerSpec.book_plies`` / ``book_depth``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import cast

from ..core import State
from ..core.jsontypes import JSONObject
from .positions import ExplorerGame, canonical, explorers

BOOKS = Path(__file__).parent / "books"

def score_move(ex: ExplorerGame, state: State, move: str, depth: int) -> JSONObject:
    """One move's book entry: ``{"eval": value for the mover}`` or ``{"result": "win" |
    "draw" | "loss"}`` when it is decided (over at once, or proved by the search)."""
    mover = state.to_move
    assert mover is not None
    child = state.play(move)
    if child.is_over:
        out = child.outcome
        assert out is not None
        from .index import result_for

        return {"result": result_for(mover, out.ranks)}
    value, bound = ex.spec.score(child, max(0, depth - 1))
    if child.to_move != mover:
        value = -value
    if value >= bound:
        return {"result": "win"}
    if value <= -bound:
        return {"result": "loss"}
    return {"eval": round(value, 1)}


def build(ex: ExplorerGame, plies: int, depth: int,
          progress: Callable[[str], None] | None = None) -> JSONObject:
    """The book of ``ex``: every symmetry class of position within ``plies`` plies of the
    start, each move (one per class) scored with a ``depth``-ply search. Positions are
    walked breadth first; the CPU seconds spent are in the answer."""
    cpu0 = time.process_time()
    positions: dict[str, dict[str, JSONObject]] = {}
    frontier: list[State] = [ex.new_state()]
    for ply in range(plies):
        nxt: list[State] = []
        for state in frontier:
            if state.is_over:
                continue
            pos = canonical(ex, state)
            if pos.key in positions:
                continue
            entries: dict[str, JSONObject] = {}
            for text in state.legal_moves().texts():
                stored = pos.store_move(ex, text)
                if stored in entries:
                    continue
                entries[stored] = score_move(ex, state, text, depth)
                nxt.append(state.play(text))
            positions[pos.key] = entries
        if progress:
            progress(f"ply {ply + 1}: {len(positions)} positions, "
                     f"{time.process_time() - cpu0:.1f} s CPU")
        frontier = nxt
    return {"format": "asobiba-explorer-book-1", "explorer": ex.id, "plies": plies,
            "depth": depth, "cpu_seconds": round(time.process_time() - cpu0, 1),
            "positions": cast(JSONObject, positions)}


def write(book: JSONObject, path: Path | None = None) -> Path:
    path = path or BOOKS / f"{book['explorer']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(book, separators=(",", ":"), sort_keys=True) + "\n",
                    encoding="utf-8")
    load.cache_clear()
    return path


@cache
def load(explorer: str) -> JSONObject | None:
    """The bundled book of ``explorer`` (None if none is shipped)."""
    path = BOOKS / f"{explorer}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return cast(JSONObject, data)


def book_moves(ex: ExplorerGame, state: State) -> dict[str, JSONObject]:
    """The book's entries for ``state``, by move as played from it ({} outside the book)."""
    book = load(ex.id)
    if book is None:
        return {}
    pos = canonical(ex, state)
    entries = cast(dict[str, JSONObject], cast(JSONObject, book["positions"]).get(pos.key) or {})
    return {pos.show_move(ex, m): e for m, e in entries.items()}


def explorer(name: str) -> ExplorerGame:
    return explorers()[name]
