"""Load generator for the web platform (issue 13 item 3), in its own process.

Starts the servers itself, as an operator would, and drives them over real WebSockets:

* ``--mode embedded``: one ``asobiba serve`` on SQLite (``make run``'s shape);
* ``--mode scaled``: two ``asobiba serve --redis`` web processes and one ``asobiba worker``
  on a throwaway PostgreSQL and a throwaway Redis (Debian's servers). Each room's two
  players sit at different processes, so every move also measures cross-process delivery.

Loads (each Reversi rooms of two human clients, one connection per seat):

* ``--pace fast``: every client moves as soon as it may (as fast as acknowledgements come);
* ``--pace human``: every client waits 5–15 s before each move, like a person;
* ``--pace paced --rate R``: every room moves at most every ``rooms / R`` seconds (its first
  move at a random phase), so the offered load is R moves/s whatever the latency — the
  latency at a given throughput, where ``fast`` (a closed loop: each room's next move waits
  for the last one's answer) measures the throughput at which latency = rooms / moves/s;
* ``--bots N``: N bot-vs-bot rooms created at once (a burst), counting random fallbacks.

Prints moves/s, p50/p99 acknowledgement latency (send → ack, which follows the commit; the
clients ask for it in the update that shows the move, as the browser does — a server that
does not know that sends a separate ``ack``, which is measured the same),
cross-process delivery p50/p99 (scaled: send at process A → update at process B, counted at
the other seat's client — until session 6 the first update of either seat was counted, which
was nearly always the mover's own, from A) and the cross-process hop (how much later the
client at B has the update than the mover's client at A has its own), server
RSS (all server processes and their bot processes) and CPU time beside wall time, and the
load average before and after. Example::

    python bench/web_load.py --mode embedded --rooms 100 --seconds 20
    python bench/web_load.py --mode scaled --rooms 100 --seconds 20
    python bench/web_load.py --mode embedded --rooms 1000 --pace human --seconds 60
    python bench/web_load.py --mode scaled --rooms 0 --bots 100 --seconds 30
    python bench/web_load.py --mode scaled --rooms 100 --pace paced --rate 500 --seconds 20

The clients run in ``--client-processes`` processes (default 2, uvloop); each web process's
CPU is printed by thread (its event loop, and the group-commit writer), so a saturated loop
shows. A client silent for longer than the other seat can think is counted as stalled.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx2
import websockets
from pydantic_core import from_json, to_json

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def dumps(message: Any) -> str:
    """pydantic-core's JSON, as the server's wire format uses: the load generator must not
    be the bottleneck it measures (its CPU per move is printed beside the server's)."""
    return to_json(message).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---- the servers ---------------------------------------------------------------------------
SOURCE = ROOT  # --source: run the servers from another checkout (the peer: an older main)
PROFILE: str | None = None  # --profile FILE: py-spy samples the first web process meanwhile


class Proc:
    def __init__(self, args: list[str], log: Path, env: dict[str, str]) -> None:
        with open(log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "asobiba.cli.main", *args],
                                         cwd=SOURCE, env={**os.environ, **env}, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        self.log = log

    def wait_for(self, text: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)
        raise RuntimeError(f"no {text!r} in {self.log}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def tree(pid: int) -> list[int]:
    """pid and all its descendants (the bot processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            kids = []
        todo.extend(int(k) for k in kids)
    return out


def usage(pids: list[int]) -> tuple[float, float]:
    """(RSS in MiB, CPU seconds) of these processes and their descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    rss = cpu = 0.0
    for root in pids:
        for p in tree(root):
            try:
                stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(stat[11]) + int(stat[12])) / tick
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1]) / 1024
            except OSError:
                continue
    return rss, cpu


