"""``companion backup OUT``: a consistent copy of the database and its evidence files, safe while a
game is being scored."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.commands.run import add_db_argument


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="copy the database consistently, even while a game runs",
        description="SQLite: an online backup into a new database file. PostgreSQL: pg_dump (custom "
        "format). The evidence files go to OUT.evidence/, each checked against its recorded sha256; "
        "exit status 1 names any that were missing or changed.",
    )
    parser.add_argument("out", type=Path, help="the new file to write")
    add_db_argument(parser, "the database to copy")
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.store.backup import backup

    made = backup(args.db, args.out)
    evidence = made["evidence"]
    files = f"{evidence['files']} evidence files, sha256 checked, to {evidence['path']}"
    print(
        json.dumps(made)
        if args.json
        else f"backed up to {made['path']} ({made['bytes']} bytes, {made['kind']}) and {files}"
    )
    for problem in evidence["problems"]:
        print(f"evidence not backed up: {problem}", file=sys.stderr)
    return 1 if evidence["problems"] else 0
