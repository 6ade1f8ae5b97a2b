"""``companion calibrate``: make a table profile from a camera or an image, or print the marker sheet."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import MalformedInput, MissingResource, RecognitionFailure

if TYPE_CHECKING:
    import numpy as np

    from companion.table.profile import TableProfile


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="map the camera image onto the table (profile JSON), or print the corner markers",
        description="Find the table from the four corner markers (else from --corners), write the "
        "table profile, and draw it on the frame (table outline, seats, stock and trump zone, play "
        "area) so you can check it. With --markers, write the printable marker sheet instead.",
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--markers", type=Path, metavar="SHEET", help="write the A4 marker sheet (.pdf or .png)"
    )
    what.add_argument("--source", help="camera index, stream URL, video file or image folder")
    what.add_argument("--image", type=Path, help="a still image of the table")
    parser.add_argument(
        "--corners",
        help="table corners in px, top-left, top-right, bottom-right, bottom-left: x,y,x,y,x,y,x,y",
    )
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7), help="seat preset (default 2)")
    parser.add_argument(
        "--size", default="900x900", help="table width x height in mm between the outer corners"
    )
    parser.add_argument("--out", type=Path, help="profile to write (e.g. calibration/table.json)")
    parser.add_argument(
        "--check", type=Path, help="annotated image to write (default: beside --out, .check.jpg)"
    )
    parser.add_argument("--wait", type=float, default=5.0, help="seconds to look for the markers on a source")
    parser.add_argument("--json", action="store_true", help="print the profile as JSON")
    parser.set_defaults(run=run)


def parse_size(text: str) -> tuple[float, float]:
    """``"900x600"`` -> (900.0, 600.0) mm."""
    try:
        width, height = (float(part) for part in text.lower().split("x"))
    except ValueError:
        raise MalformedInput(f"table size must be WIDTHxHEIGHT in mm, got {text!r}") from None
    if width <= 0 or height <= 0:
        raise MalformedInput(f"table size must be positive, got {text!r}")
    return width, height


def parse_corners(text: str) -> list[list[float]]:
    """``"x,y,x,y,x,y,x,y"`` -> four (x, y) points."""
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise MalformedInput(f"--corners needs eight numbers x,y,x,y,x,y,x,y, got {text!r}")
    return [values[i : i + 2] for i in range(0, 8, 2)]


def _frames(args: argparse.Namespace) -> list[np.ndarray]:
    """The frames to calibrate on: the image, or what the source shows within ``--wait`` seconds."""
    import time

    import cv2

    from companion.capture import Capture, Status

    if args.image is not None:
        image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
        if image is None:
            raise MissingResource(f"cannot read image {args.image}")
        return [image]
    frames = []
    deadline = time.monotonic() + args.wait
    with Capture(args.source) as capture:
        while time.monotonic() < deadline and capture.status is not Status.ENDED:
            frame = capture.read(timeout=0.5)
            if frame is not None:
                frames.append(frame.image)
                if len(frames) >= 10:
                    break
    if not frames:
        raise RecognitionFailure(f"no frame from {args.source!r} within {args.wait:g} s")
    return frames


def calibrate(
    frames: list[np.ndarray], corners: list[list[float]] | None, players: int, size_mm: tuple[float, float]
) -> tuple[TableProfile, np.ndarray]:
    """A profile from the first frame whose markers are all visible, else from the given corners;
    with the frame it was made on."""
    from companion.table.profile import profile_from_corners, profile_from_markers

    failure = None
    for frame in frames:
        try:
            return profile_from_markers(frame, players, size_mm), frame
        except RecognitionFailure as error:
            failure = error
    if corners is None:
        raise RecognitionFailure(f"{failure}; give the table corners with --corners x,y,x,y,x,y,x,y")
    height, width = frames[-1].shape[:2]
    return profile_from_corners(corners, (width, height), players, size_mm), frames[-1]


def run(args: argparse.Namespace) -> int:
    if args.markers is not None:
        from companion.table.sheet import write_marker_sheet

        write_marker_sheet(args.markers)
        print(f"marker sheet written to {args.markers}: print it at 100%, the black squares measure 50 mm")
        return 0
    if args.out is None:
        raise MalformedInput("--out FILE is needed to write the table profile")
    import cv2

    from companion.table.draw import draw_profile

    corners = None if args.corners is None else parse_corners(args.corners)
    size_mm = parse_size(args.size)
    profile, frame = calibrate(_frames(args), corners, args.players, size_mm)
    profile.save(args.out)
    check = args.check or args.out.with_suffix(".check.jpg")
    check.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(check), draw_profile(frame, profile))
    if args.json:
        print(json.dumps({"profile": str(args.out), "check": str(check), **profile.to_dict()}, indent=2))
    else:
        corners_text = "  ".join(f"({x:.0f}, {y:.0f})" for x, y in profile.table_corners_px())
        print(f"table found from {profile.source}: {profile.size_mm[0]:g} x {profile.size_mm[1]:g} mm")
        print(f"  corners in the image: {corners_text}")
        print(f"  {profile.players} seats; profile written to {args.out}; look at {check} to check it")
    return 0
