"""Proof-number search (df-pn) on 5×5 FlipFlop: the start and the openings after k plies,
each asked both ways (can White force a win? can Black?), within node budgets, with
transpositions, the mirror and the endgame tables at the leaves (≤ 5 pieces by default,
``--tables 4`` for the ≤ 4 table alone, ``--tables 6`` with the 6-piece layer where it was
built: ``python -m asobiba.games.flipflop.tables build --pieces 6``).

Proven results are certified: the certificate is extracted, replayed against the rules
engine (``proof.verify``) and written to ``--certs``. "no win found" is a df-pn disproof,
which may depend on the search path (repetitions), so it is reported, never certified.

    nice -n 10 .venv/bin/python bench/flipflop_dfpn.py [--start 600000] [--ply1 100000]
        [--ply2 3000] [--ply3 0] [--certs DIR] [--tables 5]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import tables as tb
from asobiba.games.flipflop.notation import to_fen
from asobiba.games.flipflop.proof import DfPn, canonical_key, certificate, verify

GEO = bd.GEOMETRY[5]


def openings(pos: tuple[int, int, int, int], plies: int
             ) -> list[tuple[list[str], tuple[int, int, int, int]]]:
    out: dict[int, tuple[list[str], tuple[int, int, int, int]]] = {}
    frontier: list[tuple[list[str], tuple[int, int, int, int]]] = [([], pos)]
    for _ in range(plies):
        nxt = []
        for line, p in frontier:
            for frm, to in bd.legal_moves(GEO, *p):
                c = bd.apply_move(*p, frm, to)
                nxt.append(([*line, f"{GEO.name(frm)}-{GEO.name(to)}"], c))
        frontier = nxt
    for line, p in frontier:
        out.setdefault(canonical_key(p), (line, p))
    return list(out.values())


def ask(pos: tuple[int, int, int, int], attacker: int, budget: int, tab: tb.EndgameTables,
        certs: Path | None, label: str) -> dict[str, object]:
    s = DfPn(attacker, tab, budget)
    out = s.prove(pos)
    row: dict[str, object] = {
        "position": to_fen(5, *pos), "attacker": "white" if attacker == 0 else "black",
        "result": {True: "win", False: "no win found", None: "unknown"}[out.proven],
        "nodes": out.nodes, "cpu_s": round(out.seconds, 1), "tt": out.tt_entries,
        "table_leaves": out.table_leaves}
    if out.proven:
        cert = certificate(s, pos)
        row["certificate_positions"] = verify(cert, tab)
        if certs is not None:
            certs.mkdir(parents=True, exist_ok=True)
            (certs / f"{label}-{row['attacker']}.json").write_text(json.dumps(cert))
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=600_000)
    ap.add_argument("--ply1", type=int, default=100_000)
    ap.add_argument("--ply2", type=int, default=3_000)
    ap.add_argument("--ply3", type=int, default=0)
    ap.add_argument("--certs", type=Path, default=None)
    ap.add_argument("--tables", type=int, default=5, choices=(4, 5, 6),
                    help="the endgame tables at the leaves: ≤ 4, ≤ 5 or ≤ 6 pieces")
    args = ap.parse_args()
    tab = tb.load(args.tables)
    if tab is None:
        raise SystemExit(f"no ≤ {args.tables}-piece tables on disk: python -m "
                         f"asobiba.games.flipflop.tables build --pieces {args.tables}")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    start = bd.start_position(5)
    print(f"tables ≤ {tab.pieces} pieces; load {os.getloadavg()}", flush=True)
    for attacker in (bd.WHITE, bd.BLACK) if args.start else ():
        print(json.dumps({"k": 0, **ask(start, attacker, args.start, tab, args.certs,
                                         "start")}), flush=True)
    for k, budget in ((1, args.ply1), (2, args.ply2), (3, args.ply3)):
        if not budget:
            continue
        tally: dict[str, int] = {}
        for i, (line, pos) in enumerate(openings(start, k)):
            for attacker in (bd.WHITE, bd.BLACK):
                row = ask(pos, attacker, budget, tab, args.certs, f"ply{k}-{i}")
                key = f"{row['attacker']} {row['result']}"
                tally[key] = tally.get(key, 0) + 1
                if k == 1 or row["result"] == "win":
                    print(json.dumps({"k": k, "line": line, **row}), flush=True)
        print(json.dumps({"k": k, "positions": len(openings(start, k)), "tally": tally}),
              flush=True)
    print(f"total cpu {time.process_time() - cpu0:.0f} s, wall "
          f"{time.perf_counter() - wall0:.0f} s, load {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
