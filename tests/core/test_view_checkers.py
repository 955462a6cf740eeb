"""Every game's view checker is one call of the shared ``core.views.checked`` (issue 26
item 2): ``<id>_view(view)`` in ``asobiba/games/<id>/views.py`` returns the view itself
(a cast: the JSON is the producer's, unchanged) when it holds the game's own declared keys,
and refuses one lacking any with ``option.view`` naming the game and the keys — the same
for every game, written once."""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from collections.abc import Callable
from typing import Any

import pytest

from asobiba.core import OptionError
from asobiba.core.manifest import manifest_of
from asobiba.core.views import CommonView, checked
from asobiba.games import available, get


def checker(game_id: str) -> Callable[[Any], Any] | None:
    """The game's ``<id>_view`` in its package's ``views`` module, or None (a plug-in that
    declares only the common keys)."""
    package = manifest_of(get(game_id)).package
    try:
        module = importlib.import_module(f"{package}.views")
    except ModuleNotFoundError:
        return None
    found: Callable[[Any], Any] | None = getattr(module, f"{game_id}_view", None)
    return found


SHIPPED = [g for g in available()
           if manifest_of(get(g)).package.startswith("asobiba.games.")]


def test_every_shipped_game_has_a_checker() -> None:
    assert len(SHIPPED) >= 6
    assert [g for g in SHIPPED if checker(g) is None] == []


@pytest.mark.parametrize("game_id", SHIPPED)
def test_each_checker_is_one_call_of_checked(game_id: str) -> None:
    fn = checker(game_id)
    assert fn is not None
    tree = ast.parse(inspect.getsource(fn))
    (defn,) = tree.body
    assert isinstance(defn, ast.FunctionDef)
    body = [s for s in defn.body if not (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant))]
    assert len(body) == 1 and isinstance(body[0], ast.Return), ast.unparse(defn)
    call = body[0].value
    assert isinstance(call, ast.Call) and ast.unparse(call.func) == "checked", ast.unparse(defn)
    assert ast.unparse(call.args[2]) == repr(game_id)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_a_view_passes_as_itself_and_a_lacking_key_is_refused_with_its_code(
        game_id: str) -> None:
    fn = checker(game_id)
    assert fn is not None
    shape = typing.get_type_hints(fn)["return"]
    own = sorted(shape.__required_keys__ - CommonView.__required_keys__)
    assert own
    state = get(game_id).new_game({}, 3)
    for seat in (None, 0):
        view = state.view(seat)
        assert fn(view) is view
    view = dict(state.view(0))
    # the common keys are State.view's own: a checker asks for the game's keys only
    assert fn({k: v for k, v in view.items() if k != "legal_moves"})["seat"] == 0
    for key in own:
        with pytest.raises(OptionError) as caught:
            fn({k: v for k, v in view.items() if k != key})
        assert caught.value.why.code == "option.view"
        assert dict(caught.value.why.args) == {"game": game_id, "keys": key}
        assert str(caught.value).endswith(f" view: it lacks {key}")
    with pytest.raises(OptionError) as caught:
        fn({})
    assert caught.value.why.args["keys"] == ", ".join(own)


def test_checked_says_a_or_an_and_view_or_position() -> None:
    class Probe(typing.TypedDict):
        board: list[str]
        turn: str

    with pytest.raises(OptionError, match=r"^not an Abc position: it lacks board, turn$"):
        checked({}, Probe, "abc", "Abc", what="position")
    with pytest.raises(OptionError, match=r"^not a Probe view: it lacks turn$"):
        checked({"board": []}, Probe, "probe", "Probe")
    ok = {"board": [], "turn": "black"}
    assert checked(ok, Probe, "probe", "Probe") is ok
