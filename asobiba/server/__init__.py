"""The web platform: ``asobiba serve`` runs :func:`run`, an ASGI app (Starlette) under
uvicorn with rooms, WebSockets, persistence and a bot process pool."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, cast

from ..core.extras import require

require("web", "asobiba.server")  # a clear ImportError naming the extra, not starlette's

from .app import create_app  # noqa: E402
from .limits import Limits, LimitStore  # noqa: E402

if TYPE_CHECKING:
    import socket

    import uvicorn
    from starlette.applications import Starlette

__all__ = ["create_app", "run"]


def limit_store(redis_url: str | None) -> LimitStore | None:
    """The abuse limits' counts: in Redis for every web process of the scaled mode, else in
    this process (None: the default)."""
    if not redis_url:
        return None
    from .limits import RedisStore

    return RedisStore(redis_url)


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str = "data",
        db_url: str | None = None, redis_url: str | None = None,
        trust_proxy: bool = False, proxy_ips: list[str] | None = None,
        allowed_hosts: list[str] | None = None) -> None:
    """Serve until interrupted. SQLite at ``<data_dir>/asobiba.db`` unless ``db_url``
    (any SQLAlchemy URL, e.g. ``postgresql+psycopg://user@host/asobiba``) is given.
    ``trust_proxy``: take the client's address from ``X-Forwarded-For`` (only behind a
    reverse proxy that sets it; otherwise clients could pose as any address), and only from
    the peers ``proxy_ips`` (default: this machine's loopback addresses). ``allowed_hosts``:
    the ``Host`` names answered (default: ``host:port`` and the loopback names with the port;
    ``ASOBIBA_ALLOWED_HOSTS`` or ``ASOBIBA_PROXY_IPS``, comma-separated, when not given)."""
    import uvicorn

    from .fairplay import CLAIM_AFTER
    from .security import default_allowed_hosts, parse_hosts

    if proxy_ips is None and os.environ.get("ASOBIBA_PROXY_IPS"):
        proxy_ips = parse_hosts(os.environ["ASOBIBA_PROXY_IPS"])
    if allowed_hosts is None and os.environ.get("ASOBIBA_ALLOWED_HOSTS"):
        allowed_hosts = parse_hosts(os.environ["ASOBIBA_ALLOWED_HOSTS"])
    allowed_hosts = allowed_hosts or default_allowed_hosts(host, port)

    try:
        app = create_app(
            data_dir, db_url,
            bot_processes=int(os.environ.get("ASOBIBA_BOT_PROCESSES", "2")),
            bot_time_limit=float(os.environ.get("ASOBIBA_BOT_TIME_LIMIT", "10")),
            bot_delay=float(os.environ.get("ASOBIBA_BOT_DELAY", "0.4")),
            # a configured daily key (hex) replaces the one the database keeps
            daily_key=bytes.fromhex(os.environ["ASOBIBA_DAILY_KEY"])
            if os.environ.get("ASOBIBA_DAILY_KEY") else None,
            # --trust-proxy, or ASOBIBA_TRUST_PROXY=1 (e.g. the load generator's servers)
            trust_proxy=trust_proxy or os.environ.get("ASOBIBA_TRUST_PROXY") == "1",
            proxy_ips=proxy_ips,
            allowed_hosts=allowed_hosts,
            limits=Limits(store=limit_store(redis_url),
                          scale=float(os.environ.get("ASOBIBA_LIMIT_SCALE", "1")),
                          # open WebSockets per address (default limits.WS_CONCURRENT)
                          ws_concurrent=int(os.environ.get("ASOBIBA_WS_PER_ADDRESS", "0"))),
            redis_url=redis_url,
            # seconds before a gone player may be claimed against (tests: a short one)
            claim_after=float(os.environ.get("ASOBIBA_CLAIM_AFTER") or CLAIM_AFTER),
            abandon_after=float(os.environ["ASOBIBA_ABANDON_AFTER"])
            if os.environ.get("ASOBIBA_ABANDON_AFTER") else None,
        )
    except ModuleNotFoundError as exc:  # e.g. a PostgreSQL URL without its driver
        raise SystemExit(f"asobiba serve: the database URL needs the Python package "
                         f"{exc.name!r} (for PostgreSQL: pip install psycopg)") from None
    settle_heap()
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    where = db_url.split("@")[-1] if db_url else os.path.join(data_dir, "asobiba.db")
    fanout = f"; fan-out and bot queue on {redis_url.split('@')[-1]}" if redis_url else ""
    print(f"asobiba serving on http://{shown}:{port}/  (games stored in {where}{fanout})",
          flush=True)
    if host in ("0.0.0.0", "::"):  # other machines reach it by names it cannot guess
        print(f"answering the host names {', '.join(allowed_hosts)}; others are refused "
              "(--allowed-hosts adds more)", flush=True)
    # no permessage-deflate: the messages are small (a move's update is about a kilobyte)
    # and compressing each one cost the server more CPU than anything else per send
    # (docs/benchmarks.md, "Per-move CPU")
    # proxy_headers=False: uvicorn would otherwise rewrite the client's address (and scheme)
    # from X-Forwarded-For whenever the peer is 127.0.0.1 — every request through a local
    # port forward, or any local process, could pose as any address. The Guard reads the
    # header itself, only with --trust-proxy and only from --proxy-ips (limits.client_ip).
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65_536,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            ws_per_message_deflate=False, proxy_headers=False,
                            forwarded_allow_ips="")
    _listening_server(config).run()


def _listening_server(config: uvicorn.Config) -> uvicorn.Server:
    """uvicorn's server, telling the app once its socket listens (``app.state.listening``):
    the app's background start-up (bot processes, loading unfinished games) waits for it, so
    the first request is answered as soon as the process can (docs/web.md, "Start-up")."""
    import asyncio

    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            app = cast("Starlette", config.app)  # create_app's
            app.state.listening = asyncio.Event()
            await super().startup(sockets)
            app.state.listening.set()

    return Server(config)


def settle_heap() -> None:
    """Keep the garbage collector's full passes short in a serving process: import every
    game now (the app's start-up would, before its first answer, anyway), then freeze what
    exists — modules, classes, the registry, hundreds of thousands of objects that live as
    long as the process — out of the collector's reach. A full collection then scans only
    what serving made (rooms, connections); before, each one scanned everything, and at
    1,000 rooms its pauses of 0.1–1.3 s were the whole p99 of the acknowledgements
    (docs/benchmarks.md, "Per-move CPU"). Only the ``serve`` process does this: a test
    process building many apps keeps the ordinary collector."""
    import gc

    from ..games import available, get

    for game_id in available():
        get(game_id)
    gc.freeze()
