"""The browser-side and transport defences, in one pure-ASGI middleware (docs/web.md,
"Security"):

* **Cross-site requests.** A state-changing request (POST, PUT, PATCH, DELETE) whose
  ``Origin`` is not this server's, or that a browser marks ``Sec-Fetch-Site: cross-site``,
  is refused (403 ``bad_origin``); so is a body that is not ``application/json`` (415
  ``bad_content_type``) — an HTML form can send neither, which closes login CSRF. Requests
  without ``Origin`` (curl, the CLI, scripts) are not browsers' and pass.
* **WebSocket Origin.** A WebSocket handshake from another origin is refused (HTTP 403).
* **Origins match in scheme and host.** ``https://host`` is not the origin of a server
  answering ``http://host`` (behind a trusted proxy, its ``X-Forwarded-Proto`` is the scheme).
* **Host names.** A request (HTTP or WebSocket) whose ``Host`` is not one of the allowed
  hosts is refused (400 ``bad_host``) before anything else: a page on another site whose
  name was re-pointed at this server's address (DNS rebinding) sends its own name.
* **Bodies limited while streaming.** ``Content-Length`` over the path's limit is refused
  before reading; a chunked body is read only up to the limit (413 ``too_large``).
* **Security headers** on every response: a CSP without inline script, ``frame-ancestors
  'none'``, ``Referrer-Policy``, ``X-Content-Type-Options``.
* **No control characters** (:mod:`asobiba.core.text`): a path or query holding one
  (``%00``, CR, LF, …), or a JSON body with one in any string, is refused (400
  ``bad_text``, with ``args`` naming where and which) before any route or database sees it.
* The client's address (:func:`limits.client_ip`: ``X-Forwarded-For`` only with
  ``--trust-proxy`` and only from the listed proxies) is put in
  ``scope["state"]["client_ip"]`` for the rate limits.

:func:`parse_json` is the one JSON reader for request bodies and WebSocket messages: depth
and integer size are bounded, so hostile JSON is a 400, never a 500.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Collection, Iterable
from typing import NoReturn
from urllib.parse import unquote, urlsplit

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.jsontypes import JSONDecoded
from ..core.text import TextError, bad_char
from .limits import LOOPBACK, client_ip, forwarded_scheme

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; img-src 'self' data: blob:; "
     b"style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; "
     b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOCAL_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")
"""The hosts (any port) an app made without ``allowed_hosts`` answers. ``asobiba serve``
passes its own list (:func:`default_allowed_hosts`); the test suite adds Starlette's test
client's ``testserver`` here (tests/conftest.py), production never does."""
BIG_BODY = 64_000
"""A body over this many bytes is scanned for control characters in a worker thread."""
MAX_DEPTH = 32
MAX_INT_DIGITS = 18  # every integer the API takes fits in 64 bits


class BadJSON(ValueError):
    """A request body or message that is not acceptable JSON (the message says why)."""


def _depth_ok(text: str, limit: int) -> bool:
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadJSON(f"numbers may have at most {MAX_INT_DIGITS} digits")
    return int(text)


def _no_constant(name: str) -> NoReturn:
    raise BadJSON(f"{name} is not JSON")


# one decoder for every request and message: json.loads with hooks builds a new one per call
_DECODER = json.JSONDecoder(parse_int=_int, parse_constant=_no_constant)


