"""Positions of the opening explorer: which games have one, and each position's canonical
key, symmetry-reduced (docs/explorer.md, "Positions and symmetry").

A position is keyed by its board, the side to move and whatever else decides the game from
there (the game says what: ``ExplorerSpec.extra``); the move history is not part of it, as
in any opening book. Every symmetry of a game's board that its rules respect maps a position
to an equivalent one; the key is the smallest of the images' texts, so the orientations of a
position share one row. The moves from a position are stored in that canonical frame too,
and equivalent moves of a symmetric position fold into one.

The games are reached through the registry (:mod:`asobiba.games`): a game has explorers when
its progression fills the ``explorer`` hook (:class:`~asobiba.core.ExplorerSpec`: its
symmetries, position text, move mapping and book engine) and names them in
``explorer_sets`` (explorer id → options). Nothing here names a game, nor imports the web:
the index, the book and the CLI use it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import ExplorerSpec, State
from ..core.hooks import Perm
from ..core.jsontypes import JSONMapping

__all__ = ["Canonical", "ExplorerGame", "Perm", "canonical", "explorer_for", "explorers", "walk"]


@dataclass(frozen=True)
class ExplorerGame:
    """One explorer: a two-player perfect-information game with fixed options, and the
    parts its game brings (:class:`~asobiba.core.ExplorerSpec`)."""

    id: str
    """The explorer's name in URLs (a key of the game's ``explorer_sets``)."""
    game: str
    options: JSONMapping
    spec: ExplorerSpec

    @property
    def perms(self) -> tuple[Perm, ...]:
        return self.spec.perms

    @property
    def cells(self) -> Callable[[State], str]:
        """One character per square (empty ``.``), in square order."""
        return self.spec.cells

    @property
    def extra(self) -> Callable[[State], str]:
        """The rest of the key (side to move, and more where the rules need it)."""
        return self.spec.extra

    @property
    def move_map(self) -> Callable[[str, Perm], str]:
        """A move's text with its squares moved by a symmetry."""
        return self.spec.move_map

    def new_state(self) -> State:
        from ..games import get

        return get(self.game).new_game(dict(self.options))

    def matches(self, options: JSONMapping) -> bool:
        """Whether a game stored with ``options`` is one of this explorer's: each option
        the explorer fixes has its value there (a missing or empty one is the game's
        declared default); the options it does not fix do not matter."""
        from ..games import get

        defaults = {o.name: o.default for o in get(self.game).options}
        return all((options.get(k) or defaults.get(k)) == v for k, v in self.options.items())


_GAMES: dict[tuple[str, ...], dict[str, ExplorerGame]] = {}


def _collect(game_ids: Sequence[str]) -> dict[str, ExplorerGame]:
    from ..games import get

    out: dict[str, ExplorerGame] = {}
    for gid in game_ids:
        prog = get(gid).progression()
        if prog.explorer is None:
            continue
        for name, options in prog.explorer_sets.items():
            if name in out:
                raise ValueError(f"explorer {name!r} is declared by {out[name].game!r} and "
                                 f"{gid!r}")
            out[name] = ExplorerGame(name, gid, dict(options), prog.explorer(options))
    return out


def explorers() -> dict[str, ExplorerGame]:
    """Every explorer by its id, in the registry's order of games (each game's
    ``explorer_sets`` in their order); a game without the ``explorer`` hook has none."""
    from ..games import available

    ids = tuple(available())
    if ids not in _GAMES:
        _GAMES.clear()
        _GAMES[ids] = _collect(ids)
    return _GAMES[ids]


def explorer_for(game: str, options: JSONMapping) -> ExplorerGame | None:
    """The explorer a stored game belongs to (its game and options), or None: a game with
    hidden information or more than two seats (no explorer hook), or options other than an
    explorer's (:meth:`ExplorerGame.matches`)."""
    for ex in explorers().values():
        if ex.game == game and ex.matches(options):
            return ex
    return None


@dataclass(frozen=True)
class Canonical:
    """A position in its canonical frame: ``key``, and the symmetries that take it there
    (the first one is used to show the stored moves in this position's orientation)."""

    key: str
    perms: tuple[Perm, ...]

    def store_move(self, ex: ExplorerGame, text: str) -> str:
        """A move played here, as stored: its smallest image under the symmetries that
        take the position to its key (so equivalent moves share one text)."""
        return min(ex.move_map(text, p) for p in self.perms)

    def show_move(self, ex: ExplorerGame, stored: str) -> str:
        """A stored move as played from this position (in its orientation)."""
        return ex.move_map(stored, _inverse(self.perms[0]))


def _inverse(perm: Perm) -> Perm:
    inv = [0] * len(perm)
    for i, j in enumerate(perm):
        inv[j] = i
    return tuple(inv)


def canonical(ex: ExplorerGame, state: State) -> Canonical:
    cells = ex.cells(state)
    extra = ex.extra(state)
    best: str | None = None
    chosen: list[Perm] = []
    for perm in ex.perms:
        image = [""] * len(cells)
        for i, ch in enumerate(cells):
            image[perm[i]] = ch
        text = "".join(image)
        if best is None or text < best:
            best, chosen = text, [perm]
        elif text == best:
            chosen.append(perm)
    assert best is not None
    return Canonical(f"{best}|{extra}", tuple(chosen))


def walk(ex: ExplorerGame, moves: Sequence[str]) -> State:
    """The state after ``moves`` (texts) from the start; a bad move raises the game's
    :class:`~asobiba.core.MoveError` naming it (with its number)."""
    from ..core import MoveError

    state = ex.new_state()
    for number, text in enumerate(moves, 1):
        try:
            state = state.play(text)
        except MoveError as exc:
            raise type(exc)(f"move {number} ({text}): {exc}", move=text) from exc
    return state
