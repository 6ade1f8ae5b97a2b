"""Consistent copies of a live database: SQLite's online backup API, or ``pg_dump`` for PostgreSQL."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from companion.errors import IllegalAction, MissingResource
from companion.store.database import resolve_url


def backup(url: str | None, out: Path) -> dict[str, Any]:
    """Copy the database at ``url`` to ``out`` while games keep being written; returns what was made."""
    resolved = make_url(resolve_url(url))
    if out.exists():
        raise IllegalAction(f"backup target {out} already exists; choose a new file")
    out.parent.mkdir(parents=True, exist_ok=True)
    if resolved.get_backend_name() == "sqlite":
        _backup_sqlite(Path(resolved.database or ""), out)
        kind = "sqlite"
    else:
        _backup_postgresql(resolved.set(drivername="postgresql"), out)
        kind = "pg_dump"
    return {"kind": kind, "path": str(out), "bytes": out.stat().st_size}


def _backup_sqlite(source: Path, out: Path) -> None:
    if not source.is_file():
        raise MissingResource(f"no SQLite database at {source}")
    src, dst = sqlite3.connect(source, timeout=30), sqlite3.connect(out)
    try:
        src.backup(dst)  # one consistent snapshot, taken while writers continue
    finally:
        dst.close()
        src.close()


def _backup_postgresql(url: Any, out: Path) -> None:
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise MissingResource(
            "pg_dump not found: install the PostgreSQL client tools (apt-get install postgresql-client) "
            "to back up a PostgreSQL database"
        )
    environment = {**os.environ, "PGPASSWORD": url.password or ""}
    dsn = url.set(password=None).render_as_string(hide_password=False)
    done = subprocess.run(
        [pg_dump, "--format=custom", "--file", str(out), "--dbname", dsn],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        out.unlink(missing_ok=True)
        raise MissingResource(f"pg_dump of {dsn} failed: {done.stderr.strip()}")
