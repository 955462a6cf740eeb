"""Does a 200-player tournament slow the other rooms down? (issue 28 item 6)

One ``asobiba serve`` (embedded, SQLite) started here, as bench/web_load.py and
bench/analysis_load.py do, with Reversi rooms of two human clients playing at a paced rate
(``--rooms``, ``--rate`` moves/s) over real WebSockets. Three phases of ``--seconds`` each:

1. **quiet**: the rooms alone;
2. **tournament**: the rooms plus a Swiss tournament of ``--players`` registered players
   (bots standing in: this script plays for them) paired round after round by the server's
   driver. Each player's page asks for his snapshot when a round is paired (it names his
   game, seat and key) and every 20 s (his presence); one spectator page polls the
   tournament every second; each tournament game is played over its room's WebSocket, a
   random legal move every ``--t-interval`` seconds, until the side to move resigns at a
   random ply of ``--t-plies`` (so a round lasts a fraction of a minute and the next is
   paired, again and again);
3. **quiet again**: the rooms alone (the machine is shared: a drift shows here).

The tournament's players play from a process of their own (spawned once, told when to
play): in the process that timed the other rooms, their 200 snapshot parses at each round's
start (~1.5 s of its event loop) were counted as the server's delay (py-spy, session 13).

Prints per phase the moves acknowledged in the other rooms, their p50/p99 acknowledgement
latency (send → ack, as web_load measures it), the web process's CPU seconds, this process's
and the players' process's CPU, the wall time and the load average before and after; for the
tournament the rounds paired and the games played. Then the CPU seconds of pairing each round of that very tournament again (its stored
history, ``swiss.pair_round`` in this process, ``time.process_time``). Example::

    PYTHONPATH=. python bench/tournament_load.py --rooms 20 --rate 20 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx2
import websockets
from pydantic_core import from_json, to_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import Cluster, Stats, new_room, pct, play_room, print_ratios, usage  # noqa: E402

from asobiba.server.tournament_routes import STREAM_EVERY  # noqa: E402

PASSWORD = "correct horse battery 9"


def dumps(msg: dict[str, Any]) -> str:
    return to_json(msg).decode()


Players = Connection  # the parent's end of the pipe to players_process


class Tournament:
    """The players of one Swiss tournament, played by this script."""

    def __init__(self, port: int, players: int, interval: float, plies: tuple[int, int],
                 seed: int) -> None:
        self.http = httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                       limits=httpx2.Limits(max_connections=20))
        self.port = port
        self.n = players
        self.interval = interval
        self.plies = plies
        self.rng = random.Random(seed)
        self.tokens: list[str] = []
        self.tid = 0
        self.rounds_seen = 0
        self.games_done: set[str] = set()
        self.seats_started: set[tuple[str, int]] = set()
        self.errors: dict[str, int] = {}

    def headers(self, i: int) -> dict[str, str]:
        return {"x-forwarded-for": f"10.250.{i // 250}.{i % 250 + 1}"}

    def cookie(self, i: int) -> dict[str, str]:
        from asobiba.server.progression_routes import COOKIE

        return {**self.headers(i), "cookie": f"{COOKIE}={self.tokens[i]}"}

    async def setup(self, data_dir: Path) -> None:
        from asobiba.server.progression_routes import COOKIE

        # the organiser registers (creating needs an account); the players come as guests
        # (a casual tournament takes them; a registration's password hashing would make the
        # set-up of 200 players take many minutes on a loaded machine)
        for i in range(self.n):
            if i == 0:
                res = await self.http.post("/api/account/register", headers=self.headers(i),
                                           json={"name": f"tp{i}", "password": PASSWORD})
            else:
                res = await self.http.post("/api/account/guest", headers=self.headers(i))
            if res.status_code != 201:
                raise RuntimeError(f"register: {res.status_code} {res.text}")
            self.tokens.append(str(res.cookies.get(COOKIE)))
        res = await self.http.post("/api/tournaments", headers=self.cookie(0), json={
            "game": "reversi", "kind": "swiss", "rounds": 30, "starts_in": 600,
            "name": "load"})
        if res.status_code != 201:
            raise RuntimeError(f"create: {res.status_code} {res.text}")
        self.tid = int(res.json()["tournament"]["id"])
        for i in range(self.n):
            res = await self.http.post(f"/api/tournaments/{self.tid}/join",
                                       headers=self.cookie(i), json={})
            if res.status_code != 200:
                raise RuntimeError(f"join: {res.status_code} {res.text}")
        self.data_dir = data_dir

    def start(self) -> None:
        """The operator brings the start forward to now (its players have joined)."""
        from sqlalchemy import create_engine

        from asobiba.tables import TOURNAMENTS, now, stamp

        engine = create_engine(f"sqlite:///{self.data_dir / 'asobiba.db'}")
        with engine.begin() as conn:
            conn.execute(TOURNAMENTS.update().where(TOURNAMENTS.c.id == self.tid)
                         .values(starts=stamp(now())))
        engine.dispose()

    async def run(self, stop_at: float) -> None:
        self.start()
        tasks: list[asyncio.Task[None]] = [asyncio.create_task(self.presence(stop_at))]
        while time.monotonic() < stop_at:
            try:
                snap = (await self.http.get(f"/api/tournaments/{self.tid}")).json()
            except httpx2.HTTPError as exc:
                self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
                continue
            if len(snap["rounds"]) > self.rounds_seen:
                self.rounds_seen = len(snap["rounds"])
                tasks.append(asyncio.create_task(self.round(stop_at)))
            await asyncio.sleep(1.0)
        await asyncio.gather(*tasks, return_exceptions=True)

    async def presence(self, stop_at: float) -> None:
        while time.monotonic() < stop_at:
            for i in range(self.n):
                if time.monotonic() >= stop_at:
                    return
                await self.http.get(f"/api/tournaments/{self.tid}", headers=self.cookie(i))
                await asyncio.sleep(20.0 / self.n)

    async def round(self, stop_at: float) -> None:
        """Every player's page learns of his game at its stream's next beat (a random phase
        within ``STREAM_EVERY``: the tournament page's stream sends a snapshot each second)
        and opens the game's socket then, for his own seat, as a browser does. Until session
        12 one connection per table was opened for both seats the moment all 200 snapshots
        had been read: 100 sockets within a few milliseconds, an arrival no site sees, whose
        handshakes alone delayed the other rooms' moves by ~100 ms."""
        rng = random.Random(f"round {self.rounds_seen}")

        async def learn(i: int) -> None:
            await asyncio.sleep(rng.uniform(0.0, STREAM_EVERY))
            snap = (await self.http.get(f"/api/tournaments/{self.tid}",
                                        headers=self.cookie(i))).json()
            game = (snap.get("you") or {}).get("game")
            if game and (game["room"], i) not in self.seats_started:
                self.seats_started.add((game["room"], i))
                await self.play(game["room"], [{**game, "player": i}], stop_at)

        await asyncio.gather(*(learn(i) for i in range(self.n)), return_exceptions=True)

    async def play(self, room: str, mine: list[dict[str, Any]], stop_at: float) -> None:
        rng = random.Random(room)
        resign_at = rng.randrange(*self.plies)
        keys = [{"seat": g["seat"], "key": g["key"]} for g in mine]
        try:
            async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/{room}",
                                          open_timeout=60, max_size=2**22,
                                          # the first seat's own address: 100 tables
                                          # from one address would meet the per-address
                                          # WebSocket limit (docs/fair-play.md)
                                          additional_headers=self.headers(mine[0]["player"])
                                          ) as ws:
                await ws.send(dumps({"type": "hello", "seats": keys, "ack_in_update": True}))
                next_at = time.monotonic() + rng.uniform(0, self.interval)
                sent: set[int] = set()  # the plies this seat has moved at
                while time.monotonic() < stop_at:
                    try:
                        async with asyncio.timeout(max(0.1, stop_at - time.monotonic())):
                            msg = from_json(await ws.recv(decode=False))
                    except TimeoutError:
                        return
                    if msg.get("type") == "error":
                        code = str(msg.get("code"))
                        self.errors[code] = self.errors.get(code, 0) + 1
                        continue
                    if msg.get("type") != "update":
                        continue
                    r = msg["room"]
                    if r["status"] != "active":
                        self.games_done.add(room)
                        return
                    for v in msg["views"]:
                        legal = v["view"].get("legal_moves") or []
                        if v["seat"] is None or not legal or r["ply"] in sent:
                            continue  # (an update at the same ply: a presence, a chat)
                        sent.add(r["ply"])
                        wait = next_at - time.monotonic()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        next_at = time.monotonic() + self.interval
                        if r["ply"] >= resign_at:
                            await ws.send(dumps({"type": "resign", "seat": v["seat"]}))
                        else:
                            await ws.send(dumps({"type": "move", "seat": v["seat"],
                                                 "move": rng.choice(legal),
                                                 "ply": r["ply"]}))
                        break
        except (OSError, websockets.WebSocketException) as exc:
            self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1


