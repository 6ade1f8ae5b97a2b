"""``companion bench engine``: how many full random games per second the engine scores on one core."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from companion.commands.run import add_db_argument


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure the engine's speed",
        description="Generate seeded random games, then time how fast the engine replays and scores them "
        "on one core (the process is pinned to one CPU where the system allows it).",
    )
    parser.add_argument("target", choices=["engine", "store", "vision"], help="what to measure")
    parser.add_argument("--deck", default="fournier-1878", help="vision: the deck of the six cards")
    parser.add_argument("--detector", type=Path, help="vision: detector model (default: the shipped one)")
    add_db_argument(parser, "store: measure this database (repeat)", "temporary SQLite", action="append")
    parser.add_argument("--events", type=int, default=2000, help="store: events to append (default 2000)")
    parser.add_argument("--writers", type=int, default=1, help="store: tables writing at once (default 1)")
    parser.add_argument("--rules", default="brisca-2", help="rules preset of the games (default brisca-2)")
    parser.add_argument("--games", type=int, default=2000, help="games to score (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("inf")


def run(args: argparse.Namespace) -> int:
    if args.target == "vision":
        from companion.vision.reader import run_bench as run_vision_bench

        return run_vision_bench(args.deck, args.json, detector=args.detector)
    if args.target == "store":
        from companion.store.bench import run_bench

        return run_bench(args.db, args.events, args.writers, args.json)
    from tqdm import tqdm

    from companion.engine import random_game, score
    from companion.errors import MalformedInput

    if args.games < 1:
        raise MalformedInput(f"--games must be at least 1, not {args.games}")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    started = time.process_time()
    seeds = range(args.seed, args.seed + args.games)
    games = [
        random_game(args.rules, seed)
        for seed in tqdm(seeds, desc="simulating", unit="game", disable=args.json)
    ]
    simulated = time.process_time() - started
    cpu, wall = time.process_time(), time.perf_counter()
    for game in games:
        score(game)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    figures = {
        "rules": args.rules,
        "games": args.games,
        "scored_per_cpu_second": _rate(args.games, cpu),
        "scored_per_wall_second": _rate(args.games, wall),
        "simulated_per_cpu_second": _rate(args.games, simulated),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{args.rules}: scored {args.games} random games at {figures['scored_per_cpu_second']} games/s "
            f"(one core, CPU time; {figures['scored_per_wall_second']} games/s wall clock); "
            f"simulated them at {figures['simulated_per_cpu_second']} games/s"
        )
    return 0
