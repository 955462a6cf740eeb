"""JSDoc typedefs generated from a game's view TypedDict (issue 26 item 2): the JS renderer
reads the same shape the state produces, and its ``@typedef`` block is this text, kept equal
by ``tests/core/test_views.py``. Regenerate the blocks after changing a ``views.py``::

    PYTHONPATH=$PWD python -m tests.core.jsdoc          # rewrites every renderer.js block
"""

import types
import typing
from pathlib import Path
from typing import Literal, Union, get_args, get_origin

BEGIN = "// --- the view's shape: generated from views.py by tests/core/jsdoc.py (do not edit) ---"
END = "// --- end of the generated view shape ---"


def _is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _js(tp: object, named: dict[str, type]) -> str:
    origin = get_origin(tp)
    if tp is type(None) or tp is None:
        return "null"
    if origin in (Union, types.UnionType):
        return "(" + "|".join(_js(t, named) for t in get_args(tp)) + ")"
    if origin is Literal:
        return "(" + "|".join(f'"{a}"' if isinstance(a, str) else str(a).lower()
                              for a in get_args(tp)) + ")"
    if tp is bool:
        return "boolean"
    if tp in (int, float):
        return "number"
    if tp is str:
        return "string"
    if origin is list:
        return f"Array<{_js(get_args(tp)[0], named)}>"
    if origin is dict:
        key, value = get_args(tp)
        return f"Object<{_js(key, named)}, {_js(value, named)}>"
    if _is_typeddict(tp):
        assert isinstance(tp, type)
        named.setdefault(tp.__name__, tp)
        return tp.__name__
    raise TypeError(f"no JSDoc for {tp!r}")


def typedefs(view: type) -> str:
    """The ``@typedef`` block of ``view`` and every TypedDict it holds (outermost first)."""
    named: dict[str, type] = {view.__name__: view}
    blocks: list[str] = []
    done: set[str] = set()
    while len(done) < len(named):
        name = next(n for n in named if n not in done)
        done.add(name)
        td = named[name]
        hints = typing.get_type_hints(td)
        required = td.__required_keys__  # type: ignore[attr-defined]
        lines = ["/**", f" * @typedef {{Object}} {name}"]
        for key, tp in hints.items():
            shown = key if key in required else f"[{key}]"
            lines.append(f" * @property {{{_js(tp, named)}}} {shown}")
        lines.append(" */")
        blocks.append("\n".join(lines))
    return "\n".join([BEGIN, *blocks, END])


def renderer_block(text: str) -> str | None:
    """The generated block of a renderer's text (None: it has none)."""
    if BEGIN not in text or END not in text:
        return None
    start = text.index(BEGIN)
    return text[start:text.index(END, start) + len(END)]


def write(path: Path, view: type) -> None:
    """Put (or replace) the block in ``path``, after the file's opening comment."""
    text = path.read_text(encoding="utf-8")
    block = typedefs(view)
    old = renderer_block(text)
    if old is not None:
        text = text.replace(old, block)
    else:
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if not line.startswith("//"))
        text = "\n".join([*lines[:at], block, *lines[at:]])
    path.write_text(text, encoding="utf-8")


def shipped_views() -> dict[str, tuple[Path, type]]:
    """Game id → (its renderer.js, its view TypedDict), for every registered game with a
    renderer and a view narrowed from ``CommonView``."""
    from asobiba.core.manifest import manifest_of
    from asobiba.core.views import CommonView
    from asobiba.games import available, get

    out: dict[str, tuple[Path, type]] = {}
    for game_id in available():
        game = get(game_id)
        renderer = manifest_of(game).web_file("renderer.js")
        view = typing.get_type_hints(type(game.new_game()).view)["return"]
        if renderer is None or view is CommonView or not _is_typeddict(view):
            continue
        out[game_id] = (Path(str(renderer)), view)
    return out


if __name__ == "__main__":
    for game_id, (path, view) in shipped_views().items():
        write(path, view)
        print(f"{game_id}: {path}")
