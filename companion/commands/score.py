"""``companion score RECORD``: replay a game or match record and print its result."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a game or match record (JSON to stdout)",
        description="Replay a brisca-record/1 or brisca-match/1 file by its rules. Exit 0 when the "
        "record is valid, 1 when it breaks the rules (the issues say how), 2 when it is not a record.",
    )
    parser.add_argument("record", help="path of the record file ('-' reads stdin)")
    parser.add_argument("--text", action="store_true", help="print for a person, trick by trick")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.engine import load_record, record_from_dict, score, score_text
    from companion.errors import MalformedInput

    if args.record == "-":
        try:
            record = record_from_dict(json.load(sys.stdin))
        except json.JSONDecodeError as error:
            raise MalformedInput(f"stdin: not JSON: {error}") from None
    else:
        record = load_record(args.record)
    result = score(record)
    print(score_text(result) if args.text else json.dumps(result, indent=2, ensure_ascii=False))
    return 0 if result["valid"] else 1
