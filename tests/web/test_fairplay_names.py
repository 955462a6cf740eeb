"""Issue 25 item 7: account names that look like another's (docs/fair-play.md, "Names").

The attack, measured on the old main: "аdmin" (a Cyrillic а) and "ＡＤＭＩＮ" (fullwidth)
registered beside "admin" — three accounts a person cannot tell apart. Now a name is stored
in NFKC and owned through its UTS #39 skeleton (case-folded), one account per skeleton by a
unique index; on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from asobiba.progression import accounts
from asobiba.progression.errors import AccountError
from asobiba.server import create_app
from asobiba.server.db import Store
from asobiba.server.limits import Limits

PASSWORD = "a long password 9"
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture
def client(tmp_path: Path, db_url: str) -> Iterator[TestClient]:
    # more registrations than one address may make in ten minutes
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0,
                               limits=Limits(scale=10))) as c:
        yield c


def register(c: TestClient, name: str) -> Any:
    c.cookies.clear()
    return c.post("/api/account/register", json={"name": name, "password": PASSWORD})


def test_rule_a_name_that_looks_like_a_taken_one_is_refused(client: TestClient) -> None:
    assert register(client, "admin").status_code == 201
    for twin in ("\u0430dmin",  # Cyrillic а
                 "\uff21\uff24\uff2d\uff29\uff2e",  # ＡＤＭＩＮ, fullwidth
                 "Admin", "ADMIN", "adrnin"):  # rn looks like m
        res = register(client, twin)
        assert res.status_code == 400, (twin, res.text)
        assert res.json()["error"]["code"] == "name_taken", res.text
        assert "admin" in res.json()["error"]["message"]
    # a name that only shares letters is free
    assert register(client, "admiral").status_code == 201


def test_rule_names_are_stored_in_nfkc_and_signed_in_with_any_width(
        client: TestClient) -> None:
    res = register(client, "\uff28\uff41\uff4e\uff41")  # Ｈａｎａ
    assert res.status_code == 201, res.text
    assert res.json()["player"]["name"] == "Hana"
    client.cookies.clear()
    ok = client.post("/api/account/login", json={"name": "\uff28\uff41\uff4e\uff41",
                                                  "password": PASSWORD})
    assert ok.status_code == 200, ok.text


def test_rule_two_racing_look_alike_registrations_cannot_both_win(pg_url: str) -> None:
    """The unique index decides, not the check before it: two sessions that both passed
    the look-up (neither name existed yet) commit; exactly one does. (PostgreSQL: on
    SQLite a write transaction holds the database's one write lock from its start, so two
    registrations never overlap there.)"""
    store = Store(pg_url)  # the schema at the newest revision
    outcomes: list[str] = []
    barrier = threading.Barrier(2)
    checked = threading.Barrier(2)
    real_free = accounts._check_name_free

    def free_then_wait(session: Session, name: str) -> None:
        real_free(session, name)  # both pass: nothing is stored yet
        checked.wait(timeout=60)

    def go(name: str) -> None:
        barrier.wait(timeout=60)
        try:
            with Session(store.engine) as s, s.begin():
                accounts.register(s, name, PASSWORD, FAST)
            outcomes.append("stored")
        except AccountError as exc:
            outcomes.append(exc.code)

    accounts._check_name_free = free_then_wait  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=go, args=(n,)) for n in ("kuma", "kum\u0430")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        accounts._check_name_free = real_free  # type: ignore[assignment]
    assert sorted(outcomes) == ["name_taken", "stored"], outcomes
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM prog_players WHERE kind = 'human'")
                            ).scalar() == 1
    store.close()


def test_the_skeleton_migration_keeps_old_look_alikes_and_blocks_new_ones(
        tmp_path: Path) -> None:
    """A database from before this revision may hold two look-alike names: both stay, the
    older owns the skeleton, and a third look-alike is refused after the upgrade."""
    from tests.web.test_migrations import build_old_database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    build_old_database(url)  # holds 'hana' (id 7)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO prog_players (id, name, kind, created, last_seen) "
                          "VALUES (8, 'HANA', 'human', '2026-11-30T10:00:00+00:00', "
                          "'2026-11-30T10:00:00+00:00')"))
    engine.dispose()
    store = Store(url)
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, name, skeleton FROM prog_players "
                                 "ORDER BY id")).all()
    assert [(i, n) for i, n, _ in rows] == [(7, "hana"), (8, "HANA")]
    assert rows[0][2] and rows[1][2] is None
    with Session(store.engine) as s, s.begin(), pytest.raises(AccountError) as err:
        accounts.register(s, "h\u0430na", PASSWORD, FAST)  # Cyrillic а
    assert err.value.code == "name_taken"
    store.close()
