"""``companion dataset render``: render a labelled training set for the card detector."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from companion.training.error_pictures import WorstFrames
    from companion.training.evaluation import Labels, SeenReal, SeenRendered
    from companion.vision.detector import DetectorSettings
    from companion.vision.readings import Reading


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("dataset", help="render generated training data")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    render = actions.add_parser("render", help="render table scenes as an ultralytics OBB dataset")
    render.add_argument(
        "--decks",
        nargs="+",
        default=None,
        metavar="STYLE",
        help="deck styles from ../shared/decks (default: all there)",
    )
    render.add_argument("--count", type=int, required=True, help="number of images")
    render.add_argument("--out", type=Path, required=True, help="output folder")
    render.add_argument("--seed", type=int, default=0)
    render.add_argument(
        "--val-fraction",
        type=float,
        default=0.1,
        help="fraction rendered with held-out colours, skins and lights",
    )
    render.add_argument(
        "--max-side",
        type=int,
        default=None,
        help="render each camera's view with its longer side at most this many pixels",
    )
    render.add_argument("--workers", type=int, default=1, help="processes (the CPU is shared: keep it low)")
    render.add_argument("--json", action="store_true", help="print the counts as JSON")
    render.set_defaults(run=run_render)

    evaluate = actions.add_parser("evaluate", help="score the card detector on rendered and real frames")
    evaluate.add_argument("--data", type=Path, help="rendered dataset (its val split is scored)")
    evaluate.add_argument("--split", default="val", choices=("train", "val"))
    evaluate.add_argument(
        "--real",
        type=Path,
        default=None,
        help="folder of real frames with counts.json (default ../shared/real/table-frames)",
    )
    evaluate.add_argument(
        "--model", type=Path, default=None, help="ONNX detector (default models/detector-int8.onnx)"
    )
    evaluate.add_argument(
        "--conf", type=float, default=None, help="confidence threshold (default: the detector's)"
    )
    evaluate.add_argument(
        "--iou",
        type=float,
        default=None,
        help="overlap above which the weaker of two boxes is dropped (default: the detector's)",
    )
    evaluate.add_argument(
        "--sweep",
        type=float,
        nargs="+",
        metavar="CONF",
        help="score --data at each of these confidence thresholds instead (one network pass), "
        "to choose the default on a tuning set",
    )
    evaluate.add_argument(
        "--causes",
        action="store_true",
        help="say instead why face-up cards of --data were missed: what the network proposed for "
        "each before the threshold and the suppression chose (with --pictures: DIR/causes.jpg)",
    )
    evaluate.add_argument(
        "--pictures",
        type=Path,
        metavar="DIR",
        help="draw into DIR the rendered frames with the most mistakes (missed cards red, made-up "
        "ones magenta), a contact sheet of them, and every real frame with its count",
    )
    evaluate.add_argument("--json", action="store_true")
    evaluate.set_defaults(run=run_evaluate)
    from companion.datasets.game_video_cli import register_action

    register_action(actions)


def run_render(args: argparse.Namespace) -> int:
    from companion.datasets.decks import available_styles, decks_root, load_deck_images
    from companion.datasets.writer import plan, write_card, write_dataset
    from companion.errors import MissingResource

    styles = tuple(args.decks or available_styles())
    if not styles:
        raise MissingResource(f"no deck artwork under {decks_root()}")
    for style in styles:
        load_deck_images(style)  # fail early on an unknown style
    jobs = plan(args.count, args.seed, args.val_fraction, styles, args.max_side)
    counts = write_dataset(args.out, jobs, workers=args.workers, progress=not args.json)
    write_card(args.out, jobs, counts)
    if args.json:
        print(json.dumps({"out": str(args.out), **counts}))
    else:
        print(f"wrote {len(jobs)} images to {args.out} ({counts['images']}); see {args.out / 'DATASET.md'}")
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from companion.paths import shared_dir
    from companion.training.evaluation import evaluate_real, evaluate_rendered, format_report
    from companion.vision.detector import Detector

    if args.sweep:
        return _sweep(args)
    if args.causes:
        return _causes(args)
    settings = _settings(args)
    detector = Detector.from_file(args.model, settings, threads=2)
    worst, seen_rendered, seen_real = _pictures(args.pictures)
    rendered = None
    if args.data is not None:
        rendered = evaluate_rendered(
            detector, args.data, args.split, progress=not args.json, seen=seen_rendered
        ).to_dict()
    real_dir = args.real or shared_dir() / "real" / "table-frames"
    real = evaluate_real(detector, real_dir, seen_real) if (real_dir / "counts.json").is_file() else None
    result = {"conf": settings.conf, "iou": settings.iou, "rendered": rendered, "real": real}
    if worst is not None:
        result["pictures"] = [str(p) for p in worst.write(args.pictures)]
    print(json.dumps(result, indent=1) if args.json else "\n".join(format_report(rendered, real)))
    if worst is not None and not args.json:
        print(f"pictures of the worst {len(result['pictures'])} rendered frames: {args.pictures}/sheet.jpg")
    return 0


def _pictures(folder: Path | None) -> tuple[WorstFrames | None, SeenRendered | None, SeenReal | None]:
    """What draws the evaluated frames into ``folder``: the worst rendered frames kept (written at
    the end) and the callbacks told of each rendered and each real frame; all ``None`` without it."""
    if folder is None:
        return None, None, None
    import cv2

    from companion.training.error_pictures import WorstFrames, draw_count, draw_errors

    folder.mkdir(parents=True, exist_ok=True)
    worst = WorstFrames()

    def seen_rendered(name: str, frame: np.ndarray, readings: list[Reading], labels: Labels) -> None:
        worst.offer(name, draw_errors(frame, readings, labels))

    def seen_real(name: str, frame: np.ndarray, readings: list[Reading], expected: tuple[int, int]) -> None:
        cv2.imwrite(str(folder / f"real-{Path(name).stem}.jpg"), draw_count(frame, readings, expected))

    return worst, seen_rendered, seen_real


def _settings(args: argparse.Namespace) -> DetectorSettings:
    """The detector's settings with the --conf and --iou given."""
    from companion.errors import MalformedInput
    from companion.vision.detector import DetectorSettings

    given = {name: getattr(args, name) for name in ("conf", "iou") if getattr(args, name) is not None}
    if not all(0 <= v <= 1 for v in given.values()):
        raise MalformedInput(f"--conf and --iou must lie in [0, 1], got {given}")
    return replace(DetectorSettings(), **given)


