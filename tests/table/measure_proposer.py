"""Measure the change-based proposer on generated frames: recall, precision, face hint, ms per frame.

    nice -n 10 .venv/bin/python tests/table/measure_proposer.py --scenes 100 [--deck fournier-1878]

A proposal is right when it overlaps a true card with IoU >= 0.7; recall counts
the cards no hand touches (a card under a hand cannot be seen), precision all
proposals. ``--deck`` draws the cards with a deck's artwork from ``../shared/decks``.
"""

from __future__ import annotations

import argparse
import json
import time

import cv2
import numpy as np
from table_scenes import SIZE_MM, Artwork, Scene, render

from companion.errors import MissingResource
from companion.paths import shared_dir
from companion.table.markers import table_corners_mm
from companion.table.profile import profile_from_markers
from companion.table.proposer import ChangeProposer
from companion.vision.readings import Face, Reading

#: name -> render options of each condition measured.
CONDITIONS: dict[str, dict[str, float | bool]] = {
    "clean": {},
    "noise 4, light -20%": {"noise": 4.0, "light": 0.8},
    "noise 4, hand over the table": {"noise": 4.0, "hand": True},
    "noise 4, cards overlapping in pairs": {"noise": 4.0, "overlap": True},
}


def iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter))


def score(scene: Scene, readings: list[Reading]) -> dict[str, float]:
    """Counts of true, false and missed proposals, and right face hints, in one scene."""
    matched: dict[int, Reading] = {}
    false = 0
    for reading in readings:
        overlaps = [iou(reading.corners, card) for card in scene.cards_px]
        best = int(np.argmax(overlaps))
        if overlaps[best] >= 0.7 and best not in matched:
            matched[best] = reading
        else:
            false += 1
    clear = [i for i, is_clear in enumerate(scene.clear) if is_clear]
    faces = sum((r.face is Face.UP) == scene.faces_up[i] for i, r in matched.items())
    corner_error_mm = sum(_corner_error_mm(r.corners, scene.cards_px[i], scene) for i, r in matched.items())
    return {
        "found": sum(i in matched for i in clear),
        "missed": sum(i not in matched for i in clear),
        "false": false,
        "faces_right": faces,
        "faces": len(matched),
        "corner_error_mm": corner_error_mm,
    }


def _corner_error_mm(proposed: np.ndarray, truth: np.ndarray, scene: Scene) -> float:
    """Mean distance on the table between a proposal's corners and the nearest true corners."""
    to_table = cv2.getPerspectiveTransform(
        scene.corners_px.astype(np.float32), table_corners_mm(SIZE_MM).astype(np.float32)
    )
    a, b = (
        cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float64), to_table).reshape(-1, 2)
        for q in (proposed, truth)
    )
    return float(np.mean([np.linalg.norm(b - point, axis=1).min() for point in a]))


def load_artwork(style: str) -> Artwork:
    folder = shared_dir() / "decks" / style
    if not (folder / "back.png").is_file():
        raise MissingResource(f"no deck artwork in {folder}")
    faces = [cv2.imread(str(path), cv2.IMREAD_COLOR) for path in sorted(folder.glob("[0-9]*.png"))]
    return Artwork(faces, cv2.imread(str(folder / "back.png"), cv2.IMREAD_COLOR))


def measure(
    scenes: int, cards: int, artwork: Artwork | None = None, **options: float | bool
) -> dict[str, float]:
    totals: dict[str, float] = {
        "found": 0,
        "missed": 0,
        "false": 0,
        "faces_right": 0,
        "faces": 0,
        "corner_error_mm": 0.0,
    }
    times, cpu_times = [], []
    for seed in range(scenes):
        scene = render(seed, cards=cards, artwork=artwork, **options)  # type: ignore[arg-type]
        proposer = ChangeProposer(profile_from_markers(scene.empty, 4, SIZE_MM), scene.empty)
        started, cpu_started = time.perf_counter(), time.thread_time()
        readings = proposer.propose(scene.frame)
        times.append(time.perf_counter() - started)
        cpu_times.append(time.thread_time() - cpu_started)
        for key, value in score(scene, readings).items():
            totals[key] += value
    return {
        "recall": round(totals["found"] / max(1, totals["found"] + totals["missed"]), 4),
        "precision": round(totals["found"] / max(1, totals["found"] + totals["false"]), 4),
        "face_accuracy": round(totals["faces_right"] / max(1, totals["faces"]), 4),
        "corner_error_mm": round(totals["corner_error_mm"] / max(1, totals["faces"]), 2),
        "ms_median": round(1000 * float(np.median(times)), 2),
        "cpu_ms_median": round(1000 * float(np.median(cpu_times)), 2),  # this thread's own CPU time
        "ms_p95": round(1000 * float(np.percentile(times, 95)), 2),
        "cards": scenes * cards,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--cards", type=int, default=6)
    parser.add_argument("--deck", help="draw the cards with this deck style's artwork")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    artwork = None if args.deck is None else load_artwork(args.deck)
    results = {
        name: measure(args.scenes, args.cards, artwork, **options) for name, options in CONDITIONS.items()
    }
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
