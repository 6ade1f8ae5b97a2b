"""``companion run``: watch a real table (or a video of one) and keep the game by the rules."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``run``, ``demo`` and ``eval video``: the deck, the table, the vision."""
    parser.add_argument(
        "--deck", help="deck style to recognise (default fournier-1878, or the rendered video's deck)"
    )
    parser.add_argument("--calibration", type=Path, help="table profile (default: find the corner markers)")
    parser.add_argument(
        "--table-mm",
        default=None,
        help="table size W,H in mm, for the corner markers (default 900,900, or the rendered video's)",
    )
    parser.add_argument(
        "--vision",
        choices=("auto", "detector", "changes", "both"),
        default="auto",
        help="card proposals from both the change-based proposer and the learned detector (righter where "
        "cards are tossed onto each other), the proposer alone (changes: half the CPU, as right "
        "where cards are laid apart), the detector alone, or auto, the default (both when a detector is "
        "shipped, else changes); see README.md",
    )


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the web UI listens: shared by ``run``, ``demo`` and ``serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="web UI address (0.0.0.0: home network)")
    parser.add_argument("--port", type=int, default=8000, help="web UI port (0: any free one)")


DB_HELP = "a database URL (postgresql://...) or SQLite file"


def add_db_argument(
    parser: argparse.ArgumentParser, purpose: str, default: str = "the data folder's", **options: Any
) -> None:
    """The ``--db`` option of every command that opens the store, worded in one place."""
    parser.add_argument("--db", help=f"{purpose}: {DB_HELP} (default: {default})", **options)


def add_store_arguments(parser: argparse.ArgumentParser, without: str) -> None:
    """Where scored games are kept: shared by ``run`` and ``serve``; ``without`` says where
    they stay with ``--no-db``."""
    add_db_argument(parser, "keep the games in this database")
    parser.add_argument("--no-db", action="store_true", help=f"keep the games only {without}")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run",
        help="watch a table and score the game live",
        description="Watch a table through a camera, a video file, an RTSP/MJPEG URL or an image folder; "
        "print each trick and the score as they happen and write the game record as it goes.",
    )
    parser.add_argument("--source", required=True, help="webcam index, video file, URL or image folder")
    parser.add_argument("--rules", default="brisca-2", help="rules preset (default brisca-2)")
    parser.add_argument("--players", help="player names, comma-separated, in seat order (default A,B,...)")
    add_watch_arguments(parser)
    parser.add_argument("--record", type=Path, help="write the game record here, as it goes")
    parser.add_argument("--evidence", type=Path, help="trick snapshots folder (default: beside the record)")
    parser.add_argument("--headless", action="store_true", help="no web UI")
    add_store_arguments(parser, without="in --record")
    add_web_arguments(parser)
    pace = parser.add_mutually_exclusive_group()
    paces = (("--realtime", "realtime", "at the file's pace"), ("--fast", "fast", "at full speed"))
    for flag, mode, about in paces:
        pace.add_argument(flag, dest="mode", action="store_const", const=mode, help=f"every frame, {about}")
    parser.add_argument("--json", action="store_true", help="print events and the result as JSON lines")
    parser.set_defaults(run=run, mode=None)


def run(args: argparse.Namespace) -> int:
    from companion.pipeline.console import options_from_args, play_outcome

    play_outcome(options_from_args(args, args.source), args, store_url=None if args.no_db else args.db or "")
    return 0
