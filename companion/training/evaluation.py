"""How well the detector finds cards: on held-out rendered scenes, and on real table frames."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.datasets.scene import MIN_VISIBLE, MOSTLY, WHOLE, in_view
from companion.datasets.writer import label_path
from companion.errors import MissingResource
from companion.vision.readings import Face, Reading, polygon_iou


def match(predicted: list[np.ndarray], truth: list[np.ndarray], threshold: float = 0.5) -> list[int]:
    """Greedy matching (predictions in confidence order): for each truth box, the index of the
    prediction matched to it at IoU >= ``threshold``, or -1."""
    matched = [-1] * len(truth)
    for p, box in enumerate(predicted):
        scores = [(polygon_iou(box, t), i) for i, t in enumerate(truth) if matched[i] < 0]
        best = max(scores, default=(0.0, -1))
        if best[0] >= threshold:
            matched[best[1]] = p
    return matched


@dataclass
class Tally:
    """Counts of true positives, false positives and misses."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, tp: int, fp: int, fn: int) -> None:
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn

    def summary(self) -> dict[str, float | int]:
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")
        f1 = 2 * self.tp / (2 * self.tp + self.fp + self.fn) if self.tp + self.fp + self.fn else float("nan")
        return {
            "recall": round(recall, 4),
            "precision": round(precision, 4),
            "f1": round(f1, 4),
            "truth": self.tp + self.fn,
            "found": self.tp + self.fp,
        }


IN_VIEW = {
    "whole": f"{WHOLE:.0%} or more",
    "mostly": f"{MOSTLY * 100:.0f}-{WHOLE:.0%}",
    "hidden": f"{MIN_VISIBLE * 100:.0f}-{MOSTLY:.0%}",
}
"""Face-up cards by how much of them is in view (:func:`~companion.datasets.scene.in_view`)."""

SMALL, LARGE = 0.07, 0.12
SIZES = {
    "small": f"narrower than {SMALL:.0%} of the frame",
    "medium": f"{SMALL * 100:.0f}-{LARGE:.0%} of the frame wide",
    "large": f"{LARGE:.0%} of the frame wide or more",
}
"""Face-up cards by their width against the frame's longer side (:func:`card_size`); at 640 px a
small card is under 45 px wide at the detector's input."""


def card_size(corners: np.ndarray, longer_side: int) -> str:
    """``"small"``, ``"medium"`` or ``"large"``: the card's width (the mean length of its two
    shorter opposite sides) against the frame's longer side."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    width = min(sides[0] + sides[2], sides[1] + sides[3]) / 2 / longer_side
    return "small" if width < SMALL else "medium" if width < LARGE else "large"


@dataclass
class RenderedReport:
    """Face-up cards overall, the trump card under the stock, cards under hands, and backs;
    face-up cards by size in the frame; and by how much of them is in view, where the dataset
    says (``visible.json``)."""

    images: int = 0
    card: Tally = field(default_factory=Tally)
    trump: Tally = field(default_factory=Tally)
    hand: Tally = field(default_factory=Tally)
    back: Tally = field(default_factory=Tally)
    whole: Tally = field(default_factory=Tally)
    mostly: Tally = field(default_factory=Tally)
    hidden: Tally = field(default_factory=Tally)
    small: Tally = field(default_factory=Tally)
    medium: Tally = field(default_factory=Tally)
    large: Tally = field(default_factory=Tally)
    in_sight: Tally = field(default_factory=Tally)  # faces 60% or more in view; the rest don't count

    def to_dict(self) -> dict[str, object]:
        """Recall and precision of faces and backs; recall alone of the subsets of faces (a
        prediction is not tagged): the trump card and cards under hands always, each size and
        in-view band that has cards (no in-view band for a dataset without ``visible.json``).
        ``in_sight``: recall and precision of the faces at least 60% in view, where a box on a
        face less in view is neither found nor false (a card mostly hidden may be found or not)."""
        out: dict[str, object] = {"images": self.images}
        for name in ("card", "back"):
            out[name] = getattr(self, name).summary()
        if self.in_sight.tp + self.in_sight.fn:
            out["in_sight"] = self.in_sight.summary()
        for name in ("trump", "hand", *SIZES, *IN_VIEW):
            summary = getattr(self, name).summary()
            if name in ("trump", "hand") or summary["truth"]:
                out[name] = {"recall": summary["recall"], "truth": summary["truth"]}
        return out


Labels = list[tuple[int, np.ndarray]]


@dataclass(frozen=True)
class Notes:
    """What a rendered dataset tells of each label line beyond its box: its tags, and the
    fraction of its card in view (None for a dataset rendered before ``visible.json``)."""

    tags: list[list[str]]
    visible: list[float] | None


SeenRendered = Callable[[str, np.ndarray, list[Reading], Labels], None]
"""Told of each rendered frame scored: its name, the frame, the readings and the labels."""

SeenReal = Callable[[str, np.ndarray, list[Reading], tuple[int, int]], None]
"""Told of each real frame: its name, the frame, the readings and the hand-counted range."""


def read_labels(path: Path, width: int, height: int) -> Labels:
    """Ultralytics OBB label lines -> (class, corners in pixels)."""
    labels = []
    for line in path.read_text().splitlines():
        values = line.split()
        if len(values) == 9:
            corners = np.array(values[1:], np.float32).reshape(4, 2) * [width, height]
            labels.append((int(values[0]), corners))
    return labels


def _score_image(
    report: RenderedReport, readings: list[Reading], labels: Labels, notes: Notes, longer_side: int
) -> None:
    for face, cls, tally in ((Face.UP, 0, report.card), (Face.DOWN, 1, report.back)):
        predicted = [r.corners for r in readings if r.face is face]
        truth_index = [i for i, (c, _) in enumerate(labels) if c == cls]
        matched = match(predicted, [labels[i][1] for i in truth_index])
        found = sum(m >= 0 for m in matched)
        tally.add(found, len(predicted) - found, len(matched) - found)
        if cls == 0:
            if notes.visible is not None:
                well = [notes.visible[i] >= MOSTLY for i in truth_index]
                sure = sum(m >= 0 and w for m, w in zip(matched, well, strict=True))
                missed = sum(m < 0 and w for m, w in zip(matched, well, strict=True))
                report.in_sight.add(sure, len(predicted) - found, missed)
            for i, m in zip(truth_index, matched, strict=True):
                subsets = [tag for tag in ("trump", "hand") if tag in notes.tags[i]]
                subsets.append(card_size(labels[i][1], longer_side))
                if notes.visible is not None:
                    subsets.append(in_view(notes.visible[i]))
                for name in subsets:
                    getattr(report, name).add(int(m >= 0), 0, int(m < 0))


def rendered_frames(
    data: Path, split: str, progress: bool
) -> Iterator[tuple[str, np.ndarray, Labels, Notes]]:
    """(name, frame, labels, notes) of each image of a rendered dataset's ``split``."""
    from tqdm import tqdm

    images = sorted((data / "images" / split).glob("*.jpg"))
    if not images:
        raise MissingResource(f"no rendered images under {data / 'images' / split}")
    tags = json.loads((data / "tags.json").read_text())
    visible_path = data / "visible.json"
    visible = json.loads(visible_path.read_text()) if visible_path.is_file() else {}
    for path in tqdm(images, disable=not progress, unit="img"):
        frame = cv2.imread(str(path))
        h, w = frame.shape[:2]
        labels = read_labels(label_path(path), w, h)
        key = f"{split}/{path.stem}"
        yield path.stem, frame, labels, Notes(tags[key], visible.get(key))


