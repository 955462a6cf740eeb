"""The one message for a missing optional dependency of :mod:`asobiba.envs`."""

from __future__ import annotations

RL_PACKAGES = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")


def missing_rl_extra(exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """``exc`` again with the install command, if the missing module is one the ``rl`` extra
    brings; otherwise ``exc`` itself (a real bug must not be dressed up as a missing extra)."""
    name = (exc.name or "").split(".")[0]
    if name not in RL_PACKAGES:
        return exc
    return ModuleNotFoundError(
        f"No module named {name!r}: asobiba.envs needs the optional 'rl' extra "
        f"(numpy, Gymnasium, PettingZoo, OpenSpiel); install asobiba[rl], e.g. "
        f"pip install 'asobiba[rl]' or, with the wheel, pip install 'asobiba-*.whl[rl]'",
        name=exc.name)