async def phase(name: str, cluster: Cluster, args: argparse.Namespace,
                tour: Players | None) -> dict[str, Any]:
    port = cluster.ports[0]
    web = cluster.procs[0].proc.pid
    load_before = os.getloadavg()
    cpu0 = usage([web])[1]
    t0 = time.process_time()
    stats = Stats()
    stop_at = [time.monotonic() + 3600]
    go = asyncio.Event()
    ready: list[int] = []
    firsts = [await new_room([port], i) for i in range(args.rooms)]
    interval = args.rooms / args.rate
    players = [asyncio.create_task(play_room([port], i, stats, "paced", interval, stop_at,
                                             firsts[i], go, ready))
               for i in range(args.rooms)]
    while len(ready) < 2 * args.rooms:
        await asyncio.sleep(0.05)
    began = time.monotonic()
    stop_at[0] = began + args.seconds
    go.set()
    if tour:
        tour.send(("run", stop_at[0]))  # CLOCK_MONOTONIC: the same clock in both processes
    await asyncio.gather(*players, return_exceptions=True)
    told = await asyncio.to_thread(tour.recv) if tour else None
    wall = time.monotonic() - began
    acks = sorted(stats.acks)
    out = {"phase": name, "moves": len(acks), "p50_ms": pct(acks, 0.5),
           "p99_ms": pct(acks, 0.99), "errors": dict(stats.errors),
           "web_cpu_s": usage([web])[1] - cpu0, "bench_cpu_s": time.process_time() - t0,
           "wall_s": wall, "load_before": load_before, "load_after": os.getloadavg()}
    if told:
        out.update(told)
    return out


