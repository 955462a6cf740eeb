"""Abuse limits: one rate limiter for the whole server (docs/fair-play.md, "Abuse limits").

Each limit is a named rule — at most ``tries`` hits per key in a sliding ``window`` of
seconds — checked by :meth:`Limits.hit`. The counts live in a :class:`LimitStore`; the
in-memory one serves a single process, and a shared store (e.g. Redis, for several web
processes) plugs in by implementing the same one method. The scale helper's room-creation
limit and every HTTP and WebSocket limit go through here.

The client's address comes from :func:`client_ip`: the socket's peer, or the last
``X-Forwarded-For`` entry only when the server runs with ``--trust-proxy`` (otherwise anyone
could claim any address and dodge every per-address limit, or lock others out).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
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
    "review": Rule(6, 60.0),
    "feedback": Rule(30, 60.0),
    "ws": Rule(60, 60.0),  # new WebSocket connections per address
    "print": Rule(20, 60.0),  # PDFs rendered (not served from the cache) per address
    # daily challenges: answers graded (each one tells how many were right) and rooms
    # opened, per address — only an account's first attempt a day counts anyway
    "daily_answer": Rule(10, 600.0),
    "daily_play": Rule(20, 600.0),
}
WS_CONCURRENT = 64
"""Open WebSocket connections per address at once."""


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


def client_ip(scope: Scope, trust_proxy: bool) -> str:
    """The client's address: the peer, or behind a trusted proxy the last address it added
    to ``X-Forwarded-For`` (earlier entries were written by the client and prove nothing)."""
    if trust_proxy:
        for name, value in scope.get("headers") or ():
            if name == b"x-forwarded-for":
                last = value.decode("latin-1").split(",")[-1].strip()
                if last:
                    return last[:64]
    client = scope.get("client")
    return str(client[0]) if client else "?"


__all__ = ["RULES", "LimitStore", "Limits", "MemoryStore", "Rule", "client_ip"]


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
