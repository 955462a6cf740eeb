"""The JSON types of asobiba: the one place that says what crosses a JSON boundary.

asobiba's types say ``Any`` only where a value is JSON — a view sent to a seat, a record,
options read from a record, a command line or an HTTP body, a tutorial file. Everything
else is typed for real (protocols, generics, ``object`` for opaque values), and mypy
enforces it: ``disallow_any_explicit`` holds for every module except the short list of
boundary modules in ``pyproject.toml``, and this module is where the boundary types live.

* :data:`JSON` — any JSON value, recursively (what ``json.dumps`` accepts and
  ``json.loads`` returns). Use it for values built to be serialised.
* :data:`JSONObject` / :data:`JSONMapping` — a JSON object read or built *by key*: a view
  (``State.view`` — exactly what one seat may see), a record, a game's options (JSON scalars
  by name, from a record, a command line or an HTTP body), a request body. Its values are
  JSON, but readers index them by the keys the object's producer documents (``view["board"]``
  is the game's own board rows), so they are typed ``Any`` rather than the :data:`JSON`
  union that would make every read an ``isinstance`` check; the reader checks what it does
  not trust (``Game.state_from_view``, ``Record.from_json``, ``validate_options`` all raise a
  clear error on a malformed value).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

JSONScalar: TypeAlias = str | int | float | bool | None
"""A JSON leaf value."""

JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | JSONScalar
"""Any JSON value (recursive)."""

JSONObject: TypeAlias = dict[str, Any]
"""A JSON object built or decoded by key (a view, a record, a body); see the module text."""

JSONMapping: TypeAlias = Mapping[str, Any]
"""A read-only JSON object (a view or options handed to a reader)."""

JSONDecoded: TypeAlias = Any
"""What ``json.loads`` returned, before its reader checks the shape (a request body)."""

OptionValue: TypeAlias = str | int | float | bool | None
"""One validated option value (``Option.convert``): a JSON scalar."""

__all__ = ["JSON", "JSONDecoded", "JSONMapping", "JSONObject", "JSONScalar", "OptionValue"]