def parse_json(raw: bytes | str, empty: JSONDecoded = None) -> JSONDecoded:
    """Strict JSON: at most MAX_DEPTH nested arrays/objects, integers of at most
    MAX_INT_DIGITS digits, no NaN/Infinity. ``empty`` is returned for an empty body."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise BadJSON("the body is not UTF-8 text") from None
    if not text.strip():
        if empty is not None:
            return empty
        raise BadJSON("the body is empty; send a JSON object")
    # the character scan only when there are enough brackets to nest that deep at all
    if text.count("[") + text.count("{") > MAX_DEPTH and not _depth_ok(text, MAX_DEPTH):
        raise BadJSON(f"JSON may nest at most {MAX_DEPTH} levels deep")
    try:
        return _DECODER.decode(text)
    except BadJSON:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadJSON(f"the body is not valid JSON ({str(exc)[:80]})") from None


def error_body(code: str, message: str, args: dict[str, str] | None = None) -> bytes:
    error: dict[str, object] = {"code": code, "message": message}
    if args:
        error["args"] = args
    return json.dumps({"error": error}).encode()


_ESCAPE = re.compile(r"(\\+)u(00[01][0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]"
                     r"|[dD][89a-fA-F][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?")
"""A ``\\u`` escape of a control character or a surrogate half (with the low half after a
high one, which makes one character). It begins with its run of backslashes — a literal
the expression engine scans for quickly — and counts only when the run is odd (an even one
is escaped backslashes followed by plain text)."""


def json_text_error(raw: bytes | str, where: str = "body") -> TextError | None:
    """A control character (or unpaired surrogate) in JSON text, literal or escaped
    (``\\u0000``), as the refusal to give; None when there is none. Two scans of the text
    by regular expressions, no parsing, and the second only when the text holds an escape
    that could matter (``\\u00…``, ``\\ud…``): 2 MB of Japanese escaped by a script's JSON
    costs milliseconds. (The Guard checks a body over :data:`BIG_BODY` bytes in a worker
    thread.) Whether it is JSON at all is the reader's business."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        return None
    ch = bad_char(text)
    if ch is not None:
        return TextError(where, ch)
    # only escapes \u00XX (controls) and \uDXXX (surrogates) can matter: most text (and
    # Japanese, escaped) has neither, and "in" finds that at C speed
    if "\\u00" not in text and "\\ud" not in text and "\\uD" not in text:
        return None
    for found in _ESCAPE.finditer(text):
        if len(found.group(1)) % 2 == 0:  # plain text "uXXXX" after escaped backslashes
            if found.group(3):  # ... then an escaped low half, alone
                return TextError(where, chr(int(found.group(3)[2:], 16)))
            continue
        code = int(found.group(2), 16)
        if code in (0x09, 0x0A, 0x0D):
            continue
        if 0xD800 <= code <= 0xDBFF and found.group(3):
            continue  # a high half with its low half: one character
        return TextError(where, chr(code))
    return None


def url_text_error(scope: Scope) -> TextError | None:
    """A control character (tab, CR and LF included) in the path or the decoded query."""
    ch = bad_char(scope.get("path", ""), url=True)
    if ch is not None:
        return TextError("path", ch)
    query = (scope.get("query_string") or b"").decode("latin-1")
    if query:
        ch = bad_char(unquote(query.replace("+", " ")), url=True)
        if ch is not None:
            return TextError("query", ch)
    return None


def default_allowed_hosts(host: str, port: int) -> list[str]:
    """What ``asobiba serve --host H --port P`` answers without ``--allowed-hosts``: the
    address it listens on and the loopback names, each with the port (and without it on
    port 80); listening on every interface adds this machine's host name."""
    names = {"localhost", "127.0.0.1", "[::1]"}
    if host in ("0.0.0.0", "::", ""):
        names.add(socket.gethostname().lower())
    else:
        names.add(f"[{host.lower()}]" if ":" in host else host.lower())
    out = {f"{n}:{port}" for n in names} | (names if port == 80 else set())
    return sorted(out)


def parse_hosts(spec: str | Iterable[str]) -> list[str]:
    """``a.example,b.example:8000`` (or a list of them) as the allowed-hosts list."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    return [h.strip().lower() for h in items if h.strip()]


def host_allowed(host: str | None, allowed: Collection[str]) -> bool:
    """Whether a ``Host`` header names this server: an entry ``name:port`` matches exactly,
    an entry ``name`` matches it on any port, ``*`` matches everything."""
    if "*" in allowed:
        return True
    if not host:
        return False
    host = host.lower()
    if host in allowed:
        return True
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]
    return name != host and name in allowed


def _same_origin(origin: str, scope: Scope, scheme: str) -> bool:
    """``origin`` is this server's: the same scheme (``http``/``https``) and host."""
    host = _header(scope, b"host")
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return (bool(host) and parts.scheme == scheme
            and parts.netloc.lower() == (host or "").lower())


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k == name:
            return str(v.decode("latin-1"))
    return None


