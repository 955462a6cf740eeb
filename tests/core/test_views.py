"""Issue 26 item 2: every game's view is typed, and the type is true.

``State.view(seat)`` is annotated with the game's own TypedDict (``asobiba/games/<id>/
views.py``); here real views — every seat and a spectator, through a few seeded random
playouts of every variant of every registered game — are checked against the declaration
the state's ``view`` names: every declared key there (``NotRequired`` ones may be absent),
no key the declaration does not name, every value of its declared type (``bool`` is not an
``int`` here, ``Literal`` values are exact), recursively.

The checker is written here rather than taken from pydantic: pydantic refuses
``typing.TypedDict`` before Python 3.12 (it wants ``typing_extensions.TypedDict``), and the
rules must stay importable without the ``web`` extra that brings pydantic.
"""

import random
import types
import typing
from typing import Literal, NotRequired, TypedDict, Union, get_args, get_origin

import pytest

from asobiba.core.manifest import manifest_of
from asobiba.core.views import CommonView
from asobiba.games import available, get

GAMES = available()


def is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def problems(value: object, tp: object, path: str = "view") -> list[str]:
    """Where ``value`` does not match the type ``tp`` (empty: it matches), exactly."""
    origin = get_origin(tp)
    if tp is typing.Any or tp is object:
        return []
    if tp is None or tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if origin in (Union, types.UnionType):
        options = [problems(value, t, path) for t in get_args(tp)]
        if any(not p for p in options):
            return []
        return [f"{path}: {value!r} matches none of {tp}: " + " | ".join(
            "; ".join(p[:2]) for p in options)]
    if origin is Literal:
        ok = any(value == a and type(value) is type(a) for a in get_args(tp))
        return [] if ok else [f"{path}: {value!r} is not one of {get_args(tp)}"]
    if tp is bool:
        return [] if isinstance(value, bool) else [f"{path}: {value!r} is not a bool"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not an int"]
    if tp is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not a number"]
    if tp is str:
        return [] if isinstance(value, str) else [f"{path}: {value!r} is not a str"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        (item,) = get_args(tp)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not an object"]
        key_t, val_t = get_args(tp)
        out = []
        for k, v in value.items():
            out += problems(k, key_t, f"{path} key")
            out += problems(v, val_t, f"{path}[{k!r}]")
        return out
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not an object"]
        hints = typing.get_type_hints(tp)
        required = tp.__required_keys__  # type: ignore[attr-defined]
        out = [f"{path}: lacks {k!r}" for k in sorted(required - value.keys())]
        out += [f"{path}: has {k!r}, which {tp.__name__} does not declare"
                for k in sorted(value.keys() - hints.keys())]
        for k in sorted(value.keys() & hints.keys()):
            out += problems(value[k], hints[k], f"{path}[{k!r}]")
        return out
    raise TypeError(f"{path}: the checker does not know the type {tp!r}")


def view_type(state: object) -> object:
    """The return type the state's ``view`` declares."""
    return typing.get_type_hints(type(state).view)["return"]


def playouts(game_id: str, games: int = 2, plies: int = 120):
    """(label, state) along a few seeded random games of every variant."""
    game = get(game_id)
    for variant in [None, *game.variants]:
        for seed in range(games):
            rng = random.Random(seed)
            state = game.new_game({"variant": variant} if variant else {}, seed)
            for ply in range(plies):
                yield f"{variant or 'default'} seed {seed} ply {ply}", state
                acting = state.view(None)["acting"]
                if not acting:
                    break
                seat = acting[0]
                state = state.play(rng.choice(state.legal_moves(seat).texts()), seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_issue26_every_view_matches_its_typeddict(game_id: str) -> None:
    first = get(game_id).new_game()
    declared = view_type(first)
    shipped = manifest_of(get(game_id)).package.startswith("asobiba.games.")
    if shipped:  # a shipped game narrows the view to its own TypedDict
        assert declared is not CommonView and is_typeddict(declared), declared
        common = typing.get_type_hints(CommonView)
        assert common.items() <= typing.get_type_hints(declared).items()
    seen = 0
    for label, state in playouts(game_id):
        for seat in [None, *range(state.num_seats)]:
            view = state.view(seat)
            if declared is CommonView:  # a plug-in that declares only the common keys
                view = {k: v for k, v in view.items() if k in CommonView.__required_keys__}
            found = problems(view, declared, f"{label}, seat {seat}")
            assert not found, "\n".join(found[:10])
            seen += 1
    assert seen >= 20


def test_the_checker_fails_on_a_wrong_view() -> None:
    """The checker is not a rubber stamp: a missing key, an extra key, a wrong type deep
    inside, a bool for an int and a wrong literal are each reported."""

    class Inner(TypedDict):
        n: int
        tag: Literal["a", "b"]

    class Probe(TypedDict):
        rows: list[Inner]
        maybe: Inner | None
        extra: NotRequired[dict[str, float]]

    good = {"rows": [{"n": 1, "tag": "a"}], "maybe": None, "extra": {"x": 1}}
    assert problems(good, Probe) == []
    assert problems({"rows": [], "maybe": None}, Probe) == []  # NotRequired absent
    assert problems({"rows": []}, Probe) == ["view: lacks 'maybe'"]
    assert "does not declare" in problems({**good, "spare": 1}, Probe)[0]
    assert problems({**good, "rows": [{"n": True, "tag": "a"}]}, Probe) == [
        "view['rows'][0]['n']: True is not an int"]
    assert problems({**good, "rows": [{"n": 1, "tag": "c"}]}, Probe)
    assert problems({**good, "maybe": {"n": 1, "tag": "a", "x": 0}}, Probe)
    assert problems({**good, "extra": {"x": "1"}}, Probe)


def test_every_renderer_carries_its_view_typedef() -> None:
    """The JS renderer of every game with a typed view documents the same shape: its
    ``@typedef`` block is exactly the one generated from the game's TypedDict (regenerate
    with ``python -m tests.core.jsdoc``)."""
    from tests.core.jsdoc import renderer_block, shipped_views, typedefs

    found = shipped_views()
    assert len([g for g in found if get(g).__module__.startswith("asobiba.")]) >= 6
    for game_id, (path, view) in found.items():
        text = path.read_text(encoding="utf-8")
        assert renderer_block(text) == typedefs(view), (
            f"{game_id}: {path} does not carry its view's typedef; run "
            "PYTHONPATH=$PWD python -m tests.core.jsdoc")
