"""Fixtures: a fresh database per test, on SQLite and (when COMPANION_TEST_PG_URL is set) PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from companion.store import Store
from companion.store.database import resolve_url

PG_URL = os.environ.get("COMPANION_TEST_PG_URL")


def fresh_postgres_database(base: str) -> Iterator[str]:
    """Create an empty database on the server of ``base``, yield its URL, drop it afterwards."""
    admin_url = make_url(resolve_url(base))
    name = f"companion_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(PG_URL is None, reason="COMPANION_TEST_PG_URL is not set"),
            ],
        ),
    ]
)
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """The URL of an empty database of each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'companion.db'}"
    else:
        assert PG_URL is not None
        yield from fresh_postgres_database(PG_URL)


@pytest.fixture
def store(db_url: str, tmp_path) -> Iterator[Store]:
    with Store.open(db_url, evidence_dir=tmp_path / "evidence") as opened:
        yield opened


@pytest.fixture
def pg_url() -> Iterator[str]:
    """An empty PostgreSQL database (the test is skipped without COMPANION_TEST_PG_URL)."""
    if PG_URL is None:
        pytest.skip("COMPANION_TEST_PG_URL is not set")
    yield from fresh_postgres_database(PG_URL)
