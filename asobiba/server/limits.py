"""Abuse limits: one rate limiter for the whole server (docs/fair-play.md, "Abuse limits").

Each limit is a named rule — at most ``tries`` hits per key in a sliding ``window`` of
seconds — checked by :meth:`Limits.hit`. The counts live in a :class:`LimitStore`; the
in-memory one serves a single process, and a shared store (e.g. Redis, for several web
processes) plugs in by implementing the same one method. The scale helper's room-creation
limit and every HTTP and WebSocket limit go through here.

The client's address comes from :func:`client_ip`: the socket's peer, or the
``X-Forwarded-For`` entry our proxy added only when the server runs with ``--trust-proxy``
and the peer is one of the listed proxies (otherwise anyone could claim any address and
dodge every per-address limit, or lock others out).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import itertools
import os
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar, TypeVarTuple

from starlette.types import Scope

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


@dataclass(frozen=True)
class Rule:
    tries: int
    window: float  # seconds


RULES: dict[str, Rule] = {
    # argon2id costs ~0.3 s of a core: registrations are the dearest request we serve
    "register": Rule(5, 600.0),
    # per (address, name): an attacker elsewhere cannot lock the real owner out
    "login": Rule(5, 60.0),
    # per address over all names: slows a sweep of many names from one place
    "login_ip": Rule(30, 60.0),
    "guest": Rule(20, 600.0),
    "room": Rule(30, 60.0),
    "replay": Rule(20, 60.0),
    "replay_page": Rule(60, 60.0),  # the next pages of a long record (?start= > 0)
    "review": Rule(6, 60.0),
    "feedback": Rule(30, 60.0),
    "ws": Rule(60, 60.0),  # new WebSocket connections per address
    "print": Rule(20, 60.0),  # PDFs rendered (not served from the cache) per address
    # daily challenges: answers graded (each one tells how many were right) and rooms
    # opened, per address — only an account's first attempt a day counts anyway
    "daily_answer": Rule(10, 600.0),
    "daily_play": Rule(20, 600.0),
    # the Bot API (server/bot_api.py, docs/bot-api.md)
    "token": Rule(10, 600.0),  # API tokens made, per account
    "bot_api": Rule(600, 60.0),  # Bot API requests, per token
    "bot_auth": Rule(30, 60.0),  # requests with a missing or unknown token, per address
    "challenge": Rule(20, 60.0),  # challenges to BOT accounts, per address
    # a player's game history (server/history_routes.py): pages of the list, and exports —
    # one export is a zip of up to 500 games, each replayed for its text notation
    "history": Rule(120, 60.0),
    "history_export": Rule(6, 600.0),
    # the opening explorer (server/explorer_routes.py): one position per request, a board
    # walked move by move asks often
    "explorer": Rule(120, 60.0),
}
WS_CONCURRENT = 64
"""Open WebSocket connections per address at once."""

MAX_RECORD_BYTES = 2_000_000
"""The largest record ``/api/replay`` and ``/api/review`` take (413 ``too_large``)."""
MAX_RECORD_PLIES = 2_000
"""The most moves in a record they take (413 ``too_long``): three times the longest game
the platform's largest board allows (Memory Matrix on 26×26 cells, ~700 plies)."""

# Bytes of ``history`` pages (the WebSocket message) a second, and the burst, per connection
# and per address: a page costs what it weighs, so a long room's history is no cheaper to
# flood than a short one's (docs/fair-play.md, "Abuse limits": the cost model).
HISTORY_CONN_RATE, HISTORY_CONN_BURST = 256 * 1024, 1024 * 1024
HISTORY_ADDRESS_RATE, HISTORY_ADDRESS_BURST = 1024 * 1024, 4 * 1024 * 1024


