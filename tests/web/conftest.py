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

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _server_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding initdb and pg_ctl (Debian's
    layout), else a directory on PATH that has them."""
    found = []
    for d in Path("/usr/lib/postgresql").glob("*/bin"):
        if (d / "initdb").exists() and (d / "pg_ctl").exists():
            try:
                found.append((int(d.parent.name), d))
            except ValueError:
                continue
    if found:
        return max(found)[1]
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """A PostgreSQL cluster in a temporary directory; the server refuses to run as root,
    so as root every command runs as the ``postgres`` user."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.base = Path(tempfile.mkdtemp(prefix="asobiba-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.user = "postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        else:
            self.user = os.environ.get("USER") or "postgres"

    def _run(self, *args: str, timeout: float = 120) -> None:
        proc = subprocess.run([*self._as, *args], capture_output=True, text=True,
                              timeout=timeout, cwd=self.base)
        if proc.returncode:
            log = self.base / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}):\n"
                               f"{proc.stdout}\n{proc.stderr}\n{tail}")

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user,
                  "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions")
        opts = f"-k {self.base} -p {self.port} -c listen_addresses=''"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.base / "server.log"), "-w", "-t", "120", "-o", opts, "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "-w", "stop", timeout=60)
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str) -> str:
        return (f"postgresql+psycopg://{self.user}@/{database}"
                f"?host={self.base}&port={self.port}")

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        import psycopg

        name = "asobiba_" + secrets.token_hex(6)
        with psycopg.connect(host=str(self.base), port=self.port, user=self.user,
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A real ``asobiba serve`` process per test module, on its own data directory."""
    from .browser import Server

    srv = Server(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])).start()
    yield srv
    srv.stop()
