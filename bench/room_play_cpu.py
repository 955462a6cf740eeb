"""CPU (the event loop's thread) per move through ``Hub.play`` and its broadcast to the two
players' connections, in process: the room core's own cost, load-independent (the SQLite
writer thread excluded). Old against new: run it with ``PYTHONPATH`` pointing at each tree.

    PYTHONPATH=. python bench/room_play_cpu.py 15 new
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time

from asobiba.games import get
from asobiba.server.bots import BotPool
from asobiba.server.db import Store
from asobiba.server.rooms import Conn, Hub


async def main(games: int, label: str) -> None:
    store = Store(f"sqlite:///{tempfile.mkdtemp()}/a.db")
    hub = Hub(store, BotPool(processes=0, time_limit=10), get, clocks=False)

    async def send(message: object) -> None:
        return None

    async def send_text(text: str) -> None:
        return None

    cpu, moves = 0.0, 0
    for g in range(games):
        room, keys = await hub.create(get("reversi"), {}, [{"kind": "human"}] * 2, seed=g)
        conns = []
        for seat in (0, 1):
            conn = Conn(send, send_text=send_text, ack_in_update=True)
            conn.keys[seat] = keys[seat]
            room.conns.add(conn)
            conns.append(conn)
        while room.status == "active":
            seat = room.state.acting_seats[0]
            text = room.state.legal_moves(seat).texts()[0]
            began = time.thread_time()
            await hub.play(room, seat, text, expect_ply=len(room.moves),
                           ack=(conns[seat], moves))
            cpu += time.thread_time() - began
            moves += 1
    print(f"{label}: {moves} moves, {cpu / moves * 1e6:.0f} us CPU per move (loop thread), "
          f"load {os.getloadavg()[0]:.1f}")
    store.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15,
                     sys.argv[2] if len(sys.argv) > 2 else "run"))