def _causes(args: argparse.Namespace) -> int:
    from companion.errors import MalformedInput
    from companion.training.error_pictures import MissExamples
    from companion.training.miss_causes import diagnose_rendered, format_causes
    from companion.vision.detector import Detector

    if args.data is None:
        raise MalformedInput("--causes looks into a rendered dataset: give --data DIR")
    settings = _settings(args)
    detector = Detector.from_file(args.model, settings, threads=2)
    examples = MissExamples() if args.pictures else None
    seen = examples.offer if examples else None
    report = diagnose_rendered(detector, args.data, args.split, not args.json, seen).to_dict()
    sheet = examples.write(args.pictures) if examples else None
    if sheet is not None:
        report["pictures"] = str(sheet)
    print(json.dumps(report, indent=1) if args.json else "\n".join(format_causes(report, settings)))
    if sheet is not None and not args.json:
        print(f"missed cards by cause: {sheet}")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from companion.errors import MalformedInput
    from companion.training.evaluation import sweep_rendered
    from companion.vision.detector import Detector

    if args.data is None:
        raise MalformedInput("--sweep scores a rendered dataset: give --data DIR")
    if not all(0 < t < 1 for t in args.sweep):
        raise MalformedInput(f"--sweep thresholds must lie in (0, 1), got {args.sweep}")
    settings = replace(_settings(args), conf=min(args.sweep), max_det=300)
    detector = Detector.from_file(args.model, settings, threads=2)
    reports = sweep_rendered(detector, args.data, args.sweep, args.split, progress=not args.json)
    rows = {f"{t:g}": r.to_dict() for t, r in reports.items()}
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"NMS overlap {settings.iou:g}")
    print("conf   card recall  precision      F1   trump  hand   back recall  precision")
    for conf, r in rows.items():
        card, back = r["card"], r["back"]
        print(
            f"{conf:6s} {card['recall']:11.4f} {card['precision']:10.4f} {card['f1']:7.4f} "
            f"{r['trump']['recall']:7.4f} "
            f"{r['hand']['recall']:5.4f} {back['recall']:12.4f} {back['precision']:10.4f}"
        )
    return 0