class ByteBucket:
    """A token bucket of bytes: ``rate`` a second, at most ``burst`` saved up. A request is
    served while the bucket is not in debt (:meth:`wait` is 0) and then pays what it sent
    (:meth:`spend`, which may go below zero): the size of an answer is known only once it is
    built, and building it must not be the price of finding out it is refused."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, now

    def wait(self, now: float) -> float:
        """Seconds until a request may be served (0: now)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return 0.0 if self.tokens > 0 else -self.tokens / self.rate + 1e-3

    def spend(self, n: int) -> None:
        self.tokens -= n


class ByteBuckets:
    """One :class:`ByteBucket` per key (an address), in this process; full ones are dropped
    (a full bucket is the same as none)."""

    def __init__(self, rate: int, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, ByteBucket] = {}
        self._swept = 0.0

    def _bucket(self, key: str, now: float) -> ByteBucket:
        if now - self._swept > 60:
            self._swept = now
            for k in [k for k, b in self._buckets.items() if b.wait(now) == 0
                      and b.tokens >= b.burst]:
                del self._buckets[k]
        got = self._buckets.get(key)
        if got is None:
            got = self._buckets[key] = ByteBucket(self.rate, self.burst, now)
        return got

    def wait(self, key: str, now: float) -> float:
        return self._bucket(key, now).wait(now)

    def spend(self, key: str, n: int) -> None:
        self._bucket(key, time.monotonic()).spend(n)


class LimitStore(Protocol):
    def hit(self, key: str, window: float, tries: int, now: float) -> bool:
        """Count one hit on ``key`` if fewer than ``tries`` fell in the last ``window``
        seconds; return whether it was allowed (a refused hit is not counted)."""


class MemoryStore:
    """Sliding windows in this process's memory (thread-safe; old keys are dropped)."""

    def __init__(self) -> None:
        self._seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._sweep = 0.0

    def hit(self, key: str, window: float, tries: int, now: float) -> bool:
        with self._lock:
            if now - self._sweep > 60:
                self._forget(now)
            q = self._seen[key]
            while q and now - q[0] > window:
                q.popleft()
            if len(q) >= tries:
                return False
            q.append(now)
            return True

    def _forget(self, now: float) -> None:
        self._sweep = now
        for key in [k for k, q in self._seen.items() if not q or now - q[-1] > 3600]:
            del self._seen[key]