def evaluate_rendered(
    detector, data: Path, split: str = "val", progress: bool = False, seen: SeenRendered | None = None
) -> RenderedReport:
    """Recall and precision at IoU 0.5 on oriented boxes, on a rendered dataset's ``split``."""
    report = RenderedReport()
    for name, frame, labels, notes in rendered_frames(data, split, progress):
        readings = detector.detect(frame)
        _score_image(report, readings, labels, notes, max(frame.shape[:2]))
        report.images += 1
        if seen is not None:
            seen(name, frame, readings, labels)
    return report


def sweep_rendered(
    detector, data: Path, thresholds: Iterable[float], split: str = "val", progress: bool = False
) -> dict[float, RenderedReport]:
    """:func:`evaluate_rendered` at each confidence threshold, from one pass of the network.

    The detector must keep boxes down to the lowest threshold; keeping those of a higher one
    afterwards is exact, as non-maximum suppression only lets stronger boxes remove weaker ones.
    """
    reports = {t: RenderedReport() for t in sorted(thresholds)}
    for _, frame, labels, notes in rendered_frames(data, split, progress):
        readings = detector.detect(frame)
        for threshold, report in reports.items():
            kept = [r for r in readings if r.detection_confidence >= threshold]
            _score_image(report, kept, labels, notes, max(frame.shape[:2]))
            report.images += 1
    return reports


def evaluate_real(detector, frames: Path, seen: SeenReal | None = None) -> dict[str, object]:
    """Face-up cards found per real frame against the hand-counted range in ``counts.json``."""
    counts_path = frames / "counts.json"
    if not counts_path.is_file():
        raise MissingResource(f"no counts.json in {frames}")
    counts = json.loads(counts_path.read_text())
    rows = []
    for name, expected in sorted(counts.items()):
        frame = cv2.imread(str(frames / name))
        if frame is None:
            raise MissingResource(f"cannot read real frame {frames / name}")
        readings = detector.detect(frame)
        up = sum(r.face is Face.UP for r in readings)
        down = len(readings) - up
        lo, hi = expected["face_up_min"], expected["face_up_max"]
        ok = lo <= up <= hi
        if seen is not None:
            seen(name, frame, readings, (lo, hi))
        rows.append(
            {
                "frame": name,
                "face_up": up,
                "backs": down,
                "expected": [lo, hi],
                "in_range": ok,
            }
        )
    return {"frames": rows, "in_range": sum(r["in_range"] for r in rows), "total": len(rows)}


def format_report(rendered: dict[str, object] | None, real: dict[str, object] | None) -> Iterable[str]:
    """Human-readable lines of an evaluation."""
    if rendered:
        yield f"rendered validation set: {rendered['images']} images"
        for name in ("card", "trump", "hand", "back"):
            s = rendered[name]
            precision = f", precision {s['precision']:.4f} ({s['found']} found)" if "precision" in s else ""
            yield f"  {name:6s} recall {s['recall']:.4f} of {s['truth']}{precision}"
        if "in_sight" in rendered:
            s = rendered["in_sight"]
            yield (
                f"  face up {MOSTLY:.0%} or more in view (a box on a card less in view neither found nor "
                f"false): recall {s['recall']:.4f} of {s['truth']}, precision {s['precision']:.4f}"
            )
        bands = [*SIZES.items(), *((name, f"{share} in view") for name, share in IN_VIEW.items())]
        for name, band in bands:
            if name in rendered:
                s = rendered[name]
                yield f"  face up, {band}: recall {s['recall']:.4f} of {s['truth']}"
    if real:
        yield f"real frames: face-up count in range in {real['in_range']} of {real['total']}"
        for row in real["frames"]:
            lo, hi = row["expected"]
            yield f"  {row['frame']}: {row['face_up']} face up (expected {lo}-{hi}), {row['backs']} backs"
