"""The room's flows know the Hub only through their own narrow interfaces (issue 26 item 3).

Every module of ``asobiba/server/room/`` is parsed (``ast``, nothing imported): none but
``hub.py`` (the router that implements the interfaces) and ``__init__.py`` (which re-exports
it) may import the Hub or name it — in code, in an annotation, or in a string annotation
under ``TYPE_CHECKING``. Each flow states what it needs from the hub as a
:class:`typing.Protocol` of its own and takes that (mypy checks, where hub.py builds each
flow, that the Hub implements it).

Presence (claims, who is connected) and the match sets are functions of a room rather than
flows of the hub: each takes a Protocol of its own naming only the parts of the room it
reads or writes — never the whole ``Room`` (mypy checks that the Room is one)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOM = Path(__file__).resolve().parents[2] / "asobiba" / "server" / "room"
ROUTER = {"hub.py", "__init__.py"}
#: flow module → the Protocol it takes from the hub (as the flow's ``host``)
FLOWS = {"clock.py": ("Clocks", "ClockHost"), "finish.py": ("Finisher", "FinishHost"),
         "moves.py": ("Moves", "MoveHost"), "offers.py": ("Offers", "OfferHost"),
         "bots.py": ("Bots", "BotHost"), "persistence.py": ("Persistence", "PersistenceHost"),
         "events.py": ("BusEvents", "EventHost")}


def _string_annotations(tree: ast.AST) -> list[ast.expr]:
    """The module's string annotations (``h: "Hub"``), parsed into expressions (the others
    are part of the tree already)."""
    out: list[ast.expr] = []
    for node in ast.walk(tree):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            found += [a.annotation for a in (*args.posonlyargs, *args.args,
                                             *args.kwonlyargs)]
            found += [args.vararg.annotation if args.vararg else None,
                      args.kwarg.annotation if args.kwarg else None, node.returns]
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        for ann in found:
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                out.append(ast.parse(ann.value, mode="eval").body)
    return out


def names(tree: ast.AST, name: str) -> list[str]:
    """Where a module names ``name`` (``name`` or ``x.name``), in code or in annotations."""
    return [f"line {getattr(node, 'lineno', '?')}: names {name}"
            for expr in [tree, *_string_annotations(tree)] for node in ast.walk(expr)
            if (isinstance(node, ast.Name) and node.id == name)
            or (isinstance(node, ast.Attribute) and node.attr == name)]


def hub_mentions(source: str) -> list[str]:
    """Where a module imports the Hub or names it (code or annotations), as short notes."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module is not None and node.module.split(".")[-1] == "hub":
                found.append(f"line {node.lineno}: imports from {node.module}")
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names
                      if a.name == "Hub"]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names
                      if a.name.split(".")[-1] in ("hub", "Hub")]
    return found + names(tree, "Hub")


def test_no_flow_names_the_hub() -> None:
    modules = sorted(p for p in ROOM.glob("*.py") if p.name not in ROUTER)
    assert len(modules) >= len(FLOWS)
    problems = {p.name: hub_mentions(p.read_text(encoding="utf-8")) for p in modules}
    assert not {k: v for k, v in problems.items() if v}, problems


def test_each_flow_takes_a_protocol_of_its_own() -> None:
    for name, (flow, host) in FLOWS.items():
        tree = ast.parse((ROOM / name).read_text(encoding="utf-8"))
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        assert host in classes, f"{name} defines no {host}"
        bases = [ast.unparse(b) for b in classes[host].bases]
        assert bases == ["Protocol"], (name, host, bases)
        init = next(n for n in classes[flow].body
                    if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        first = init.args.args[1]
        assert first.annotation is not None and ast.unparse(first.annotation) == host, \
            f"{flow}.__init__ takes {ast.unparse(first.annotation or ast.Constant(None))}"


def test_the_checker_sees_type_checking_imports_and_string_annotations() -> None:
    hidden = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              "    from .hub import Hub\n")
    assert hub_mentions(hidden) == ["line 3: imports from hub", "line 3: imports Hub"]
    assert hub_mentions("def f(h: 'Hub') -> None:\n    pass\n") == ["line 1: names Hub"]
    assert hub_mentions("from asobiba.server import room\nx: room.Hub\n") == [
        "line 2: names Hub"]
    assert hub_mentions("class A:\n    def __init__(self, host: 'Host') -> None:\n"
                        "        self.host = host\n") == []


#: function module → the Protocol its functions take instead of the whole Room
ROOM_PARTS = {"presence.py": "PresenceRoom", "sets.py": "SetRoom"}


def room_mentions(source: str) -> list[str]:
    """Where a module imports the Room (or the module defining it) or names it."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module is not None and node.module.split(".")[-1] in ("state", "rooms"):
                found.append(f"line {node.lineno}: imports from {node.module}")
            found += [f"line {node.lineno}: imports Room" for a in node.names
                      if a.name == "Room"]
    return found + names(tree, "Room")


def test_presence_and_sets_take_a_protocol_not_the_room() -> None:
    for name, part in ROOM_PARTS.items():
        source = (ROOM / name).read_text(encoding="utf-8")
        assert room_mentions(source) == [], (name, room_mentions(source))
        tree = ast.parse(source)
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        assert part in classes, f"{name} defines no {part}"
        assert [ast.unparse(b) for b in classes[part].bases] == ["Protocol"], (name, part)
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert len(functions) >= 4, name
        for fn in functions:
            first = fn.args.args[0]
            assert first.arg == "room" and first.annotation is not None \
                and ast.unparse(first.annotation) == part, \
                f"{name}: {fn.name} takes {ast.unparse(first.annotation or ast.Constant(None))}"


def test_the_room_checker_sees_the_room_under_type_checking() -> None:
    hidden = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              "    from .state import Room\n\ndef joined(room: 'Room', seat: int) -> bool:\n"
              "    return True\n")
    assert room_mentions(hidden) == ["line 3: imports from state", "line 3: imports Room",
                                     "line 1: names Room"]
    assert room_mentions("def f(room: PresenceRoom) -> None:\n    pass\n") == []
