"""The optional extras, and the one message for a missing one.

``pip install asobiba`` installs the rules engines, the bots, records, the terminal's play and
the learning bindings' pure parts; everything else is an extra (pyproject.toml)::

    web       the web app, its database and accounts: asobiba.server, asobiba.progression,
              asobiba.tables (`asobiba serve`, `asobiba progression`, `arena --rate`, `admin`)
    paper     print-and-play PDFs: asobiba.paper (`asobiba print`)
    rl        the learning environments' libraries: asobiba.envs
    postgres  PostgreSQL for the web app's store
    scale     Redis for the scaled web app (`asobiba serve --redis`, `asobiba worker`)
    learned   NumPy for the bot levels whose evaluation was learned (Reversi's level 7,
              ReverStarGo's LEARNED)
    train     Ray, NumPy and tqdm for `asobiba train` (asobiba.learn.selfplay)

A package that needs an extra calls :func:`require` when it is imported, so ``import
asobiba.server`` without ``web`` raises a :class:`ModuleNotFoundError` that says which extra
to install (never a bare "No module named 'starlette'" from deep inside); the CLI prints the
same sentence as one line (:func:`missing`). Stdlib only: importable with nothing installed.
"""

from __future__ import annotations

import importlib.util

#: Extra → the top-level modules it brings (import names, not distribution names).
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "web": ("starlette", "uvicorn", "sqlalchemy", "alembic", "argon2", "openskill",
            "pydantic", "pydantic_core", "zxcvbn", "icu", "networkx"),
    "paper": ("reportlab",),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "postgres": ("psycopg",),
    "scale": ("redis",),
    "learned": ("numpy",),
    "train": ("numpy", "ray", "tqdm"),
}

#: Extra → what it adds, for the message.
EXTRA_WHAT: dict[str, str] = {
    "web": "the web app, its database and accounts",
    "paper": "print-and-play PDFs (reportlab)",
    "rl": "numpy, Gymnasium, PettingZoo, OpenSpiel",
    "postgres": "PostgreSQL (psycopg)",
    "scale": "Redis (the scaled web app)",
    "learned": "numpy, for the bot levels with learned evaluations",
    "train": "Ray, numpy and tqdm, for `asobiba train`",
}

# a module → its extra (open_spiel is pyspiel's package)
# (a module of several extras belongs to the first: numpy stays "rl" for asobiba.envs)
_EXTRA_OF: dict[str, str] = {}
for _extra, _mods in EXTRA_MODULES.items():
    for _m in _mods:
        _EXTRA_OF.setdefault(_m, _extra)
_EXTRA_OF["open_spiel"] = "rl"


def install_hint(extra: str) -> str:
    """The install command of ``extra``."""
    return f"pip install 'asobiba[{extra}]'"


def message(extra: str, what: str, module: str | None = None) -> str:
    """The one sentence: ``what`` needs ``extra``, and how to install it."""
    lack = f"No module named {module!r}: " if module else ""
    return (f"{lack}{what} needs the optional '{extra}' extra ({EXTRA_WHAT[extra]}); "
            f"install it with {install_hint(extra)} (from a wheel: "
            f"pip install 'asobiba-*.whl[{extra}]')")


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here (found without importing them)."""
    out = []
    for name in EXTRA_MODULES[extra]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(name)
    return out


def require(extra: str, what: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`ModuleNotFoundError` naming ``extra`` if any of its modules (or of
    ``modules``, a part of them) is missing."""
    lacking = [m for m in missing(extra) if modules is None or m in modules]
    if lacking:
        raise ModuleNotFoundError(message(extra, what, lacking[0]), name=lacking[0])


def explain(exc: ModuleNotFoundError, what: str) -> ModuleNotFoundError:
    """``exc`` again, saying which extra to install, if the missing module is one an extra
    brings; otherwise ``exc`` itself (a real bug must not be dressed up as a missing extra)."""
    name = (exc.name or "").split(".")[0]
    extra = _EXTRA_OF.get(name)
    if extra is None:
        return exc
    return ModuleNotFoundError(message(extra, what, name), name=exc.name)