def threads(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of one process by thread name (the event loop is the
    main thread, named after the program; the group-commit writer is ``asobiba-writer``)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            text = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
        except OSError:
            continue
        name = "event loop" if tid == str(pid) else text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


class Cluster:
    """The servers under test: web processes (and a worker) plus their services."""

    def __init__(self, mode: str, bot_processes: int) -> None:
        self.mode = mode
        self.dir = Path(tempfile.mkdtemp(prefix="asobiba-load-"))
        self.procs: list[Proc] = []
        self.ports: list[int] = []
        self.pg: Any = None
        self.redis: Any = None
        # the clients come through a (pretend) load balancer that names each one in
        # X-Forwarded-For, so the per-address abuse limits see 2,000 people, not one
        env = {"ASOBIBA_BOT_DELAY": "0", "ASOBIBA_BOT_PROCESSES": str(bot_processes),
               "PYTHONUNBUFFERED": "1", "ASOBIBA_TRUST_PROXY": "1"}
        if mode == "embedded":
            port = free_port()
            p = Proc(["serve", "--port", str(port), "--data-dir", str(self.dir / "data")],
                     self.dir / "web.log", env)
            self.procs.append(p)
            self.ports.append(port)
            p.wait_for("serving on")
        else:
            from asobiba.server.services import PgCluster, RedisServer, _server_bin_dir

            bin_dir = _server_bin_dir()
            if bin_dir is None:
                raise SystemExit("the scaled mode needs Debian's postgresql installed")
            self.pg = PgCluster(bin_dir)
            self.pg.start()
            db = self.pg.new_database()
            self.redis = RedisServer().start()
            for i in range(2):
                port = free_port()
                p = Proc(["serve", "--port", str(port), "--db", db, "--redis", self.redis.url],
                         self.dir / f"web{i}.log", env)
                self.procs.append(p)
                self.ports.append(port)
            for p in self.procs:
                p.wait_for("serving on")
            w = Proc(["worker", "--db", db, "--redis", self.redis.url, "--processes",
                      str(bot_processes)], self.dir / "worker.log", env)
            self.procs.append(w)
            w.wait_for("taking jobs")
        for port in self.ports:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx2.get(f"http://127.0.0.1:{port}/api/games", timeout=5).is_success:
                        break
                except httpx2.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("a web process does not answer")
                time.sleep(0.1)

    def wait_quiet(self, limit: float = 60.0) -> None:
        """Wait (up to ``limit`` s) until the servers' processes, bot processes included,
        have finished their start-up work: the bot pool imports every game and warms its
        caches in the background after the socket listens, and that CPU is not the load's."""
        deadline = time.monotonic() + limit
        before = usage(self.pids())[1]
        while time.monotonic() < deadline:
            time.sleep(0.5)
            now = usage(self.pids())[1]
            if now - before < 0.05:
                return
            before = now

    def pids(self) -> list[int]:
        pids = [p.proc.pid for p in self.procs]
        if self.redis is not None and self.redis.proc is not None:
            pids.append(self.redis.proc.pid)
        return pids

    def pg_pids(self) -> list[int]:
        if self.pg is None:
            return []
        pidfile = self.pg.data / "postmaster.pid"
        try:
            return [int(pidfile.read_text().split()[0])]
        except (OSError, ValueError):
            return []

    def stop(self) -> None:
        for p in self.procs:
            p.stop()
        for p in self.procs:  # a server error during the run is reported, never hidden
            text = p.log.read_text(errors="replace")
            if "Traceback" in text:
                lines = text[text.index("Traceback"):].splitlines()
                end = next((i for i, line in enumerate(lines[1:], 1)
                            if line and not line.startswith(" ")), len(lines) - 1)
                first = "\n".join(lines[max(0, end - 6):end + 1])  # its last frames
                print(f"!! {text.count('Traceback')} server error(s) in {p.log.name}; "
                      f"the first:\n{first}")
        if self.redis is not None:
            self.redis.stop()
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- the clients --------------------------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.acks: list[float] = []
        self.delivery: list[float] = []
        self.hop: list[float] = []
        self.errors: dict[str, int] = {}
        self.games = 0


def client_headers(room: int, seat: int) -> dict[str, str]:
    n = 2 * room + seat
    return {"x-forwarded-for": f"10.{n // 62500}.{n // 250 % 250}.{n % 250 + 1}"}


async def make_room(http: httpx2.AsyncClient, seats: list[dict[str, Any]],
                    headers: dict[str, str] | None = None) -> dict[str, Any]:
    for _ in range(50):
        res = await http.post("/api/rooms", json={"game": "reversi", "seats": seats},
                              headers=headers)
        if res.status_code == 201:
            return dict(res.json())
        await asyncio.sleep(0.2)  # e.g. a creation limit: slow down, try again
    raise RuntimeError(f"cannot create a room: {res.status_code} {res.text}")


# One HTTP client per server port for the whole run (per client process). A client made per
# new game loaded a TLS context each time (~20-40 ms of CPU, even for http://) and, with a
# game ending every few milliseconds at the fast pace, that was 60% of the generator's CPU and
# stalled all its 200 connections: the old p99 measured the generator more than the server.
_HTTP: dict[int, httpx2.AsyncClient] = {}


def http_for(port: int) -> httpx2.AsyncClient:
    client = _HTTP.get(port)
    if client is None:
        client = _HTTP[port] = httpx2.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=120,
            limits=httpx2.Limits(max_connections=50, max_keepalive_connections=50))
    return client


