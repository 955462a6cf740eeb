"""Interactive tutorials, read from data: per game, small positions that each teach one rule.

Each game keeps its tutorial as a JSON file in its own folder (named by the ``tutorial`` hook
of :meth:`asobiba.core.Game.progression`, e.g. ``asobiba/games/reversi/tutorial.json``); this
module only reads it. A step has a start position, a goal in words, the intended moves, the
rule it teaches (``rule``: the section of docs/rules/<game>.md) and a *check* on the views
before and after the player's move. The web client shows the start view, sends the player's
move to :meth:`Step.attempt`, and shows the message. Everything goes through the protocol: an
illegal move gets the game's own typed error and its rule sentence.

The file's format (one object, ``{"game": id, "steps": [...]}``); per step:

* ``key``, ``rule``, ``title``/``explain``/``goal``/``hint`` (``{"en": ..., "ja": ...}``),
  ``solutions`` (moves that reach the goal), ``many_ways`` (any move reaching the goal is
  right; the solutions are examples);
* the start: ``moves`` played from the start with ``options`` and ``seed``; or ``view``, a
  hand-made position rebuilt with ``game.state_from_view``; or ``position``, one in the
  game's position notation (``game.from_position``, which may hold hidden information),
  optionally followed by ``moves``;
* ``check``: an expression over the views ``before`` and ``after`` in a small, safe subset of
  Python — comparisons, ``and``/``or``/``not``, ``+``/``-``, literals, ``view.key`` or
  ``view["key"]`` and ``[index]`` lookups, and calls of ``len``, ``count(seq, item)`` and the
  helpers the game names in its ``tutorial_functions`` hook (``cell(after, "A1") == "B"``).
  Anything else is refused when the file is read, so a tutorial file cannot run code.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..core import MoveError, State
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import available
from ..games import get as get_game

View = JSONMapping


@dataclass(frozen=True)
class Text:
    en: str
    ja: str

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ja": self.ja}


@dataclass(frozen=True)
class Attempt:
    done: bool
    message: Text
    state: State | None = None
    seat: int | None = None
    """The seat the player played (show the position after the move from its view)."""


@dataclass(frozen=True)
class Step:
    game: str
    key: str
    rule: str
    """The rule taught, as named in docs/rules/<game>.md."""
    title: Text
    explain: Text
    goal: Text
    solutions: tuple[str, ...]
    check: Callable[[View, View], bool]
    moves: tuple[str, ...] = ()
    view: JSONMapping | None = None
    options: JSONMapping = field(default_factory=dict)
    hint: Text | None = None
    seed: int = 0
    """For games with chance: the deal the step is written for."""
    position: str | None = None
    """A hand-made start in the game's position notation (``game.from_position``: Memory
    Matrix layouts with hidden colours, FlipFlop positions), then ``moves`` from there."""
    many_ways: bool = False
    """True when any move reaching the goal is right (the solutions are examples)."""
    check_text: str = ""
    """The check as written in the tutorial file."""

    def start(self) -> State:
        game = get_game(self.game)
        if self.position is not None:
            state = game.from_position(self.position, self.options)
            for move in self.moves:
                state = state.play(move)
            return state
        if self.view is not None:
            return game.state_from_view(self.view)
        return game.replay(list(self.moves), self.options, self.seed)[-1]

    def attempt(self, move: str, state: State | None = None) -> Attempt:
        """Play ``move`` from the step's start (or ``state``); done when the check holds."""
        state = state or self.start()
        seat = state.to_move
        try:
            after = state.play(move, seat)
        except MoveError as exc:
            return Attempt(False, Text(str(exc), str(exc)), state, seat)
        if self.check(state.view(seat), after.view(seat)):
            return Attempt(True, Text("Well done!", "よくできました！"), after, seat)
        hint = self.hint or Text("That move is legal, but it does not reach the goal. Try again.",
                                 "打てる手ですが、目標に届きません。もう一度どうぞ。")
        return Attempt(False, hint, state, seat)

    def to_json(self) -> JSONObject:
        start = self.start()
        return {"game": self.game, "key": self.key, "rule": self.rule,
                "title": self.title.to_json(), "explain": self.explain.to_json(),
                "goal": self.goal.to_json(), "view": start.view(start.to_move),
                "many_ways": self.many_ways,
                "hint": self.hint.to_json() if self.hint else None}


@dataclass(frozen=True)
class Tutorial:
    game: str
    steps: tuple[Step, ...]

    def step(self, key: str) -> Step:
        for s in self.steps:
            if s.key == key:
                return s
        raise KeyError(f"{self.game} tutorial has no step {key!r}")

    def to_json(self) -> JSONObject:
        return {"game": self.game, "steps": [s.to_json() for s in self.steps]}


# ---- reading a tutorial file -------------------------------------------------------------------

class TutorialFileError(ValueError):
    """A tutorial file that does not follow the format (names the game, step and problem)."""


_BUILTINS: dict[str, Callable[..., Any]] = {
    "len": len,
    "count": lambda seq, item: seq.count(item),
}

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda x, y: bool(x == y), ast.NotEq: lambda x, y: bool(x != y),
    ast.Lt: lambda x, y: bool(x < y), ast.LtE: lambda x, y: bool(x <= y),
    ast.Gt: lambda x, y: bool(x > y), ast.GtE: lambda x, y: bool(x >= y),
    ast.In: lambda x, y: x in y, ast.NotIn: lambda x, y: x not in y,
}


