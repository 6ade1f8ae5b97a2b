"""``companion backup OUT``: a consistent copy of the database, safe while a game is being scored."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="copy the database consistently, even while a game runs",
        description="SQLite: an online backup into a new database file. PostgreSQL: pg_dump (custom format).",
    )
    parser.add_argument("out", type=Path, help="the new file to write")
    parser.add_argument("--db", help="database URL or SQLite file (default: the data folder's database)")
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.store.backup import backup

    made = backup(args.db, args.out)
    print(
        json.dumps(made)
        if args.json
        else f"backed up to {made['path']} ({made['bytes']} bytes, {made['kind']})"
    )
    return 0