async def new_room(ports: list[int], index: int) -> dict[str, Any]:
    return await make_room(http_for(ports[index % len(ports)]),
                           [{"kind": "human"}, {"kind": "human"}], client_headers(index, 0))


async def play_room(ports: list[int], index: int, stats: Stats, pace: str,
                    interval: float, stop_at: list[float],
                    first: dict[str, Any], go: asyncio.Event, ready: list[int]) -> None:
    """Two clients, one per seat (at different processes when there are two), playing
    Reversi games one after another until ``stop_at``; the first game's moves start once
    every client is connected (``go``)."""
    cross = len(ports) > 1
    # a random legal move (seeded per room, so a run is repeatable): with the first legal
    # move every room played the same game, so all of them ended at the same moment and
    # started the next one in one burst of room creations and connections, again and again
    pick = random.Random(index)
    next_at: list[float] = []  # paced: when this room may move next (both seats, all games)
    # the first game ends early, by a resignation at a random ply: games of one length
    # started together would all end together, and every room would then create its next
    # room and connect its clients in the same instant, again and again (a burst no
    # real crowd makes; it was most of the tail at a paced 500 moves/s)
    resign_at = [pick.randrange(2, 60)]
    room: dict[str, Any] | None = first
    while time.monotonic() < stop_at[0]:
        if room is None:
            room = await new_room(ports, index)
        sent: dict[int, tuple[float, int]] = {}  # ply -> when its move was sent, by whom
        arrived: dict[int, dict[int, float]] = {}  # (scaled) ply -> seat -> its update came
        done = asyncio.Event()

        async def seat(s: int, room: dict[str, Any] = room,
                       sent: dict[int, tuple[float, int]] = sent,
                       arrived: dict[int, dict[int, float]] = arrived,
                       done: asyncio.Event = done) -> None:
            port = ports[(index + s) % len(ports)]
            keys = [k for k in room["keys"] if k["seat"] == s]
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{room['room']}",
                                          open_timeout=60, max_size=2**22,
                                          additional_headers=client_headers(index, s)) as ws:
                # as the browser does: a move's ack comes in the update that shows it
                await ws.send(dumps({"type": "hello", "seats": keys,
                                     "ack_in_update": True}))
                ready.append(1)
                await go.wait()
                pending: tuple[str, float] | None = None
                seen_ply = -1
                turn: tuple[int, list[str]] | None = None  # the newest update's ply, moves
                last_moved = -1  # the ply this seat last moved at: a re-sent update of it
                # (a presence change) is not a second turn
                heard = time.monotonic()  # the last message: silence longer than the
                stalled_after = 5.0 if pace == "fast" else 20.0  # other seat's think time

                async def move() -> None:
                    nonlocal pending, turn, last_moved
                    if turn is None or not turn[1] or pending is not None:
                        return
                    ply, legal = turn
                    turn, last_moved = None, ply
                    if resign_at[0] and ply >= resign_at[0]:
                        resign_at[0] = 0
                        await ws.send(dumps({"type": "resign", "seat": s, "id": "resign"}))
                        return
                    if pace == "human":
                        await asyncio.sleep(random.uniform(5, 15))
                    elif pace == "paced":
                        now = time.monotonic()
                        if not next_at:
                            next_at.append(now + pick.uniform(0, interval))
                        if next_at[0] > now:
                            await asyncio.sleep(next_at[0] - now)
                        next_at[0] = max(next_at[0], time.monotonic() - interval) + interval
                    ref = f"{ply}"
                    at = time.perf_counter()
                    sent[ply] = (at, s)
                    pending = (ref, at)
                    await ws.send(dumps({"type": "move", "seat": s, "move": pick.choice(legal),
                                         "ply": ply, "id": ref}))
                    if not cross:
                        sent.pop(ply, None)

                while not done.is_set() and time.monotonic() < stop_at[0]:
                    try:
                        async with asyncio.timeout(5):  # no task per message (wait_for's)
                            msg = from_json(await ws.recv(decode=False))
                    except TimeoutError:  # a stalled client: counted, never hidden
                        if time.monotonic() < stop_at[0] and \
                                time.monotonic() - heard > stalled_after:
                            heard = time.monotonic()
                            what = f"no message for {stalled_after:g} s"
                            stats.errors[what] = stats.errors.get(what, 0) + 1
                        continue
                    heard = time.monotonic()
                    now = time.perf_counter()
                    kind = msg.get("type")
                    if kind == "ack" and pending and msg.get("id") == pending[0]:
                        stats.acks.append(now - pending[1])
                        pending = None
                        # the update giving this seat its next turn can come before the
                        # ack (the other seat had to pass): move now
                        await move()
                    elif kind == "error":
                        stats.errors[msg.get("code", "?")] = \
                            stats.errors.get(msg.get("code", "?"), 0) + 1
                        pending = None
                        await move()
                    elif kind == "update":
                        if pending and "ack" in msg and msg["ack"] == pending[0]:
                            stats.acks.append(now - pending[1])  # the ack, in the update
                            pending = None
                        r = msg["room"]
                        ply = r["ply"]
                        if ply > seen_ply:
                            seen_ply = ply
                            made = sent.get(ply - 1)
                            if made is not None and cross:
                                # the mover sits at process A, this seat at A too (its own
                                # update) or at B (the other seat): delivery is send at A →
                                # update at B; the hop is how much later B's client has it
                                # than A's own (the fan-out through Redis and process B)
                                t_sent, mover = made
                                got = arrived.setdefault(ply, {})
                                got[s] = now
                                if s != mover:
                                    stats.delivery.append(now - t_sent)
                                if len(got) == 2:
                                    stats.hop.append(got[1 - mover] - got[mover])
                                    del arrived[ply], sent[ply - 1]
                        elif ply < seen_ply:
                            continue  # an older position, re-sent: not a turn
                        if r["status"] != "active":
                            stats.games += s == 0
                            done.set()
                            break
                        legal = msg["views"][0]["view"].get("legal_moves") or []
                        if turn is None or ply >= turn[0]:
                            turn = (ply, legal) if legal and ply != last_moved else None
                        await move()

        await asyncio.gather(seat(0), seat(1))
        room = None


