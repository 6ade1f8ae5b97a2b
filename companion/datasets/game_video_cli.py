"""``companion dataset game-video``: a whole random game rendered as a video with its true record;
``companion dataset game-suite``: every game a suite file lists, so rendered."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from companion.datasets.game_video import VideoSpec
    from companion.engine import GameRecord


def register_action(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``game-video`` and ``game-suite`` to ``companion dataset``'s actions."""
    parser = actions.add_parser(
        "game-video",
        help="render a whole random game as a video, with its true record and timeline",
        description="Simulate a game with random legal play and film it on a rendered table (colours "
        "held out from detector training): game.mp4, record.json (the truth) and timeline.json "
        "(when each card came to rest) in OUT.",
    )
    _add_film_options(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)
    suite = actions.add_parser(
        "game-suite",
        help="render every game a suite file lists, each into its own folder, skipping those done",
        description="Render the games SUITE lists, one a line: a seed and the options of 'companion "
        "dataset game-video' (# starts a comment), each into OUT/SEED, so that a set of games can be "
        "rendered again the same anywhere and scored with 'companion eval video OUT'. Every line is "
        "checked before the first game is rendered; games already rendered are kept.",
    )
    suite.add_argument("suite", type=Path, help="the suite file, e.g. datasets/suites/stalls.txt")
    suite.add_argument("--out", type=Path, required=True, help="folder of the rendered games")
    suite.set_defaults(run=run_suite)


def _add_film_options(parser: argparse.ArgumentParser) -> None:
    """The options that say which game is filmed and how."""
    parser.add_argument("--rules", default="brisca-2", help="rules preset (default brisca-2)")
    parser.add_argument("--deck", default="fournier-1878", help="deck style from ../shared/decks")
    parser.add_argument("--seed", type=int, default=0, help="the game and the film (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")
    parser.add_argument("--fps", type=int, default=15)
    parser.add_argument("--crf", type=int, default=28, help="H.264 quality: higher is smaller (default 28)")
    parser.add_argument(
        "--placement",
        choices=("apart", "loose"),
        default="apart",
        help="how cards are laid in a trick: apart, each before its seat (default), or loose, tossed "
        "near the middle over the cards before",
    )
    parser.add_argument(
        "--light",
        choices=("drift", "switched"),
        default="drift",
        help="how the light changes: drift, slowly (default), or switched, also at once now and then, "
        "as when a lamp is switched on, the camera's exposure following",
    )
    parser.add_argument(
        "--shadows",
        action="store_true",
        help="people cast shadows: each hand its own, and now and then someone leans over the table",
    )
    parser.add_argument(
        "--tilt",
        type=float,
        default=0.0,
        help="the camera's tilt, degrees off vertical, as a phone propped at seat 0's edge of the table "
        "(default 0: overhead)",
    )
    parser.add_argument(
        "--things",
        action="store_true",
        help="now and then a player sets a phone, a glass, coins or a score pad down beside them, and "
        "takes it back later",
    )
    parser.add_argument(
        "--noise",
        type=float,
        default=0.0,
        help="the camera sensor's noise, in grey levels (standard deviation), as a webcam's in a dim "
        "room (default 0)",
    )
    parser.add_argument(
        "--stalls",
        type=int,
        default=0,
        help="how many plays the stream stalls over (a phone's stream over Wi-Fi freezing a few seconds), "
        "the camera seeing none of them (default 0)",
    )
    parser.add_argument(
        "--table-mm",
        default="640,640",
        help="the table's size W,H in mm (default 640,640: a small card table, the whole of it in view)",
    )
    parser.add_argument("--tricks", type=int, default=None, help="film only the first N tricks")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    with tqdm(desc="frames", unit="frame", disable=args.json) as bar:
        summary = _film(args, bar.update)
    if args.json:
        print(json.dumps({key: value for key, value in summary.items() if key != "events"}))
    else:
        size = (args.out / "game.mp4").stat().st_size / 1e6
        print(f"wrote {args.out / 'game.mp4'} ({summary['seconds']} s, {size:.1f} MB) with record.json")
    return 0


def _film(args: argparse.Namespace, progress: Callable[[int], object] | None) -> dict[str, object]:
    """Film the game ``args`` (the options of :func:`_add_film_options`) names into ``args.out``."""
    from companion.datasets.game_video import write_game_video

    record, spec = _planned(args)
    return write_game_video(record, args.deck, args.seed, args.out, spec, args.crf, progress)


def _planned(args: argparse.Namespace) -> tuple[GameRecord, VideoSpec]:
    """The game ``args`` names and how it is filmed."""
    from companion.datasets.game_video import VideoSpec, first_tricks
    from companion.engine import random_game, rules_for
    from companion.errors import MalformedInput
    from companion.table.profile import parse_table_mm

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise MalformedInput(f"--size wants WxH, e.g. 1280x720: got {args.size!r}") from None
    record = random_game(rules_for(args.rules), args.seed)
    if args.tricks is not None:
        record = first_tricks(record, args.tricks)
    spec = VideoSpec(
        size=(width, height),
        fps=args.fps,
        placement=args.placement,
        light=args.light,
        shadows=args.shadows,
        tilt=args.tilt,
        things=args.things,
        table_mm=parse_table_mm(args.table_mm),
        noise=args.noise,
        stalls=args.stalls,
    )
    return record, spec


class _LineParser(argparse.ArgumentParser):
    """Parses one line of a suite file, raising instead of exiting on a bad option."""

    def error(self, message: str) -> NoReturn:
        from companion.errors import MalformedInput

        raise MalformedInput(message)


def read_suite(path: Path, out: Path) -> list[argparse.Namespace]:
    """The games the suite file at ``path`` lists, each to be filmed into ``out``/SEED. A line that is
    not a seed followed by 'companion dataset game-video' options naming a game that can be filmed
    is an error naming that line."""
    from companion.datasets.game_video import GameFilm
    from companion.errors import CompanionError, MalformedInput, MissingResource

    if not path.is_file():
        raise MissingResource(f"no suite file {path}")
    parser = _LineParser(prog="companion dataset game-video", add_help=False)
    _add_film_options(parser)
    games = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        words = shlex.split(line, comments=True)
        if not words:
            continue
        try:
            if not words[0].isdigit():
                raise MalformedInput(f"a line starts with the game's seed, not {words[0]!r}")
            game = parser.parse_args([*words[1:], "--seed", words[0], "--out", str(out / words[0])])
            record, spec = _planned(game)
            GameFilm(record, game.deck, game.seed, spec)  # what cannot be filmed fails before any is
        except CompanionError as error:
            raise MalformedInput(f"{path} line {number}: {error}") from None
        games.append(game)
    seeds = [game.seed for game in games]
    if len(set(seeds)) != len(seeds):
        raise MalformedInput(f"{path}: a seed is listed twice, and each game has a folder of its own")
    return games


def run_suite(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    games = read_suite(args.suite, args.out)
    todo = [game for game in games if not (game.out / "timeline.json").is_file()]
    for game in tqdm(todo, desc="games", unit="game"):
        _film(game, None)
    print(
        f"rendered {len(todo)} games, {len(games) - len(todo)} were there already: "
        f"score them with 'companion eval video {args.out}'"
    )
    return 0
