"""Issue 25 item 6: proxies and host names (docs/fair-play.md, "Transport and browser
defences").

The attacks, each measured on the old main: ``X-Forwarded-For`` rotated on every request
bought 40 of 40 password guesses (5 otherwise) and 40 of 40 rooms from a server started
without ``--trust-proxy`` — uvicorn's own default (``proxy_headers=True``, trusting
127.0.0.1) rewrote the client's address before the app saw it, so those tests run against a
real ``asobiba serve`` process; a forged ``Host`` with a matching ``Origin`` (DNS
rebinding) created a room; an ``https`` Origin was taken as an ``http`` server's own."""

from __future__ import annotations

import base64
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from asobiba.server import create_app

from .browser import Server

PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``asobiba.server.run`` under uvicorn, with the production limits (scale 1) and no
    proxy trusted."""
    srv = Server(tmp_path_factory.mktemp("hosts"),
                 env={"ASOBIBA_LIMIT_SCALE": "1", "ASOBIBA_TRUST_PROXY": "",
                      "ASOBIBA_PROXY_IPS": "", "ASOBIBA_ALLOWED_HOSTS": "",
                      "ASOBIBA_WS_PER_ADDRESS": "3"}).start()
    with httpx2.Client(base_url=srv.url, timeout=60) as http:  # before the room limit's test
        srv.room = http.post(  # type: ignore[attr-defined]
            "/api/rooms", json={"game": "reversi", "seats": PEOPLE}).json()["room"]
    yield srv
    srv.stop()


def code(res: Any) -> str:
    return str(res.json()["error"]["code"])


def test_rule_forwarded_for_through_uvicorn_buys_no_extra_guesses(real: Server) -> None:
    with httpx2.Client(base_url=real.url, timeout=60) as http:
        codes = [http.post("/api/account/login", json={"name": "victim", "password": "no"},
                           headers={"x-forwarded-for": f"10.1.{i}.{i + 1}"}).status_code
                 for i in range(8)]
    assert codes[:5] == [401] * 5, codes
    assert codes[5:] == [429] * 3, f"a rotated X-Forwarded-For bought more guesses: {codes}"


def test_rule_forwarded_for_through_uvicorn_buys_no_extra_rooms(real: Server) -> None:
    with httpx2.Client(base_url=real.url, timeout=60) as http:
        codes = [http.post("/api/rooms", json={"game": "reversi", "seats": PEOPLE},
                           headers={"x-forwarded-for": f"10.2.{i}.{i + 1}"}).status_code
                 for i in range(34)]
    # 30 a minute from one address; the fixture made one of them
    assert codes.count(201) == 29 and codes[29:] == [429] * 5, codes


def test_rule_forwarded_for_through_uvicorn_buys_no_extra_websockets(real: Server) -> None:
    """Three open WebSockets per address here (ASOBIBA_WS_PER_ADDRESS): a fourth with yet
    another X-Forwarded-For is still the fourth from 127.0.0.1."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{real.port}/ws/{real.room}"  # type: ignore[attr-defined]
    opened = []
    try:
        for i in range(3):
            ws = connect(url, additional_headers={"x-forwarded-for": f"10.4.0.{i + 1}"},
                         open_timeout=60, legacy=True)
            opened.append(ws)
            assert '"update"' in str(ws.recv(timeout=60))
        with pytest.raises(InvalidStatus) as refused:
            connect(url, additional_headers={"x-forwarded-for": "10.4.0.9"}, open_timeout=60,
                    legacy=True)
        assert refused.value.response.status_code == 403
    finally:
        for ws in opened:
            ws.close()


def test_rule_a_forged_host_is_refused_over_http(real: Server) -> None:
    """DNS rebinding: a page on evil.example, its name re-pointed at 127.0.0.1, is
    same-origin with itself — Host and Origin agree, and both are its own name."""
    evil = f"evil.example:{real.port}"
    with httpx2.Client(base_url=real.url, timeout=60) as http:
        res = http.post("/api/rooms", json={"game": "reversi", "seats": PEOPLE},
                        headers={"host": evil, "origin": f"http://{evil}"})
        assert res.status_code == 400 and code(res) == "bad_host", res.text
        read = http.get("/api/games", headers={"host": evil})
        assert read.status_code == 400 and code(read) == "bad_host"
        # the server's own names still work, by address and as localhost
        assert http.get("/api/games").status_code == 200
        assert http.get("/api/games", headers={"host": f"localhost:{real.port}"}
                        ).status_code == 200
        # the right name on another port is another origin
        assert http.get("/api/games", headers={"host": "127.0.0.1:1"}).status_code == 400