def show(r: dict[str, Any]) -> None:
    la = " ".join(f"{x:.2f}" for x in r["load_before"])
    lb = " ".join(f"{x:.2f}" for x in r["load_after"])
    print(f"{r['phase']:<12} other rooms: moves {r['moves']:>5}  ack p50 {r['p50_ms']:.1f} ms  "
          f"p99 {r['p99_ms']:.1f} ms | web CPU {r['web_cpu_s']:.1f} s  "
          f"bench CPU {r['bench_cpu_s']:.1f} s  wall {r['wall_s']:.1f} s  load {la} -> {lb}",
          flush=True)
    if "rounds" in r:
        print(f"{'':<12} tournament: rounds paired {r['rounds']}, games played to the end "
              f"{r['games']}, errors {r['t_errors']}, its players' process CPU "
              f"{r['players_cpu_s']:.1f} s")
    if r["errors"]:
        print(f"{'':<12} room errors {r['errors']}")


def pairing_cpu(data_dir: Path, tid: int) -> None:
    """Pair each stored round again from the history before it, timed in CPU seconds."""
    from sqlalchemy import create_engine, select

    from asobiba.tables import TOURNAMENT_ENTRIES, TOURNAMENT_GAMES
    from asobiba.tournaments import swiss

    engine = create_engine(f"sqlite:///{data_dir / 'asobiba.db'}")
    with engine.connect() as conn:
        entries = [(int(p), float(r)) for p, r in conn.execute(
            select(TOURNAMENT_ENTRIES.c.player_id, TOURNAMENT_ENTRIES.c.rating)
            .where(TOURNAMENT_ENTRIES.c.tournament_id == tid))]
        games = [dict(g) for g in conn.execute(select(TOURNAMENT_GAMES).where(
            TOURNAMENT_GAMES.c.tournament_id == tid)).mappings()]
    engine.dispose()
    last = max((int(g["round"]) for g in games), default=0)
    for rnd in range(1, last + 1):
        before = [g for g in games if int(g["round"]) < rnd]
        played = [swiss.Game(*json.loads(g["players"]), json.loads(g["points"])[0])
                  for g in before if g["room_id"] and g["points"]]
        byes = [json.loads(g["players"])[0] for g in before if not g["room_id"]]
        recs = swiss.records(entries, played, byes)
        t0, w0 = time.process_time(), time.monotonic()
        pairing = swiss.pair_round(recs)
        print(f"pairing round {rnd} of {len(recs)} players: {len(pairing.games)} games, "
              f"CPU {time.process_time() - t0:.3f} s, wall {time.monotonic() - w0:.3f} s, "
              f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def players_process(conn: Connection, port: int, data_dir: str, n: int, interval: float,
                    plies: tuple[int, int], seed: int) -> None:
    """The tournament's 200 players, in a process of their own: 200 pages parsing a
    snapshot each at a round's start cost ~1.5 s of one event loop, and in the process that
    also timed the other rooms' acknowledgements that delay was measured as the server's
    (py-spy of the bench, session 13). Browsers parse on their own machines."""
    async def go() -> None:
        tour = Tournament(port, n, interval, plies, seed)
        t0 = time.monotonic()
        await tour.setup(Path(data_dir))
        conn.send(("ready", tour.tid, time.monotonic() - t0))
        while True:
            what = await asyncio.to_thread(conn.recv)
            if what[0] != "run":
                return
            rounds0, c0 = tour.rounds_seen, time.process_time()
            await tour.run(float(what[1]))
            conn.send({"rounds": tour.rounds_seen - rounds0, "games": len(tour.games_done),
                       "t_errors": dict(tour.errors), "players_cpu_s": time.process_time() - c0})

    asyncio.run(go())


async def run(args: argparse.Namespace) -> None:
    cluster = Cluster("embedded", 0)
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    child = ctx.Process(target=players_process, args=(
        theirs, cluster.ports[0], str(cluster.dir / "data"), args.players, args.t_interval,
        (args.t_plies[0], args.t_plies[1] + 1), args.seed), daemon=True)
    try:
        child.start()
        _, tid, took = await asyncio.to_thread(mine.recv)
        print(f"{args.players} players (1 registered, the rest guests) joined in {took:.1f} s;"
              " they play from a process of their own", flush=True)
        results = []
        for name, t in (("quiet", None), ("tournament", mine), ("quiet again", None)):
            r = await phase(name, cluster, args, t)
            show(r)
            results.append(r)
        print_ratios(results, "tournament")
        pairing_cpu(cluster.dir / "data", tid)
    finally:
        mine.send(("stop",))
        child.join(30)
        cluster.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--rate", type=float, default=20.0, help="moves/s over all rooms")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--t-interval", type=float, default=3.0,
                    help="seconds between two moves of one tournament game")
    ap.add_argument("--t-plies", type=int, nargs=2, default=(4, 10),
                    help="a tournament game is resigned at a ply in this range")
    ap.add_argument("--seed", type=int, default=1)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