async def bot_burst(ports: list[int], n: int, level: str, seconds: float) -> dict[str, Any]:
    async def one(i: int) -> dict[str, Any]:
        return await make_room(http_for(ports[i % len(ports)]),
                               [{"kind": "bot", "level": level}] * 2,
                               client_headers(50_000 + i, 0))

    rooms = await asyncio.gather(*(one(i) for i in range(n)))
    async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{ports[0]}", timeout=120) as http:
        await asyncio.sleep(seconds)
        infos = [(await http.get(f"/api/rooms/{r['room']}")).json() for r in rooms]
    notes = [note for i in infos for note in i["notes"]]
    return {"rooms": n, "bot_moves": sum(i["ply"] for i in infos),
            "fallbacks": sum("random legal move" in note for note in notes),
            "timeouts": sum("timed out" in note for note in notes),
            "finished": sum(i["status"] == "finished" for i in infos)}


def print_ratios(results: list[dict[str, Any]], busy: str) -> None:
    """The busy phase's ack p99 over the quiet phases' (before, after, the worse of the two):
    bench/analysis_load.py's and bench/tournament_load.py's verdict line."""
    quiet = [r["p99_ms"] for r in results if r["phase"] != busy]
    p99 = next(r["p99_ms"] for r in results if r["phase"] == busy)
    print(f"p99 ratio {busy}/quiet: {p99 / quiet[0]:.2f} (first quiet), "
          f"{p99 / quiet[1]:.2f} (quiet again), {p99 / max(quiet):.2f} (the worse quiet)")


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


