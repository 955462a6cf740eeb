from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from asobiba.progression.models import create_all


@pytest.fixture
def session(tmp_path) -> Iterator[Session]:
    engine = create_engine(f"sqlite:///{tmp_path / 'prog.db'}")
    create_all(engine)
    with Session(engine) as s:
        yield s
    engine.dispose()


@pytest.fixture
def hasher() -> PasswordHasher:
    """Cheap argon2id parameters: the tests check behaviour, not hardness."""
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
