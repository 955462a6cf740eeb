"""Fixtures for the web tests: the database each store test runs on.

``db_url`` runs a test twice: on SQLite (the default store) and on PostgreSQL (the scaled
option, "a PostgreSQL URL by configuration with the same code"). The PostgreSQL run uses a
throwaway cluster started for the test session (``initdb`` into a temporary directory, the
server listening on a unix socket only) and a fresh database per test. It is skipped only
when the PostgreSQL server binaries are not installed (Debian: ``apt-get install
postgresql``); a missing Python driver is a failure, not a skip, so CI cannot silently lose
the PostgreSQL run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.server.services import PgCluster, RedisServer, _server_bin_dir  # noqa: E402


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    bin_dir = _server_bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL server binaries are not installed (no initdb/pg_ctl under "
                    "/usr/lib/postgresql/*/bin or on PATH; Debian: apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError:
        pytest.fail("PostgreSQL is installed but its Python driver is not: "
                    "pip install -e '.[dev,postgres]'")
    cluster = PgCluster(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store URL a test runs on: SQLite in the test's directory, or a fresh database
    in the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'asobiba.db'}"
    cluster: Any = request.getfixturevalue("pg_cluster")
    return str(cluster.new_database())


# ---- the browser tests' shared fixtures ---------------------------------------------------
# Playwright is a dev dependency: a missing one is an import error here, never a silent skip.


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Debian Chromium per test module (see ``browser.launch``)."""
    from playwright.sync_api import sync_playwright

    from .browser import launch

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


class Pages:
    """Opens pages, each in a fresh browser context (another person's browser):
    ``pages(locale="en-US", size="desktop", **context_options)``. A page error on any of them
    fails the test when it ends; with ``accept`` every dialog (a resign's confirmation) is
    accepted, as the player who clicks OK."""

    def __init__(self, browser: Any, accept: bool) -> None:
        self.browser, self.accept = browser, accept
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def __call__(self, locale: str = "en-US", size: str = "desktop", **kw: Any) -> Any:
        from .browser import SIZES, open_context

        ctx = open_context(self.browser, locale=locale, **SIZES[size], **kw)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if self.accept:
            page.on("dialog", lambda d: d.accept())
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        assert not self.errors, self.errors


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opener = Pages(browser, accept=False)
    yield opener
    opener.close()


@pytest.fixture
def accepting_pages(browser: Any) -> Iterator[Pages]:
    """:func:`pages` whose dialogs are accepted."""
    opener = Pages(browser, accept=True)
    yield opener
    opener.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A real ``asobiba serve`` process per test module, on its own data directory."""
    from .browser import Server

    srv = Server(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])).start()
    yield srv
    srv.stop()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A throwaway Redis (Debian's redis-server) on a free port, for the scaled-mode tests."""
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    """A fresh database in the session's throwaway PostgreSQL cluster."""
    return str(pg_cluster.new_database())


# ---- the analysis board's tests: the real app and one real analysis process --------------
@pytest.fixture(scope="module")
def analysis() -> Iterator[Any]:
    """One analysis process per test module (a real spawned process, not a thread), for
    :func:`.helpers.with_analysis`; its budget is the test's to set."""
    from asobiba.server.analysis_routes import Analysis

    engine = Analysis(processes=1)
    yield engine
    engine.shutdown()


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The real app (``create_app`` on a temporary SQLite, no bot processes), started, for a
    whole test module: its routes, its typed request models, its Guard and its
    ``AppContext`` (``app.state.ctx``), as a person's browser meets them."""
    from .helpers import make_client

    with make_client(str(tmp_path_factory.mktemp("app"))) as client:
        yield client
