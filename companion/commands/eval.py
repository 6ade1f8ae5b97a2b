"""``companion eval video``: run the pipeline over rendered games and compare with their truth."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("eval", help="measure recognition against true records")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    video = actions.add_parser(
        "video",
        help="watch game videos and compare the recognised games with the true ones",
        description="VIDEO is a game video (truth: --truth, or record.json beside it), a rendered "
        "game's folder (game.mp4 and record.json, as 'companion dataset game-video' writes them) or a "
        "folder of rendered games (one such folder each). Prints per game: plays, leaders and winners "
        "right, trump card, final points and winner, events flagged and wrong, the median delay "
        "from a card coming to rest to its event, and how many frames the detector looked at.",
    )
    video.add_argument("video", type=Path, help="a game video, a rendered game's folder, or a folder of them")
    video.add_argument("--truth", type=Path, help="the true record (default: record.json beside the video)")
    from companion.commands.run import add_watch_arguments

    add_watch_arguments(video)
    video.add_argument(
        "--live",
        action="store_true",
        help="play each video at real time and drop the frames the CPU cannot keep up with, as live",
    )
    video.add_argument("--json", action="store_true", help="print the figures as JSON")
    video.set_defaults(run=run)
    identifier = actions.add_parser(
        "identifier",
        help="top-1 of the card identifier: shipped decks, teaching gabriel-fuentes, real photographs",
        description="Needs ../shared. Renders held-out crops of each shipped deck, teaches gabriel-fuentes "
        "(never trained on) into a temporary folder and reads crops of it, and reads the real "
        "photographs of ../shared/real/fournier-photos without teaching that style. With --scene-cards N: "
        "renders table scenes of each --deck instead (its artwork from --artwork/NAME), cuts the first "
        "N face-up cards out at their labelled corners and reads them with the deck's references; "
        "cards wholly in view and partly hidden ones are counted apart.",
    )
    identifier.add_argument("--per-card", type=int, default=50, help="rendered crops per card (default 50)")
    identifier.add_argument("--model", type=Path, help="identifier model (default: the shipped one)")
    identifier.add_argument(
        "--scene-cards", type=int, metavar="N", help="read the first N face-up cards of rendered table scenes"
    )
    identifier.add_argument(
        "--deck",
        action="append",
        help="with --scene-cards: a deck the installation knows (repeatable; default: the shipped decks)",
    )
    identifier.add_argument(
        "--artwork",
        type=Path,
        help="with --scene-cards: folder of deck artwork by name (default: ../shared/decks)",
    )
    identifier.add_argument(
        "--seed",
        type=int,
        default=12345,
        help="first seed of the rendered crops or scenes (default 12345, the evaluation seed; "
        "choose things on another)",
    )
    identifier.add_argument(
        "--json", action="store_true", help="with --scene-cards: print the figures as JSON"
    )
    identifier.set_defaults(run=run_identifier)


def run(args: argparse.Namespace) -> int:
    import json
    from dataclasses import replace

    from companion.engine import load_record
    from companion.errors import MissingResource
    from companion.pipeline.console import options_from_args
    from companion.pipeline.evaluate import all_right, compare, summary
    from companion.pipeline.live import watch

    if not args.video.exists():
        raise MissingResource(f"no video or folder of rendered games at {args.video}")
    if args.video.is_dir():
        one = args.video / "game.mp4"
        videos = [one] if one.is_file() else sorted(args.video.glob("*/game.mp4"))
        jobs = [(video, video.with_name("record.json")) for video in videos]
    else:
        jobs = [(args.video, args.truth or args.video.with_name("record.json"))]
    if not jobs:
        raise MissingResource(f"no game.mp4 in {args.video} or its subfolders")
    missing = [str(truth) for _, truth in jobs if not truth.is_file()]
    if missing:  # said before the first game is watched, not after
        raise MissingResource(f"no true record for {len(missing)} game(s): {', '.join(missing)}")
    games = []
    for video, truth_path in jobs:
        truth = load_record(truth_path)
        timeline = video.with_name("timeline.json")
        rests = []
        if timeline.is_file():
            rests = [e["t"] for e in json.loads(timeline.read_text())["events"] if e["kind"] == "play"]
        args.rules, args.players, args.mode = truth.rules.name, ",".join(truth.players), None
        options = options_from_args(args, video)
        options = replace(options, mode="latest" if args.live else "fast")
        outcome = watch(options, lambda events: None)
        seen = outcome.records[0] if outcome.records else None
        unsettled = outcome.unsettled if len(outcome.records) == 1 else ()  # the flags of the last game
        figures = compare(truth, seen, outcome.stats.events, rests, unsettled)
        figures = {"video": str(video), **figures, **outcome.figures()}
        games.append(figures)
        if not args.json:
            print(_line(figures, all_right(figures)), flush=True)
    total = summary([{k: v for k, v in g.items() if k in _COUNTED} for g in games])
    if args.json:
        print(json.dumps({"games": games, "total": total}))
    else:
        print(
            f"total: {total['games_all_right']}/{total['games']} games all right; plays "
            f"{total['plays_right']}/{total['plays']}, events flagged {total['flagged']}/{total['events']}, "
            f"wrong {total['wrong']} ({total['plays_wrong_unflagged']} of the wrong plays unflagged), "
            f"winner right in {total['winner_right']} (told open in {total['winner_open']}), "
            f"missed {total['missed']}; median delay {total['median_delay_s']} s"
        )
    return 0


def run_identifier(args: argparse.Namespace) -> int:
    import json

    if args.scene_cards is not None:
        return run_scene_identification(args)
    from companion.paths import shared_dir
    from companion.training.identifier import evaluate_identifier

    print(json.dumps(evaluate_identifier(shared_dir(), args.model, args.per_card, args.seed), indent=1))
    return 0


def run_scene_identification(args: argparse.Namespace) -> int:
    import json
    from itertools import islice

    import cv2
    from tqdm import tqdm

    from companion.datasets.decks import decks_root, load_deck_images
    from companion.errors import MalformedInput
    from companion.training.scene_identification import GROUPS, measure, scene_cards
    from companion.vision.decks import list_decks, load_deck
    from companion.vision.identifier import Identifier

    if args.scene_cards < 1:
        raise MalformedInput(f"--scene-cards must be at least 1, got {args.scene_cards}")
    cv2.setNumThreads(1)
    identifier = Identifier.from_file(args.model)
    names = args.deck or [d.name for d in list_decks() if d.origin == "shipped"]
    report = {}
    for offset, name in enumerate(names):
        references = load_deck(name)
        artwork = load_deck_images(name, args.artwork or decks_root())
        found = islice(scene_cards(artwork, args.seed + offset), args.scene_cards)
        cards = list(
            tqdm(found, desc=name, total=args.scene_cards, unit="card", disable=args.json, leave=False)
        )
        report[name] = {"scenes": cards[-1].scene + 1, **measure(identifier, references, cards)}
        if not args.json:
            figures = report[name]
            parts = [
                f"{g} {figures[g]['top1']:.2%} of {figures[g]['cards']}"
                for g in GROUPS
                if figures[g]["cards"]
            ]
            print(f"{name}: {report[name]['scenes']} scenes; top-1 " + ", ".join(parts), flush=True)
            for group in ("whole", "mostly", "hidden"):
                if figures[group]["confusions"]:
                    wrong = ", ".join(f"{k} x{v}" for k, v in figures[group]["confusions"].items())
                    print(f"  {group} confusions: {wrong}", flush=True)
    if args.json:
        print(json.dumps(report))
    return 0


_COUNTED = (
    "plays",
    "plays_right",
    "tricks",
    "leaders_right",
    "winners_right",
    "trump_right",
    "points_right",
    "winner_right",
    "winner_open",
    "events",
    "flagged",
    "wrong",
    "plays_wrong_unflagged",
    "missed",
    "median_delay_s",
    "delays_s",
)


def _line(g: dict[str, object], right: bool) -> str:
    yes = {True: "yes", False: "NO"}
    looked = (
        ""
        if g["detector_frames"] is None
        else f", the detector on {g['detector_frames']} of {g['frames_processed']} frames"
    )
    return (
        f"{g['video']}: {'ALL RIGHT' if right else 'errors'}; plays {g['plays_right']}/{g['plays']}, "
        f"leaders {g['leaders_right']}/{g['tricks']}, winners {g['winners_right']}/{g['tricks']}, "
        f"trump {yes[bool(g['trump_right'])]}, points {yes[bool(g['points_right'])]}, "
        f"winner {yes[bool(g['winner_right'])]}{' (told open)' if g['winner_open'] else ''}; "
        f"flagged {g['flagged']}/{g['events']}, wrong {g['wrong']} "
        f"({g['plays_wrong_unflagged']} unflagged), "
        f"missed {g['missed']}; median delay {g['median_delay_s']} s; {g['ms_per_frame']} ms/frame, "
        f"{g['speed']}x real time, {g['dropped']} frames dropped; vision: {g['vision']}{looked}"
    )
