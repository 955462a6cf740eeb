"""Throwaway PostgreSQL and Redis servers for the tests and benchmarks of the scaled mode:
Debian's own server binaries, started in a temporary directory on free ports (PostgreSQL on
a unix socket only, Redis on 127.0.0.1), removed when stopped. Never a fake."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


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
        self.start_server()

    def start_server(self) -> None:
        """Start the server on the existing cluster (again, after ``stop_server``)."""
        opts = f"-k {self.base} -p {self.port} -c listen_addresses=''"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.base / "server.log"), "-w", "-t", "120", "-o", opts, "start")

    def stop_server(self) -> None:
        """Stop the server at once (an outage), keeping the cluster for ``start_server``."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                  "-w", "stop", timeout=60)

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


class RedisServer:
    """``redis-server`` on a free 127.0.0.1 port, no persistence, in a temporary directory.
    ``restart`` keeps the port (clients reconnect to the same URL)."""

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary or shutil.which("redis-server") or "/usr/bin/redis-server"
        self.base = Path(tempfile.mkdtemp(prefix="asobiba-redis-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.base), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start within 60 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        try:
            self.kill()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
