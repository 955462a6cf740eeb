"""Suite-wide test set-up.

Starlette's test client sends ``Host: testserver``. An app made by ``create_app`` without
``allowed_hosts`` answers only the loopback names (security.LOCAL_HOSTS: a DNS-rebinding
page sends its own name and is refused), so the suite adds the test client's name to that
default here — in this test process only; servers started as processes keep the real
defaults."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parent


def _suite_plugins() -> list[str]:
    """``id=tests.<folder>`` for every test folder whose ``__init__.py`` says
    ``SUITE_PLUGIN = True``: a game plugged in for the whole suite (docs/architecture.md,
    "Adding a game"), so every test parametrised over ``asobiba.games.available()`` runs it.
    The folder's name is its game id."""
    found = []
    for init in sorted(_TESTS.glob("*/__init__.py")):
        if re.search(r"^SUITE_PLUGIN = True$", init.read_text(encoding="utf-8"), re.M):
            found.append(f"{init.parent.name}=tests.{init.parent.name}")
    return found


# before asobiba.games is imported (it reads ASOBIBA_GAMES once); servers started as
# processes inherit it
_entries = [e for e in os.environ.get("ASOBIBA_GAMES", "").split(",") if e.strip()]
os.environ["ASOBIBA_GAMES"] = ",".join([*_entries, *(p for p in _suite_plugins()
                                                     if p not in _entries)])

from asobiba import games  # noqa: E402
from asobiba.server import security  # noqa: E402

for _entry in _suite_plugins():  # in case asobiba.games was imported before this file ran
    _id, _, _module = _entry.partition("=")
    games.register(_id, _module)

if "testserver" not in security.LOCAL_HOSTS:
    security.LOCAL_HOSTS = (*security.LOCAL_HOSTS, "testserver")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray of two CPUs for a module of training tests (``learn.selfplay.train``
    uses a running Ray as it is); needs the ``train`` extra."""
    import logging

    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