class Guard:
    """See the module docstring. ``body_limits`` maps a path prefix to its byte limit
    (longest prefix wins); ``default_limit`` for every other path. ``trust_proxy``: honour
    ``X-Forwarded-For``/``-Proto`` from the peers in ``proxy_ips`` (default: loopback);
    ``allowed_hosts``: the ``Host`` names answered (default :data:`LOCAL_HOSTS`)."""

    def __init__(self, app: ASGIApp, trust_proxy: bool = False, default_limit: int = 64_000,
                 body_limits: dict[str, int] | None = None,
                 proxy_ips: Iterable[str] | None = None,
                 allowed_hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.proxies: frozenset[str] = frozenset(
            (LOOPBACK if proxy_ips is None else proxy_ips) if trust_proxy else ())
        self.allowed_hosts = frozenset(parse_hosts(
            LOCAL_HOSTS if allowed_hosts is None else allowed_hosts))
        self.default_limit = default_limit
        self.body_limits = sorted((body_limits or {}).items(), key=lambda kv: -len(kv[0]))

    def limit_for(self, path: str) -> int:
        return next((n for prefix, n in self.body_limits if path.startswith(prefix)),
                    self.default_limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not host_allowed(_header(scope, b"host"), self.allowed_hosts):
            await self._refuse_ws_or_http(scope, send, 400, "bad_host",
                                          "this server does not answer to that host name")
            return
        bad = url_text_error(scope)
        if bad is not None:
            await self._refuse_ws_or_http(scope, send, 400, bad.code, str(bad), bad.args_json)
            return
        scope.setdefault("state", {})["client_ip"] = client_ip(scope, self.proxies)
        scheme = forwarded_scheme(scope, self.proxies)
        origin = _header(scope, b"origin")
        if scope["type"] == "websocket":
            if origin is not None and not _same_origin(origin, scope, scheme):
                await send({"type": "websocket.close", "code": 4403,
                            "reason": "cross-origin WebSocket refused"})
                return
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers") or []) + SECURITY_HEADERS
            await send(message)

        if scope["method"] not in UNSAFE:
            await self.app(scope, receive, send_with_headers)
            return
        fetch_site = _header(scope, b"sec-fetch-site")
        if ((origin is not None and not _same_origin(origin, scope, scheme))
                or fetch_site == "cross-site"):
            await self._refuse(send_with_headers, 403, "bad_origin", "cross-site requests "
                               "that change anything are refused")
            return
        limit = self.limit_for(scope["path"])
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(send_with_headers, 413, "too_large",
                               f"the request is larger than {limit} bytes")
            return
        body = bytearray()
        while True:  # read at most limit + 1 bytes, however the body is sent
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(send_with_headers, 413, "too_large",
                                   f"the request is larger than {limit} bytes")
                return
            if not message.get("more_body"):
                break
        ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if body and ctype != "application/json":
            await self._refuse(send_with_headers, 415, "bad_content_type",
                               "send the body as JSON with Content-Type: application/json")
            return
        bad = None
        if len(body) > BIG_BODY:  # a 2 MB record: off the event loop
            bad = await anyio.to_thread.run_sync(json_text_error, bytes(body))
        elif body:
            bad = json_text_error(bytes(body))
        if bad is not None:
            await self._refuse(send_with_headers, 400, bad.code, str(bad), bad.args_json)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)

    @staticmethod
    async def _refuse_ws_or_http(scope: Scope, send: Send, status: int, code: str,
                                 message: str, args: dict[str, str] | None = None) -> None:
        """The refusal as an HTTP answer — for a WebSocket, the answer to its handshake
        where the server can send one (ASGI's denial response), else a close before
        accepting (4000 + status)."""
        if scope["type"] == "http":
            await Guard._refuse(send, status, code, message, args)
        elif "websocket.http.response" in (scope.get("extensions") or {}):
            payload = error_body(code, message, args)
            await send({"type": "websocket.http.response.start", "status": status, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode())]})
            await send({"type": "websocket.http.response.body", "body": payload})
        else:
            await send({"type": "websocket.close", "code": 4000 + status, "reason": code})

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, message: str,
                      args: dict[str, str] | None = None) -> None:
        payload = error_body(code, message, args)
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode())]})
        await send({"type": "http.response.body", "body": payload})


__all__ = ["LOCAL_HOSTS", "SECURITY_HEADERS", "BadJSON", "Guard", "default_allowed_hosts",
           "error_body", "host_allowed", "json_text_error", "parse_hosts", "parse_json",
           "url_text_error"]