async def client_part(part: int, parts: int, ports: list[int], rooms: int, pace: str,
                      interval: float, seconds: float, pipe: Connection) -> None:
    """One load-generator process: rooms ``part``, ``part + parts``, … of the run. It sets
    them up, says ``ready``, waits for the parent's start time, plays until it is over and
    sends back what it measured (the latencies, and its own CPU time in the window)."""
    stats = Stats()
    mine = list(range(part, rooms, parts))
    sem = asyncio.Semaphore(max(1, 20 // parts))

    async def made(i: int) -> dict[str, Any]:
        async with sem:
            return await new_room(ports, i)

    firsts = await asyncio.gather(*(made(i) for i in mine))
    go, ready = asyncio.Event(), []
    stop_at = [float("inf")]
    tasks = [asyncio.create_task(play_room(ports, i, stats, pace, interval, stop_at, first, go,
                                           ready))
             for i, first in zip(mine, firsts)]
    while len(ready) < 2 * len(mine):
        await asyncio.sleep(0.1)
    pipe.send(("ready", len(ready)))
    t0 = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    stop_at[0] = t0 + seconds
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    go.set()
    await asyncio.sleep(max(0.0, stop_at[0] - time.monotonic()))
    n_acks = len(stats.acks)  # warm-up and tear-down excluded: what was acked in the window
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    failed = [t.exception() for t in tasks if t.done() and not t.cancelled()
              and t.exception() is not None]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send({"acks": stats.acks[:n_acks], "delivery": stats.delivery, "hop": stats.hop,
               "errors": stats.errors,
               "games": stats.games, "failed": [repr(e) for e in failed],
               "cpu": (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)})


def run_part(part: int, parts: int, ports: list[int], rooms: int, pace: str, interval: float,
             seconds: float, pipe: Connection) -> None:
    import uvloop  # uvicorn[standard]'s event loop: the clients' loop costs less CPU with it

    uvloop.run(client_part(part, parts, ports, rooms, pace, interval, seconds, pipe))


def start_clients(args: argparse.Namespace, cluster: Cluster
                  ) -> tuple[list[Connection], list[multiprocessing.Process]]:
    """Fork the client processes (before this process runs any event loop of its own)."""
    ctx = multiprocessing.get_context("fork")
    parts = max(1, min(args.client_processes, args.rooms))
    pipes, workers = [], []
    for k in range(parts if args.rooms else 0):
        mine, theirs = ctx.Pipe()
        w = ctx.Process(target=run_part, args=(k, parts, cluster.ports, args.rooms,
                                               args.pace, args.rooms / args.rate,
                                               args.seconds, theirs), daemon=True)
        w.start()
        pipes.append(mine)
        workers.append(w)
    return pipes, workers


async def drive(args: argparse.Namespace, cluster: Cluster, pipes: list[Connection],
                workers: list[multiprocessing.Process]) -> None:
    # set-up, not measured: every room created and every client connected first, in
    # --client-processes processes (the clients of one room in the same one), so no single
    # client event loop is what the latencies measure
    setup = time.monotonic()
    parts = len(workers)
    loop = asyncio.get_running_loop()
    connected = sum([(await loop.run_in_executor(None, p.recv))[1] for p in pipes])
    if args.rooms:
        print(f"set-up: {args.rooms} rooms created and {connected} clients connected in "
              f"{time.monotonic() - setup:.1f} s by {parts} client process(es)", flush=True)
    cluster.wait_quiet()
    la0 = os.getloadavg()
    rss0, cpu0 = usage(cluster.pids())
    web = [p.proc.pid for p in cluster.procs[:len(cluster.ports)]]
    threads0 = [threads(pid) for pid in web]
    pg0 = usage(cluster.pg_pids())[1]
    t0 = time.monotonic()
    stop_at = t0 + args.seconds
    for p in pipes:
        p.send(t0)
    spy = None
    if PROFILE:
        exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        spy = subprocess.Popen([exe, "record", "--pid", str(cluster.procs[0].proc.pid),
                                "--duration", str(int(args.seconds)), "--rate", "200",
                                "--format", "raw", "--nonblocking", "--gil",
                                "--output", PROFILE],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    burst = None
    if args.bots:
        burst = asyncio.create_task(bot_burst(cluster.ports, args.bots, args.level,
                                              args.seconds))
    peak_rss = 0.0
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(1.0, max(0.0, stop_at - time.monotonic())))
        peak_rss = max(peak_rss, usage(cluster.pids())[0])
    wall = time.monotonic() - t0
    rss1, cpu1 = usage(cluster.pids())
    threads1 = [threads(pid) for pid in web]
    pg1 = usage(cluster.pg_pids())[1]
    la1 = os.getloadavg()
    stats = Stats()
    failed: list[str] = []
    mine = 0.0
    for p in pipes:
        got = await loop.run_in_executor(None, p.recv)
        stats.acks += got["acks"]
        stats.delivery += got["delivery"]
        stats.hop += got["hop"]
        stats.games += got["games"]
        failed += got["failed"]
        mine += got["cpu"]
        for code, n in got["errors"].items():
            stats.errors[code] = stats.errors.get(code, 0) + n
    for w in workers:
        w.join(30)
    n_acks = len(stats.acks)
    burst_result = await burst if burst else None
    if spy is not None:
        spy.wait(60)
        print(f"py-spy samples of web process 1 in {PROFILE}")
    if failed:
        print(f"!! {len(failed)} room driver(s) failed, e.g. {failed[0]}")
    pace = f"paced at {args.rate:g} moves/s" if args.pace == "paced" else args.pace
    print(f"== {args.mode}, {args.rooms} rooms / {2 * args.rooms} clients, pace {pace}, "
          f"{args.seconds:g} s, {os.cpu_count()} CPUs")
    print(f"load average before {la0[0]:.2f} {la0[1]:.2f} {la0[2]:.2f}, "
          f"after {la1[0]:.2f} {la1[1]:.2f} {la1[2]:.2f}")
    if args.rooms:
        print(f"moves acknowledged: {n_acks} in {wall:.1f} s wall = {n_acks / wall:.0f} "
              f"moves/s; games finished {stats.games}; refused {stats.errors or 0}")
        print(f"ack latency ms: p50 {pct(stats.acks, 0.5):.1f}  p90 {pct(stats.acks, 0.9):.1f}"
              f"  p99 {pct(stats.acks, 0.99):.1f}  max {pct(stats.acks, 1.0):.1f}; mean "
              f"{1000 * sum(stats.acks) / max(1, len(stats.acks)):.1f}")
        if stats.delivery:
            print(f"cross-process delivery ms (send at A -> update at B): p50 "
                  f"{pct(stats.delivery, 0.5):.1f}  p99 {pct(stats.delivery, 0.99):.1f}  "
                  f"({len(stats.delivery)} moves)")
            print(f"cross-process hop ms (update at A's client -> at B's client): p50 "
                  f"{pct(stats.hop, 0.5):.1f}  p90 {pct(stats.hop, 0.9):.1f}  p99 "
                  f"{pct(stats.hop, 0.99):.1f}  ({len(stats.hop)} moves)")
    # CPU per acknowledged move: the figure that does not depend on how busy the machine is
    per = (lambda cpu: f", {1000 * cpu / n_acks:.2f} ms CPU per move") if n_acks else \
        (lambda cpu: "")
    server = cpu1 - cpu0
    print(f"server processes: RSS peak {peak_rss:.0f} MiB; CPU {server:.1f} s over "
          f"{wall:.1f} s wall ({server / wall:.2f} cores{per(server)})")
    for i, (a, b) in enumerate(zip(threads0, threads1)):
        busy = sorted(((b[k] - a.get(k, 0.0), k) for k in b), reverse=True)
        print(f"web process {i + 1} by thread: " + (", ".join(
            f"{name} {cpu / wall:.2f} cores" for cpu, name in busy if cpu >= 0.05 * wall)
            or "no thread above 0.05 cores"))
    if cluster.pg:
        print(f"PostgreSQL: CPU {pg1 - pg0:.1f} s ({(pg1 - pg0) / wall:.2f} cores"
              f"{per(pg1 - pg0)})")
    if workers:
        print(f"load generator CPU {mine:.1f} s in {len(workers)} process(es) "
              f"({mine / wall:.2f} cores{per(mine)})")
    if burst_result:
        print(f"bot burst: {burst_result['rooms']} bot-vs-bot rooms (level {args.level}) "
              f"created at once: {burst_result['bot_moves']} bot moves, "
              f"{burst_result['fallbacks']} random fallbacks "
              f"({burst_result['timeouts']} over the time limit), "
              f"{burst_result['finished']} games finished")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=["embedded", "scaled"], default="embedded")
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--pace", choices=["fast", "human", "paced"], default="fast")
    ap.add_argument("--rate", type=float, default=500.0,
                    help="--pace paced: the offered load in moves/s over all rooms")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--bots", type=int, default=0, help="bot-vs-bot rooms created at once")
    ap.add_argument("--level", default="5")
    ap.add_argument("--bot-processes", type=int, default=2)
    ap.add_argument("--client-processes", type=int, default=2,
                    help="load-generator processes the clients are spread over (each room's "
                    "two clients in the same one)")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="sample the (first) web process with py-spy during the measured "
                    "window, raw stacks to FILE (needs py-spy; the sampling costs CPU, so "
                    "quote figures from runs without it)")
    ap.add_argument("--source", default=None,
                    help="run the servers from this checkout (e.g. an older main, the peer)")
    args = ap.parse_args()
    global PROFILE, SOURCE
    PROFILE = str(Path(args.profile).resolve()) if args.profile else None
    if args.source:
        SOURCE = Path(args.source).resolve()
        print(f"servers run from {SOURCE}")
    cluster = Cluster(args.mode, args.bot_processes)
    try:
        pipes, workers = start_clients(args, cluster)
        asyncio.run(drive(args, cluster, pipes, workers))
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
