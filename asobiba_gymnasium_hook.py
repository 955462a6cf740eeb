"""Registers asobiba's Gymnasium ids the moment Gymnasium is imported, in any program, with
nothing of asobiba imported (issue 30 item 3): ``gymnasium.make("asobiba/Reversi-v0")``.

Gymnasium 1.x has no plugin entry points, so the package installs ``asobiba-gymnasium.pth``
beside itself, whose one line imports this module at interpreter start-up. This module
imports nothing but ``sys`` and puts a finder first on ``sys.meta_path`` that does nothing
until ``gymnasium`` is imported; then it lets the usual finders load Gymnasium and, once
Gymnasium has run, registers the ids with a lazy entry point (nothing of asobiba, NumPy or
the environments is imported until an id is made). Costs a few microseconds at start-up.
Set ``ASOBIBA_NO_GYM_HOOK=1`` to turn it off.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost at every start-up
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: Gymnasium id per game: the same table as ``asobiba.envs.GYM_IDS`` (a test keeps them
#: equal; this module must not import asobiba).
GYM_IDS = {
    "reversi": "asobiba/Reversi-v0",
    "flipflop": "asobiba/FlipFlop-v0",
    "reverstargo": "asobiba/ReverStarGo-v0",
    "memory_matrix": "asobiba/MemoryMatrix-v0",
    "algo": "asobiba/Algo-v0",
    "patapata": "asobiba/Patapata-v0",
}
ENTRY_POINT = "asobiba.envs.single:AsobibaGym"


def register(gymnasium: object) -> None:
    """Register :data:`GYM_IDS` with ``gymnasium`` (idempotent)."""
    registry = gymnasium.registry  # type: ignore[attr-defined]
    for game_id, env_id in GYM_IDS.items():
        if env_id not in registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT,  # type: ignore[attr-defined]
                               kwargs={"game_id": game_id})


class _GymnasiumFinder:
    """A meta-path finder that answers only for ``gymnasium``: it finds the spec the usual
    way and wraps the loader so that :func:`register` runs once the module has run."""

    @classmethod
    def find_spec(cls, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(cls)  # once: the finders below do the finding
        from importlib.util import find_spec

        spec = find_spec(name)
        loader = getattr(spec, "loader", None)
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            try:
                register(module)
            except Exception:  # noqa: BLE001 - never break ``import gymnasium``
                pass

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Called by the .pth line: put the finder in place, unless Gymnasium is imported
    already (then register at once) or the hook is turned off."""
    import os

    if os.environ.get("ASOBIBA_NO_GYM_HOOK"):
        return
    if "gymnasium" in sys.modules:
        register(sys.modules["gymnasium"])
    elif _GymnasiumFinder not in sys.meta_path:
        sys.meta_path.insert(0, _GymnasiumFinder)
