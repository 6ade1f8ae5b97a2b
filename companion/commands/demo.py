"""``companion demo``: a bundled game video played through the whole pipeline, with the live scoreboard."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands.run import add_watch_arguments, add_web_arguments
from companion.paths import PROJECT_ROOT

#: The bundled sample: a whole brisca-2 game rendered with the public-domain Fournier 1878 deck.
SAMPLE = PROJECT_ROOT / "datasets" / "samples" / "brisca-2-fournier-1878"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "demo",
        help="play the bundled sample game video through the pipeline",
        description="Play the bundled video of a whole game (rendered from the public-domain Fournier "
        "1878 deck) through the pipeline in real time, print each trick and the score, serve the live "
        "scoreboard, and end with the final result checked against the game's true record.",
    )
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="folder with game.mp4 and record.json")
    parser.add_argument("--fast", dest="mode", action="store_const", const="fast", help="at full speed")
    parser.add_argument("--headless", action="store_true", help="no web UI")
    add_web_arguments(parser)
    parser.add_argument("--record", type=Path, help="also write the recognised record here")
    parser.add_argument("--json", action="store_true", help="print events and the result as JSON lines")
    add_watch_arguments(parser)
    parser.set_defaults(run=run, mode=None)


def run(args: argparse.Namespace) -> int:
    from companion.engine import load_record, replay
    from companion.errors import MissingResource
    from companion.pipeline.console import options_from_args, play_outcome

    video, truth_path = args.sample / "game.mp4", args.sample / "record.json"
    if not video.is_file() or not truth_path.is_file():
        raise MissingResource(f"the demo sample is missing: {video} and {truth_path} are needed")
    truth = load_record(truth_path)
    args.rules, args.players, args.evidence = truth.rules.name, ",".join(truth.players), None
    outcome = play_outcome(options_from_args(args, video), args)
    expected, seen = replay(truth), replay(outcome.records[0]) if outcome.records else None
    same = seen is not None and seen.points == expected.points and seen.winners == expected.winners
    if not args.json:
        points = "-".join(map(str, expected.points))
        print(f"true result: points {points}; recognised {'the same' if same else 'DIFFERENTLY'}")
    return 0