class Limits:
    """The server's limits: ``hit(rule, *key_parts)`` is True when allowed."""

    def __init__(self, store: LimitStore | None = None,
                 rules: dict[str, Rule] | None = None, scale: float = 1.0,
                 ws_concurrent: int = 0) -> None:
        """``scale`` multiplies every rule's tries (``ASOBIBA_LIMIT_SCALE``: a test harness
        whose many clients all come from 127.0.0.1, or a server behind a NAT);
        ``ws_concurrent``: open WebSockets per address (0: :data:`WS_CONCURRENT`)."""
        self.store: LimitStore = store or MemoryStore()
        self.ws_concurrent = ws_concurrent or WS_CONCURRENT
        self.rules = {name: Rule(max(1, round(r.tries * scale)), r.window)
                      for name, r in (RULES if rules is None else rules).items()}
        self.open_ws: dict[str, int] = defaultdict(int)
        self.history_bytes = ByteBuckets(round(HISTORY_ADDRESS_RATE * scale),
                                         round(HISTORY_ADDRESS_BURST * scale))
        """``history`` bytes per address (in this process: a connection is served by one)."""

    def hit(self, rule: str, *key: str) -> bool:
        r = self.rules[rule]
        return self.store.hit(":".join((rule, *key)), r.window, r.tries, time.monotonic())

    async def ahit(self, rule: str, *key: str) -> bool:
        """:meth:`hit` for the event loop — what every HTTP route awaits. A shared store
        (Redis) is asked in a worker thread (:meth:`_off_loop`): a slow or paused Redis then
        delays only the limited requests, never the WebSockets and other requests of the
        process. The in-process store is called directly (no thread hop)."""
        if getattr(self.store, "blocking", False):
            return await self._off_loop(self.hit, rule, *key)
        return self.hit(rule, *key)

    async def _off_loop(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in the store's own threads (``executor``) when it has them, else the
        loop's default ones. Its own: the default threads also load rooms, and a Redis that
        answers slowly must not hold those up too."""
        executor = getattr(self.store, "executor", None)
        return await asyncio.get_running_loop().run_in_executor(
            executor, functools.partial(fn, *args))

    # ---- WebSocket connections open at once ----------------------------------------------------
    def ws_open(self, ip: str) -> bool:
        """Count one more open WebSocket from ``ip`` unless it has ``ws_concurrent``
        open already — through every web process when the store is shared (Redis)."""
        shared = getattr(self.store, "ws_open", None)
        if shared is not None:
            got = shared(ip, self.ws_concurrent)
            if got is not None:
                return bool(got)
        if self.open_ws[ip] >= self.ws_concurrent:
            return False
        self.open_ws[ip] += 1
        return True

    async def ws_admit(self, ip: str) -> bool:
        """A new WebSocket from ``ip``: within the rate (``ws``) and the open-at-once cap.
        A shared store's round trips to Redis run in a worker thread, not on the event loop:
        a thousand clients reconnecting at once (a web process restarted) must not stop the
        moves of every other room while they are counted."""
        if getattr(self.store, "blocking", False):
            return await self._off_loop(self._ws_admit, ip)
        return self._ws_admit(ip)

    def _ws_admit(self, ip: str) -> bool:
        return self.hit("ws", ip) and self.ws_open(ip)

    async def ws_release(self, ip: str) -> None:
        """That WebSocket closed (:meth:`ws_closed`, off the event loop for a shared store)."""
        if getattr(self.store, "blocking", False) and ip not in self.open_ws:
            await self._off_loop(self.ws_closed, ip)
        else:
            self.ws_closed(ip)

    def ws_closed(self, ip: str) -> None:
        if ip not in self.open_ws:  # counted in the shared store
            shared = getattr(self.store, "ws_closed", None)
            if shared is not None:
                shared(ip)
            return
        self.open_ws[ip] -= 1
        if self.open_ws[ip] <= 0:
            del self.open_ws[ip]


LOOPBACK: tuple[str, ...] = ("127.0.0.1", "::1")
"""The proxies trusted by ``--trust-proxy`` without ``--proxy-ips``: one on this machine."""


def _forwarded(scope: Scope, name: bytes) -> list[str]:
    """Every comma-separated entry of header ``name`` (all its copies, in order)."""
    return [part.strip() for k, v in scope.get("headers") or () if k == name
            for part in v.decode("latin-1").split(",")]


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def client_ip(scope: Scope, proxies: Collection[str] = ()) -> str:
    """The client's address: the socket's peer — or, when that peer is one of ``proxies``
    (``--trust-proxy``, ``--proxy-ips``), the rightmost ``X-Forwarded-For`` entry that is
    not itself one of them (the address our own proxies saw; entries left of it were
    written by the client and prove nothing). Without trusted proxies the header is never
    read: anyone could claim any address and dodge every per-address limit."""
    peer = _peer(scope)
    if not proxies or peer not in proxies:
        return peer
    for entry in reversed(_forwarded(scope, b"x-forwarded-for")):
        if entry in proxies:
            continue
        try:
            return str(ipaddress.ip_address(entry))
        except ValueError:
            return peer  # not an address: the proxy did not write it
    return peer


def forwarded_scheme(scope: Scope, proxies: Collection[str] = ()) -> str:
    """``http`` or ``https``: the request's own scheme, or the ``X-Forwarded-Proto`` a
    trusted proxy sent (a proxy that ends TLS talks plain HTTP to us)."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                                 scope.get("scheme", "http"))
    if proxies and _peer(scope) in proxies:
        told = _forwarded(scope, b"x-forwarded-proto")
        if told and told[-1].lower() in ("http", "https"):
            return told[-1].lower()
    return str(scheme)


__all__ = ["LOOPBACK", "RULES", "ByteBucket", "ByteBuckets", "LimitStore", "Limits",
           "MemoryStore", "Rule", "client_ip", "forwarded_scheme"]


_SLIDING_WINDOW = """
local key, now, window, tries = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= tries then return 0 end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return 1
"""


_WS_OPEN = """
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if fields[i] == ARGV[1] or redis.call('EXISTS', 'asobiba:alive:' .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
"""
_WS_CLOSED = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""
ALIVE_EVERY, ALIVE_TTL = 5.0, 20
"""A web process refreshes its liveness key every ALIVE_EVERY s; it expires after ALIVE_TTL s."""


class RedisStore:
    """The same sliding windows in Redis, shared by every web process of the scaled mode (so
    N processes do not allow N times the rate). One atomic script per hit (a sorted set per
    key, expiring with its window). If Redis is unreachable the process counts on its own
    (:class:`MemoryStore`) until it is back: a limit must not lock everyone out."""

    blocking = True
    """Its calls wait on Redis: :class:`Limits` runs them off the event loop, in
    :attr:`executor` (every HTTP limit and the WebSocket admission)."""
    THREADS = 4
    """Threads asking Redis at once. A stalled Redis (each call waits up to the 0.5 s socket
    timeout, then counts in this process) queues the limited requests here, not the room
    loads and other work of the loop's default threads."""

    def __init__(self, url: str, timeout: float = 0.5) -> None:
        """``timeout``: the longest one call waits for Redis before counting here instead."""
        import redis

        # named: ``CLIENT LIST`` shows which connections count the limits
        self._redis = redis.Redis.from_url(url, socket_timeout=timeout,
                                           socket_connect_timeout=timeout,
                                           client_name="asobiba-limits")
        self._script = self._redis.register_script(_SLIDING_WINDOW)
        self._ws_open = self._redis.register_script(_WS_OPEN)
        self._ws_closed = self._redis.register_script(_WS_CLOSED)
        self._local = MemoryStore()
        self._n = itertools.count(1)  # next() is atomic: hits come from several threads
        self.executor = ThreadPoolExecutor(self.THREADS, thread_name_prefix="asobiba-limits")
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._alive_at = 0.0
        self._lock = threading.Lock()

    # ---- open WebSockets per address, counted over every web process ----------------------
    # One hash per address: web process → its open WebSockets from there. A process keeps a
    # liveness key (asobiba:alive:<process>, refreshed while it counts, expiring ALIVE_TTL s
    # after it stops); counting drops the entries of processes whose key is gone, so a
    # process killed with its sockets open does not hold their places for ever.
    def _alive(self) -> None:
        now = time.monotonic()
        if now - self._alive_at >= ALIVE_EVERY:
            self._redis.set(f"asobiba:alive:{self.origin}", 1, ex=ALIVE_TTL)
            self._alive_at = now

    def keep_alive(self) -> None:
        """Refresh the liveness key now (the app calls this every ALIVE_EVERY seconds)."""
        with self._lock:
            self._alive_at = 0.0
            with contextlib.suppress(Exception):
                self._alive()

    def ws_open(self, ip: str, cap: int) -> bool | None:
        """Count one open WebSocket from ``ip`` unless ``cap`` are open through all
        processes; None if Redis is away (the caller counts in this process meanwhile)."""
        with self._lock:
            try:
                self._alive()
                return bool(self._ws_open(keys=[f"asobiba:ws:{ip}"], args=[self.origin, cap]))
            except Exception:  # noqa: BLE001 - Redis away
                return None

    def ws_closed(self, ip: str) -> None:
        with self._lock, contextlib.suppress(Exception):
            self._ws_closed(keys=[f"asobiba:ws:{ip}"], args=[self.origin])

    def hit(self, key: str, window: float, tries: int, now: float) -> bool:
        n = next(self._n)
        try:
            # wall-clock time: the processes' monotonic clocks are not comparable
            return bool(self._script(keys=[f"asobiba:limit:{key}"],
                                     args=[time.time(), window, tries,
                                           f"{time.time()}:{self.origin}:{n}"]))
        except Exception:  # noqa: BLE001 - Redis away: count here meanwhile
            return self._local.hit(key, window, tries, now)