class _Check:
    """A check expression, parsed once and checked against the allowed subset, evaluated by
    walking its tree (never ``eval``)."""

    def __init__(self, text: str, functions: Mapping[str, Callable[..., Any]]) -> None:
        self.text = text
        self.functions = {**_BUILTINS, **functions}
        try:
            self.tree = ast.parse(text, mode="eval").body
        except SyntaxError as exc:
            raise TutorialFileError(f"check {text!r} is not an expression: {exc.msg}") from None
        for node in ast.walk(self.tree):
            self._allowed(node)

    def _allowed(self, node: ast.AST) -> None:
        ok = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.BinOp, ast.Add,
              ast.Sub, ast.Compare, ast.Constant, ast.Name, ast.Load, ast.Attribute,
              ast.Subscript, ast.Call, ast.List, ast.Tuple, *_COMPARE)
        if not isinstance(node, ok):
            raise TutorialFileError(f"check {self.text!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Name) and node.id not in ("before", "after") \
                and node.id not in self.functions:
            raise TutorialFileError(f"check {self.text!r}: unknown name {node.id!r}")
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.keywords):
            raise TutorialFileError(f"check {self.text!r}: only plain calls of named helpers")

    def __call__(self, before: View, after: View) -> bool:
        return bool(self._eval(self.tree, {"before": before, "after": after}))

    def _eval(self, node: ast.AST, env: JSONMapping) -> Any:  # noqa: C901 - one switch
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else self.functions[node.id]
        if isinstance(node, ast.Attribute):
            return self._eval(node.value, env)[node.attr]
        if isinstance(node, ast.Subscript):
            return self._eval(node.value, env)[self._eval(node.slice, env)]
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(self._eval(v, env) for v in node.values)
            return any(self._eval(v, env) for v in node.values)
        if isinstance(node, ast.UnaryOp):
            value = self._eval(node.operand, env)
            return (not value) if isinstance(node.op, ast.Not) else -value
        if isinstance(node, ast.BinOp):
            left, right = self._eval(node.left, env), self._eval(node.right, env)
            return left + right if isinstance(node.op, ast.Add) else left - right
        if isinstance(node, ast.Compare):
            left = self._eval(node.left, env)
            for op, comp in zip(node.ops, node.comparators, strict=True):
                right = self._eval(comp, env)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.Call):
            return self._eval(node.func, env)(*(self._eval(a, env) for a in node.args))
        if isinstance(node, ast.List | ast.Tuple):
            return [self._eval(e, env) for e in node.elts]
        raise TutorialFileError(f"check {self.text!r}: cannot evaluate {type(node).__name__}")


def _text(data: Any, where: str) -> Text:
    if not isinstance(data, Mapping) or not isinstance(data.get("en"), str) \
            or not isinstance(data.get("ja"), str):
        raise TutorialFileError(f"{where}: a text is {{\"en\": ..., \"ja\": ...}}")
    return Text(data["en"], data["ja"])


_STEP_KEYS = {"key", "rule", "title", "explain", "goal", "solutions", "check", "moves", "view",
              "options", "hint", "seed", "position", "many_ways"}


def _step(game_id: str, data: JSONMapping, functions: Mapping[str, Callable[..., Any]]
          ) -> Step:
    where = f"{game_id} tutorial, step {data.get('key')!r}"
    unknown = set(data) - _STEP_KEYS
    if unknown:
        raise TutorialFileError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    for name in ("key", "rule", "check"):
        if not isinstance(data.get(name), str) or not data[name]:
            raise TutorialFileError(f"{where}: {name!r} must be non-empty text")
    if data.get("view") is not None and data.get("position") is not None:
        raise TutorialFileError(f"{where}: give a start view or a position, not both")
    try:
        check = _Check(data["check"], functions)
    except TutorialFileError as exc:
        raise TutorialFileError(f"{where}: {exc}") from None
    return Step(
        game_id, data["key"], data["rule"], _text(data.get("title"), where),
        _text(data.get("explain"), where), _text(data.get("goal"), where),
        tuple(str(m) for m in data.get("solutions", ())), check,
        moves=tuple(str(m) for m in data.get("moves", ())), view=data.get("view"),
        options=dict(data.get("options") or {}),
        hint=_text(data["hint"], where) if data.get("hint") else None,
        seed=int(data.get("seed", 0)), position=data.get("position"),
        many_ways=bool(data.get("many_ways", False)), check_text=data["check"])


def load_tutorial(game_id: str, text: str) -> Tutorial:
    """A tutorial from the JSON text of a game's tutorial file (checked as it is read)."""
    hooks = get_game(game_id).progression()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TutorialFileError(f"{game_id} tutorial: not JSON: {exc}") from None
    if not isinstance(data, Mapping) or data.get("game") != game_id \
            or not isinstance(data.get("steps"), list):
        raise TutorialFileError(f"{game_id} tutorial: expected {{\"game\": {game_id!r}, "
                                "\"steps\": [...]}")
    steps = tuple(_step(game_id, s, hooks.tutorial_functions) for s in data["steps"])
    keys = [s.key for s in steps]
    if len(set(keys)) != len(keys):
        raise TutorialFileError(f"{game_id} tutorial: step keys repeat")
    return Tutorial(game_id, steps)


def has_tutorial(game_id: str) -> bool:
    return get_game(game_id).progression().tutorial is not None


def games_with_tutorials() -> list[str]:
    """Ids of the games that bring a tutorial, in the registry's order."""
    return [g for g in available() if has_tutorial(g)]


@lru_cache(maxsize=64)
def tutorial(game_id: str) -> Tutorial:
    """The tutorial of ``game_id``, read from the file its ``tutorial`` hook names."""
    hooks = get_game(game_id).progression()
    if hooks.tutorial is None:
        raise KeyError(f"no tutorial for {game_id!r}; tutorials: "
                       + ", ".join(games_with_tutorials()))
    text = resources.files(hooks.package).joinpath(hooks.tutorial).read_text(encoding="utf-8")
    return load_tutorial(game_id, text)
