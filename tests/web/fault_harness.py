"""The scaled mode under faults, with real processes (issue 25 item 9): two ``asobiba serve
--redis`` web processes, one ``asobiba worker``, a PostgreSQL cluster and a Redis of their
own, and rooms being played through them — people rooms with one player at each web process
(every move crosses the bus), and person-against-bot rooms (every bot move crosses the job
queue). Each fault (Redis restarted, the worker killed -9, a web process killed -9,
PostgreSQL restarted) is followed by a round in every room, timed from the moment the fault
is over; every acknowledged move is checked against the database.

Used by tests/web/test_scale_faults_live.py (one of each fault) and
bench/web_faults_soak.py (faults every minute for ten)."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from asobiba.server.db import Store
from asobiba.server.services import PgCluster, RedisServer

from .scale_helpers import Client, Web, Worker, create_room, keys_for

ROUND = 60.0
"""The longest one round of a room may take before the room counts as stuck (generous: a
loaded 2-core machine; the times measured are reported beside it)."""


class Retry(Exception):
    """A move refused for a passing reason (not stored: the database away; stale)."""


class Table:
    """One room and a client per human seat, each at the web process given for it."""

    def __init__(self, cluster: Cluster, kind: str, at: list[int]) -> None:
        self.cluster = cluster
        self.kind = kind
        self.at = at  # web process index of each human seat's client
        self.acked: list[tuple[str, int, str]] = []  # (room, ply, move)
        self.rooms: list[str] = []
        self.clients: dict[int, Client] = {}
        self.open()

    def open(self) -> None:
        seats = ([{"kind": "human"}, {"kind": "human"}] if self.kind == "people"
                 else [{"kind": "human"}, {"kind": "bot", "level": "2"}])
        room = create_room(self.cluster.webs[self.at[0]], {"game": "reversi", "seats": seats})
        self.rid, self.keys = room["room"], room
        self.rooms.append(self.rid)
        self.connect()

    def connect(self) -> None:
        for c in self.clients.values():
            try:
                c.close()
            except Exception:  # noqa: BLE001 - its process is gone
                pass
        self.clients = {seat: Client(self.cluster.webs[web], self.rid, keys_for(self.keys, seat))
                        for seat, web in enumerate(self.at)}

    def reconnect(self, deadline: float) -> float:
        """Connect every client again (its web process may be starting): seconds taken."""
        t0 = time.monotonic()
        while True:
            try:
                self.connect()
                return time.monotonic() - t0
            except Exception:  # noqa: BLE001 - not answering yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _send(self, c: Client, seat: int) -> int:
        ply = c.ply()
        move = c.legal(seat)[0]
        reply = c.request({"type": "move", "seat": seat, "move": move, "ply": ply})
        if reply["type"] == "ack":
            self.acked.append((self.rid, ply, move))
            return ply
        if reply.get("code") in ("not_stored", "stale", "game_over"):
            raise Retry(reply["code"])
        raise AssertionError(f"move refused: {reply}")

    def move(self) -> int:
        """Play the next human move (acknowledged); its ply. Renews a finished room."""
        if self.kind == "people":
            newest = max(c.ply() for c in self.clients.values())
            for c in self.clients.values():
                c.wait_ply(newest)
            if any(c.last and c.last["room"]["status"] != "active"
                   for c in self.clients.values()):
                self.open()
                return self.move()
            seat = next((s for s, c in self.clients.items() if c.legal(s)), None)
            if seat is None:
                raise Retry("nobody to move yet")
            return self._send(self.clients[seat], seat)
        c = self.clients[0]
        active = bool(c.last and c.last["room"]["status"] == "active")
        if active and not c.legal(0):  # the bot's turn still: wait for its move
            c.until(lambda m: m.get("type") == "update" and (
                m["room"]["status"] != "active"
                or any(v["seat"] == 0 and v["view"]["legal_moves"] for v in m["views"])))
        if c.last and c.last["room"]["status"] != "active":
            self.open()
            return self.move()
        return self._send(c, 0)

    def answered(self, ply: int, timeout: float = ROUND) -> None:
        """Wait until the move of ``ply`` reached the other side: the other player's client
        shows it, or the bot has replied."""
        if self.kind == "people":
            for c in self.clients.values():
                c.wait_ply(ply + 1, timeout)
        else:
            self.clients[0].wait_ply(ply + 2, timeout)

    def round(self, deadline: float) -> float:
        """One move and its answer, trying again (reconnecting if need be) until
        ``deadline``: seconds it took."""
        t0 = time.monotonic()
        while True:
            try:
                ply = self.move()
                self.answered(ply, max(1.0, deadline - time.monotonic()))
                return time.monotonic() - t0
            except (Retry, ConnectionClosed, OSError, TimeoutError) as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"room {self.rid} ({self.kind}) stuck: {exc!r}"
                                         ) from None
                time.sleep(0.3)
                if isinstance(exc, ConnectionClosed | OSError):
                    self.reconnect(deadline)
                else:
                    self.resync()

    def resync(self) -> None:
        """Read the room again (as a client reconnecting does): its newest state."""
        self.reconnect(time.monotonic() + ROUND)


class Cluster:
    """The processes, the rooms, and what the faults did to them."""

    def __init__(self, base: Path, pg: PgCluster, redis: RedisServer, db_url: str,
                 people: int = 2, bots: int = 2) -> None:
        self.base, self.pg, self.redis, self.db_url = base, pg, redis, db_url
        self.webs = [Web(db_url, redis.url, base / "web0.log").start(),
                     Web(db_url, redis.url, base / "web1.log").start()]
        self.worker = Worker(db_url, redis.url, base / "worker.log").start()
        self.generation = 0
        self.tables = ([Table(self, "people", [i % 2, (i + 1) % 2]) for i in range(people)]
                       + [Table(self, "bot", [i % 2]) for i in range(bots)])
        self.refused = 0
        self.tolerant = False
        """The soak: a stuck room is counted (``stuck``) instead of failing the run."""
        self.stuck = 0
        self.log: list[dict[str, Any]] = []
        self._pool = ThreadPoolExecutor(max_workers=len(self.tables))

    def stop(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        for t in self.tables:
            for c in t.clients.values():
                try:
                    c.close()
                except Exception:  # noqa: BLE001
                    pass
        for p in [*self.webs, self.worker]:
            p.stop()

    def tails(self, lines: int = 30) -> str:
        """The last lines of every process's log: what to read when a fault phase failed."""
        out = []
        for log in sorted(self.base.glob("*.log")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {log.name} ---\n" + "\n".join(text))
        return "\n".join(out)

    def pids(self) -> list[int]:
        return [p.pid for p in [*self.webs, self.worker] if p.proc and p.proc.poll() is None]

    # ---- rounds -----------------------------------------------------------------------
    def rounds(self, tables: list[Table] | None = None,
               timeout: float = ROUND) -> list[float]:
        """A round in each room at once (one thread each): the seconds each took."""
        deadline = time.monotonic() + timeout

        def one(t: Table) -> float:
            try:
                return t.round(deadline)
            except AssertionError:
                if not self.tolerant:
                    raise
                self.stuck += 1  # counted (the soak goes on), and the room replaced
                t.open()
                return float("inf")

        return list(self._pool.map(one, tables or self.tables))

    def people(self) -> list[Table]:
        return [t for t in self.tables if t.kind == "people"]

    def bot_tables(self) -> list[Table]:
        return [t for t in self.tables if t.kind == "bot"]

    def lost(self) -> list[tuple[str, int, str]]:
        """Acknowledged moves the database does not hold (at their ply)."""
        store = Store(self.db_url)
        try:
            stored: dict[str, list[str]] = {}
            missing = []
            for t in self.tables:
                for rid, ply, move in t.acked:
                    if rid not in stored:
                        data = store.load_room(rid)
                        stored[rid] = [m.text for m in data.moves] if data else []
                    if ply >= len(stored[rid]) or stored[rid][ply] != move:
                        missing.append((rid, ply, move))
            return missing
        finally:
            store.close()

    def acked(self) -> int:
        return sum(len(t.acked) for t in self.tables)

    def _record(self, fault: str, **figures: Any) -> dict[str, Any]:
        after = self.rounds()
        entry = {"fault": fault, **figures,
                 "rooms_progressed_s": [round(x, 2) for x in after],
                 "slowest_room_s": round(max(after), 2), "lost": len(self.lost())}
        self.log.append(entry)
        print(json.dumps(entry), flush=True)
        return entry

    # ---- the faults -------------------------------------------------------------------
    def fault_redis(self, down: float = 10.0) -> dict[str, Any]:
        """Redis killed for ``down`` seconds (losing every key), then started again. While
        it is away, the people rooms go on (each process reads its rooms from the database)
        and a move is made in each bot room (its job waits for Redis)."""
        self.redis.kill()
        t0 = time.monotonic()
        during = self.rounds(self.people(), timeout=ROUND)
        bot_plies = list(self._pool.map(lambda t: t.move(), self.bot_tables()))
        time.sleep(max(0.0, down - (time.monotonic() - t0)))
        outage = time.monotonic() - t0
        self.redis.start()
        t1 = time.monotonic()
        replies = list(self._pool.map(lambda tp: tp[0].answered(tp[1]) or
                                      time.monotonic() - t1,
                                      zip(self.bot_tables(), bot_plies, strict=True)))
        return self._record("redis restarted", outage_s=round(outage, 2),
                            people_rounds_during_outage_s=[round(x, 2) for x in during],
                            bot_replies_after_redis_back_s=[round(x, 2) for x in replies])

    def fault_worker(self) -> dict[str, Any]:
        """The worker killed -9 just after a move in each bot room (its job taken, or about
        to be), then started again as a supervisor would."""
        plies = list(self._pool.map(lambda t: t.move(), self.bot_tables()))
        self.worker.kill9()
        self.generation += 1
        t0 = time.monotonic()
        self.worker = Worker(self.db_url, self.redis.url,
                             self.base / f"worker{self.generation}.log").start()
        started = time.monotonic() - t0
        t1 = time.monotonic()
        replies = list(self._pool.map(lambda tp: tp[0].answered(tp[1]) or
                                      time.monotonic() - t1,
                                      zip(self.bot_tables(), plies, strict=True)))
        return self._record("worker killed -9", worker_restart_s=round(started, 2),
                            bot_replies_after_worker_back_s=[round(x, 2) for x in replies])

    def fault_web(self, index: int = 0) -> dict[str, Any]:
        """Web process ``index`` killed -9 with a move on its way (never answered), then
        started again on its port; its clients reconnect."""
        web = self.webs[index]
        for t in self.people():  # a move on its way there, never answered: stored or
            for seat, c in t.clients.items():  # not, it is not counted as acknowledged
                if t.at[seat] == index and c.legal(seat):
                    c.ws.send(json.dumps({"type": "move", "seat": seat,
                                          "move": c.legal(seat)[0], "ply": c.ply(),
                                          "id": "unanswered"}))
        web.kill9()
        t0 = time.monotonic()
        self.generation += 1
        self.webs[index] = Web(self.db_url, self.redis.url,
                               self.base / f"web{index}-{self.generation}.log",
                               port=web.port).start()
        started = time.monotonic() - t0
        deadline = time.monotonic() + ROUND
        reconnect = list(self._pool.map(lambda t: t.reconnect(deadline), self.tables))
        return self._record("web process killed -9", web_restart_s=round(started, 2),
                            reconnect_s=[round(x, 2) for x in reconnect])

    def fault_postgres(self) -> dict[str, Any]:
        """PostgreSQL stopped at once (immediate), a move tried in each people room (refused:
        not stored), then started again."""
        self.pg.stop_server()
        t0 = time.monotonic()
        for t in self.people():
            try:
                t.move()
                raise AssertionError("a move was acknowledged with the database down")
            except Retry:
                self.refused += 1
        self.pg.start_server()
        return self._record("postgresql restarted", outage_s=round(time.monotonic() - t0, 2))


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class CpuMeter:
    """CPU seconds used by the processes of the given sessions (each process started as a
    session leader, its children in its session), sampled every second in a thread so that
    a process killed -9 still counts up to its last sample."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions  # callable: the current session ids
        self.seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        while not self._stop.wait(1.0):
            wanted = set(self.sessions())
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[3]) in wanted:
                    self.seen[int(entry)] = (int(fields[11]) + int(fields[12])) / tick

    def total(self) -> float:
        self._stop.set()
        self._thread.join(5)
        return sum(self.seen.values())