def _handshake(port: int, host: str, path: str = "/ws/nosuchroom",
               origin: str | None = None) -> bytes:
    """A WebSocket opening handshake, raw: what uvicorn answers before any upgrade."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer or (answer.startswith(b"HTTP/1.1 4")
                                            and b"}" not in answer):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer


def test_rule_a_forged_host_is_refused_on_websockets(real: Server) -> None:
    refused = _handshake(real.port, f"evil.example:{real.port}")
    assert refused.startswith(b"HTTP/1.1 400"), refused[:200]
    assert b'"bad_host"' in refused
    ok = _handshake(real.port, f"127.0.0.1:{real.port}")
    assert ok.startswith(b"HTTP/1.1 101"), ok[:200]


def test_rule_an_https_origin_is_not_an_http_servers_own(real: Server) -> None:
    here = f"127.0.0.1:{real.port}"
    with httpx2.Client(base_url=real.url, timeout=60) as http:
        res = http.post("/api/account/guest", headers={"origin": f"https://{here}"})
        assert res.status_code == 403 and code(res) == "bad_origin", res.text
        assert http.post("/api/account/guest", headers={"origin": f"http://{here}"}
                         ).status_code == 201
    assert _handshake(real.port, here, origin=f"https://{here}").startswith(b"HTTP/1.1 403")


# ---- the rules themselves, in-process ------------------------------------------------------
def test_rule_forwarded_for_only_from_the_listed_proxies(tmp_path: Path) -> None:
    """``--trust-proxy`` honours the header only from ``--proxy-ips``: a client that reaches
    the server directly (peer ``testclient``, not the listed proxy) cannot use it."""
    guesses = {"name": "victim", "password": "wrong"}
    with TestClient(create_app(str(tmp_path / "a"), bot_processes=0, trust_proxy=True,
                               proxy_ips=["10.0.0.1"])) as c:
        codes = [c.post("/api/account/login", json=guesses,
                        headers={"x-forwarded-for": f"10.3.0.{i}"}).status_code
                 for i in range(7)]
        assert codes[5:] == [429, 429], codes
    with TestClient(create_app(str(tmp_path / "b"), bot_processes=0, trust_proxy=True,
                               proxy_ips=["testclient"])) as c:
        codes = [c.post("/api/account/login", json=guesses,
                        headers={"x-forwarded-for": f"10.3.0.{i}"}).status_code
                 for i in range(7)]
        assert codes == [401] * 7, "from the listed proxy, each forwarded address counts"


def test_rule_forwarded_proto_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    """Behind a proxy that ends TLS the browser's Origin is https: the proxy's
    X-Forwarded-Proto says so — from a listed proxy only."""
    proto = {"x-forwarded-proto": "https", "origin": "https://testserver"}
    with TestClient(create_app(str(tmp_path / "a"), bot_processes=0, trust_proxy=True,
                               proxy_ips=["testclient"])) as c:
        assert c.post("/api/account/guest", headers=proto).status_code == 201
        assert c.post("/api/account/guest", headers={"origin": "https://testserver"}
                      ).status_code == 403
    with TestClient(create_app(str(tmp_path / "b"), bot_processes=0)) as c:
        res = c.post("/api/account/guest", headers=proto)
        assert res.status_code == 403 and code(res) == "bad_origin"


def test_rule_allowed_hosts_are_configurable(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path), bot_processes=0,
                               allowed_hosts=["play.example"]),
                    base_url="http://play.example") as c:
        assert c.get("/api/games").status_code == 200
        res = c.get("/api/games", headers={"host": "testserver"})
        assert res.status_code == 400 and code(res) == "bad_host"
        room = c.post("/api/rooms", json={"game": "reversi", "seats": PEOPLE}).json()["room"]
        with c.websocket_connect(f"/ws/{room}", headers={"host": "play.example"}) as ws:
            assert ws.receive_json()["type"] == "update"
        with pytest.raises(WebSocketDenialResponse) as denied, c.websocket_connect(
                f"/ws/{room}", headers={"host": "evil.example"}) as ws:
            ws.receive_json()
        assert denied.value.status_code == 400 and code(denied.value) == "bad_host"


def test_the_default_hosts_of_serve() -> None:
    from asobiba.server.security import default_allowed_hosts, host_allowed

    hosts = default_allowed_hosts("127.0.0.1", 8000)
    assert {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"} <= set(hosts)
    assert not host_allowed("evil.example:8000", hosts)
    assert not host_allowed("localhost", hosts)  # port 80 is another server
    assert not host_allowed(None, hosts)
    assert host_allowed("LOCALHOST:8000", hosts)
    assert host_allowed("anything", ["*"])
    assert host_allowed("play.example:443", ["play.example"])
    assert "[::1]:8000" in default_allowed_hosts("::1", 8000)
