"""Consistent copies of a live database (SQLite's online backup API, or ``pg_dump`` for PostgreSQL)
and of the evidence files it records, each checked against its sha256."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from companion.errors import IllegalAction, MissingResource
from companion.store.database import resolve_url
from companion.store.store import Store


def evidence_folder(out: Path) -> Path:
    """Where the evidence files of the backup ``out`` go: ``<out>.evidence/<game>/<sha256><suffix>``."""
    return out.with_name(f"{out.name}.evidence")


def backup(url: str | None, out: Path, evidence_dir: Path | None = None) -> dict[str, Any]:
    """Copy the database at ``url`` to ``out``, then its evidence files beside it; safe while games run.

    ``evidence_dir`` is the store's evidence folder (default: the data folder's). Evidence is only
    ever added, so every file the copied database records is there to copy. Returns what was made.
    """
    resolved = make_url(resolve_url(url))
    for target in (out, evidence_folder(out)):
        if target.exists():
            raise IllegalAction(f"backup target {target} already exists; choose a new file")
    out.parent.mkdir(parents=True, exist_ok=True)
    if resolved.get_backend_name() == "sqlite":
        _backup_sqlite(Path(resolved.database or ""), out)
        kind = "sqlite"
    else:
        _backup_postgresql(resolved.set(drivername="postgresql"), out)
        kind = "pg_dump"
    evidence = _backup_evidence(url, evidence_dir, evidence_folder(out))
    return {"kind": kind, "path": str(out), "bytes": out.stat().st_size, "evidence": evidence}


def _backup_evidence(url: str | None, evidence_dir: Path | None, folder: Path) -> dict[str, Any]:
    """Copy every recorded evidence file whose content still has its sha256; name the others."""
    copied, size, problems = 0, 0, []
    with Store.open(url, evidence_dir=evidence_dir) as store:
        items = [item for game in store.games() for item in store.evidence(game.id)]
    for item in items:
        content = item.path.read_bytes() if item.path.is_file() else None
        if content is None or hashlib.sha256(content).hexdigest() != item.sha256:
            why = "missing" if content is None else "changed since it was recorded"
            problems.append(f"{item.path}: {why}")
            continue
        target = folder / str(item.game_id) / item.path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        copied, size = copied + 1, size + len(content)
    return {"path": str(folder), "files": copied, "bytes": size, "problems": problems}


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
