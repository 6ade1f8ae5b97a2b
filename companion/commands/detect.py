"""``companion detect IMAGE --deck NAME``: the cards in one image, named over a deck."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="find and name the cards in an image",
        description="Detect every card in IMAGE and name the face-up ones over the cards of --deck.",
    )
    parser.add_argument("image", type=Path, help="a photo or frame (JPEG, PNG...)")
    parser.add_argument("--deck", required=True, help="the deck style in use (see 'companion deck list')")
    parser.add_argument("--json", action="store_true", help="print the readings as a JSON list")
    parser.add_argument("--out", type=Path, help="write the image with the readings drawn on it")
    parser.add_argument("--detector", type=Path, help="detector model (default: the shipped one)")
    parser.add_argument("--identifier", type=Path, help="identifier model (default: the shipped one)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from companion.errors import MalformedInput
    from companion.table.markers import find_markers, off_markers
    from companion.vision.reader import CardReader, annotate

    reader = CardReader.load(args.deck, detector=args.detector, identifier=args.identifier, threads=2)
    frame = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if frame is None:
        raise MalformedInput(f"cannot read image {args.image}")
    readings = off_markers(reader.read(frame), find_markers(frame))  # our printed corner tiles
    if args.out is not None and not cv2.imwrite(str(args.out), annotate(frame, readings)):
        raise MalformedInput(f"cannot write image {args.out}")
    if args.json:
        print(json.dumps([r.to_dict() for r in readings]))
    else:
        for r in readings:
            name = "back" if r.card is None else f"{r.card} {r.confidence:.0%}"
            x, y = r.center
            print(f"{name:<10} at ({x:.0f}, {y:.0f})")
        print(f"{len(readings)} cards")
    return 0
