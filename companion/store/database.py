"""Open a database by URL, tuned for durability, and bring its schema up to date.

SQLite (the default, a file in the user's data folder) runs in WAL mode with
``synchronous=FULL``: a committed transaction is on disk when the commit returns.
PostgreSQL commits durably by default (``synchronous_commit=on``).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from companion.errors import MalformedInput
from companion.paths import PROJECT_ROOT, data_dir

MIGRATIONS_DIR = PROJECT_ROOT / "migrations"
MIGRATION_LOCK = "companion_migration_lock"
PG_MIGRATION_LOCK_KEY = 0x6272_6973  # any constant shared by every process of the product
SQLITE_WAL = "PRAGMA journal_mode=WAL"
SQLITE_BUSY_S = 30.0  # how long a connection waits for another's lock
SQLITE_PRAGMAS = (
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={SQLITE_BUSY_S * 1000:.0f}",
)


def default_url() -> str:
    """The SQLite file under the user's data folder."""
    return f"sqlite:///{data_dir() / 'companion.db'}"


def resolve_url(url: str | None) -> str:
    """A database URL from ``--db``: a SQLAlchemy URL, a file path (SQLite), or None (default)."""
    if not url:
        return default_url()
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    if url.startswith(("postgres://", "postgresql://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    try:
        make_url(url).get_dialect()
    except (ArgumentError, NoSuchModuleError) as error:
        raise MalformedInput(f"bad database URL {url!r}: {error}") from None
    return url


def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    _switch_to_wal(cursor)
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()
    dbapi_connection.isolation_level = None  # transactions begin where SQLAlchemy says (_begin_sqlite)


def _switch_to_wal(cursor: sqlite3.Cursor) -> None:
    """WAL mode, kept in the file. While another process switches a new file to WAL, SQLite answers
    "database is locked" at once, without waiting on its busy timeout: the switch is tried again
    for up to :data:`SQLITE_BUSY_S`."""
    deadline = time.monotonic() + SQLITE_BUSY_S
    while True:
        try:
            cursor.execute(SQLITE_WAL)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _begin_sqlite(connection: Connection) -> None:
    """Every transaction, DDL included, is a real SQLite transaction; migrations take the write lock first."""
    immediate = connection.get_execution_options().get(MIGRATION_LOCK, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def connect(url: str | None) -> Engine:
    """An engine for ``url`` (see :func:`resolve_url`); SQLite files get their folder created."""
    resolved = make_url(resolve_url(url))
    if resolved.get_backend_name() == "sqlite":
        if resolved.database and resolved.database != ":memory:":
            Path(resolved.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(resolved, connect_args={"timeout": SQLITE_BUSY_S})
        event.listen(engine, "connect", _tune_sqlite)
        event.listen(engine, "begin", _begin_sqlite)
        return engine
    return create_engine(resolved, pool_pre_ping=True)


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    """The newest schema revision this code knows."""
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The schema revision stored in the database (None for an empty one)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Migrate the schema to the newest revision (a no-op when it is already there).

    One transaction, holding a lock (SQLite's write lock, a PostgreSQL advisory lock), so
    processes opening a new database at the same moment migrate it once, one after the other.
    """
    head = head_revision()
    if current_revision(engine) == head:
        return
    config = _alembic_config()
    with engine.connect() as connection:
        connection.execution_options(**{MIGRATION_LOCK: True})
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK_KEY})
            if MigrationContext.configure(connection).get_current_revision() != head:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
