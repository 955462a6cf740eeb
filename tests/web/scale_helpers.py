"""Real processes for the scaled-mode tests: ``asobiba serve --redis`` web processes and
``asobiba worker`` bot workers, started as an operator would (the CLI), each in its own
session so a test can kill -9 it; and a small blocking WebSocket client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120.0  # a loaded 2-core CI machine imports slowly
WAIT = 60.0            # the longest a test waits for one expected message


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """One ``asobiba`` command in its own process group, output in a log file."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.args = args
        self.log = log
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "ASOBIBA_BOT_DELAY": "0",
                    **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Proc:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "asobiba.cli.main", *self.args],
                                         cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for_output(self, text: str, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.output():
                return
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.args[0]} exited ({self.proc.returncode}):\n"
                                   f"{self.output()[-3000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"{self.args[0]} did not print {text!r} within {timeout:g} s:\n"
                           f"{self.output()[-3000:]}")

    def kill9(self) -> None:
        """kill -9 of the process and everything it started (its bot processes)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill9()


class Web(Proc):
    """``asobiba serve --db … --redis …`` on a free port."""

    def __init__(self, db: str, redis: str | None, log: Path, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        args = ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", db]
        if redis:
            args += ["--redis", redis]
        super().__init__(args, log, env)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Web:
        super().start()
        self.wait_for_output(f"serving on http://127.0.0.1:{self.port}/")
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"{self.http}/api/games", timeout=5).status_code == 200:
                    return self
            except httpx2.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the web process did not answer:\n{self.output()[-3000:]}")


class Worker(Proc):
    def __init__(self, db: str, redis: str, log: Path, processes: int = 1,
                 time_limit: float = 10.0) -> None:
        super().__init__(["worker", "--db", db, "--redis", redis, "--processes",
                          str(processes), "--time-limit", str(time_limit)], log)

    def start(self) -> Worker:
        super().start()
        self.wait_for_output("taking jobs")
        return self


class Client:
    """A blocking WebSocket client of one room at one web process."""

    def __init__(self, web: Web, room: str, keys: list[dict[str, Any]] | None = None,
                 cookie: str | None = None) -> None:
        headers = {"Cookie": cookie} if cookie else None  # a signed-in page (chat)
        self.ws: ClientConnection = connect(f"{web.ws}/ws/{room}", open_timeout=WAIT, legacy=True,
                                            additional_headers=headers)
        self.last: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []
        self._n = 0
        if keys is not None:
            self.request({"type": "hello", "seats": keys})

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(msg)
        if msg.get("type") == "update":
            self.last = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
              ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message within {timeout:g} s; last "
                                     f"update: {self.last and self.last['room']['ply']}")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def request(self, msg: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """Send with an id; the ack or error answering it. Asked to slow down (``too_fast``:
        a connection may send 10 messages a second after a burst of 30, and a test client
        playing a whole game as fast as the processes answer can exceed that), it waits
        and sends again, as a polite client does — nothing was done with the refused one."""
        deadline = time.monotonic() + timeout
        while True:
            self._n += 1
            ref = f"r{self._n}"
            self.ws.send(json.dumps({**msg, "id": ref}))
            reply = self.until(lambda m, ref=ref: m.get("id") == ref
                               and m["type"] in ("ack", "error"),
                               max(0.1, deadline - time.monotonic()))
            if reply.get("code") != "too_fast" or time.monotonic() > deadline:
                return reply
            time.sleep(0.2)

    def ply(self) -> int:
        assert self.last is not None
        return int(self.last["room"]["ply"])

    def wait_ply(self, ply: int, timeout: float = WAIT) -> dict[str, Any]:
        if self.last is not None and self.ply() >= ply:
            return self.last
        return self.until(lambda m: m.get("type") == "update" and m["room"]["ply"] >= ply,
                          timeout)

    def wait_status(self, status: str, timeout: float = WAIT) -> dict[str, Any]:
        if self.last is not None and self.last["room"]["status"] == status:
            return self.last
        return self.until(lambda m: m.get("type") == "update"
                          and m["room"]["status"] == status, timeout)

    def legal(self, seat: int) -> list[str]:
        assert self.last is not None
        for v in self.last["views"]:
            if v["seat"] == seat:
                return list(v["view"]["legal_moves"])
        return []

    def close(self) -> None:
        self.ws.close()


def create_room(web: Web, body: dict[str, Any]) -> dict[str, Any]:
    res = httpx2.post(f"{web.http}/api/rooms", json=body, timeout=WAIT)
    assert res.status_code == 201, res.text
    return dict(res.json())


def keys_for(room: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [k for k in room["keys"] if k["seat"] == seat]


@contextmanager
def web_pair(db_url: str, redis_url: str | None, tmp_path: Path,
             env: dict[str, str]) -> Iterator[tuple[Web, Web]]:
    """Two ``asobiba serve --redis`` processes on one database and one Redis (or, without
    ``redis_url``, two processes sharing only the database), stopped after."""
    procs: list[Web] = []
    try:
        procs.append(Web(db_url, redis_url, tmp_path / "a.log", env=env).start())
        procs.append(Web(db_url, redis_url, tmp_path / "b.log", env=env).start())
        yield procs[0], procs[1]
    finally:
        for p in procs:
            p.stop()


def eventually(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``check()``'s first true value within ``timeout`` seconds (polled every 0.1 s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout:g} s: {what}")


def shows(c: Client, pred: Callable[[dict[str, Any]], bool]) -> None:
    """Wait until the client's latest update satisfies ``pred`` (it may already)."""
    if c.last is not None and pred(c.last):
        return
    c.until(lambda m: m.get("type") == "update" and pred(m))
