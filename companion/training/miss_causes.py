"""Why the detector misses face-up cards: what the network proposed for each missed card before the
confidence threshold and non-maximum suppression chose among its boxes.

A missed card has no box of IoU 0.5 at all (the network must learn to draw it), or boxes that the
choosing lost: all classed as backs, all scored under the threshold, or the one that fits it best
dropped for a stronger overlapping box, or kept and matched to an overlapping card it fits better.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.datasets.scene import in_view
from companion.training.evaluation import IN_VIEW, Labels, Notes, match, rendered_frames
from companion.vision.detector import DetectorSettings, Proposals, choose, probiou
from companion.vision.readings import polygon_iou

FLOOR = 0.05
"""The lowest score of the proposals looked at."""

CAUSES = {
    "no_box": "no box of IoU 0.5",
    "back": "boxed only as a back",
    "below": "boxed only under the threshold",
    "suppressed": "best box suppressed",
    "taken": "best box went to another card",
}
"""Why a face-up card was missed, in the order they are told apart."""


class Miss(NamedTuple):
    """Why a face-up card was missed (a key of ``CAUSES``), and the proposal that came closest:
    the back that fits it best, its best-scored face-up box under the threshold, or the face-up
    box above it that fits it best (None when no box fits)."""

    cause: str
    closest: int | None


def _miss(proposals: Proposals, truth: np.ndarray, kept: set[int], conf: float) -> Miss:
    """Why a missed card was not found among ``proposals`` (``kept``: the face-up boxes kept)."""
    fitting = {i: polygon_iou(c, truth) for i, c in enumerate(proposals.corners)}
    fitting = {i: iou for i, iou in fitting.items() if iou >= 0.5}
    if not fitting:
        return Miss("no_box", None)
    faces = {i: iou for i, iou in fitting.items() if proposals.classes[i] == 0}
    if not faces:
        return Miss("back", max(fitting, key=fitting.__getitem__))
    strong = {i: iou for i, iou in faces.items() if proposals.scores[i] >= conf}
    if not strong:
        return Miss("below", max(faces, key=lambda i: proposals.scores[i]))
    best = max(strong, key=strong.__getitem__)
    return Miss("taken" if best in kept else "suppressed", best)


def frame_misses(
    proposals: Proposals, truth: list[np.ndarray], settings: DetectorSettings
) -> list[Miss | None]:
    """For each face-up card's true corners: None if the detector's choice among ``proposals``
    finds it (as :meth:`Detector.detect` would), else why it was missed."""
    kept = choose(proposals.boxes, proposals.scores, settings)
    kept_up = [int(i) for i in kept if proposals.classes[i] == 0]
    matched = match([proposals.corners[i] for i in kept_up], truth)
    return [
        None if m >= 0 else _miss(proposals, t, set(kept_up), settings.conf)
        for t, m in zip(truth, matched, strict=True)
    ]


def crowded(truth: list[np.ndarray], overlap: float) -> list[bool]:
    """For each card's true corners: whether another card's box overlaps it at ``overlap`` or more
    (probabilistic IoU, as suppression measures it), so that one of two perfect boxes is dropped."""
    if len(truth) < 2:
        return [False] * len(truth)
    rects = [cv2.minAreaRect(t.astype(np.float32)) for t in truth]
    boxes = np.array([[cx, cy, w, h, np.deg2rad(a)] for (cx, cy), (w, h), a in rects], np.float64)
    overlaps = probiou(boxes, boxes)
    np.fill_diagonal(overlaps, 0)
    return [bool(v) for v in overlaps.max(1) >= overlap]


@dataclass
class MissCauses:
    """Face-up cards: how many, found, with a fitting face-up proposal (IoU 0.5, score ``floor`` or
    more), crowded by another card (and of those, missed); and the misses by cause and by how much
    of the card is in view."""

    floor: float = FLOOR
    cards: int = 0
    found: int = 0
    crowded: int = 0
    crowded_missed: int = 0
    causes: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(
        self, proposals: Proposals, labels: Labels, notes: Notes, settings: DetectorSettings
    ) -> list[Miss | None]:
        """Count one rendered frame's face-up cards; returns why each was missed (None: found)."""
        faces = [i for i, (k, _) in enumerate(labels) if k == 0]
        truth = [labels[i][1] for i in faces]
        misses = frame_misses(proposals, truth, settings)
        for i, miss, close in zip(faces, misses, crowded(truth, settings.iou), strict=True):
            self.cards += 1
            self.found += miss is None
            self.crowded += close
            self.crowded_missed += close and miss is not None
            if miss is not None:
                band = in_view(notes.visible[i]) if notes.visible is not None else "all"
                self.causes[miss.cause, band] += 1
        return misses

    @property
    def proposed(self) -> int:
        """Cards with a face-up proposal of IoU 0.5: those found, and those missed with one."""
        fitting_face = ("below", "suppressed", "taken")
        return self.found + sum(n for (cause, _), n in self.causes.items() if cause in fitting_face)

    def to_dict(self) -> dict[str, object]:
        """Counts, and per cause the misses by in-view band (``all`` for a dataset without them)."""
        causes: dict[str, dict[str, int]] = {name: {} for name in CAUSES}
        for (cause, band), n in sorted(self.causes.items()):
            causes[cause][band] = n
        return {
            "floor": self.floor,
            "cards": self.cards,
            "found": self.found,
            "proposed": self.proposed,
            "crowded": self.crowded,
            "crowded_missed": self.crowded_missed,
            "causes": causes,
        }


SeenMisses = Callable[[str, np.ndarray, Proposals, list[np.ndarray], list[Miss | None]], None]
"""Told of each rendered frame: its name, the frame, the proposals, the face-up cards' true
corners and why each was missed (None: found)."""


def diagnose_rendered(
    detector, data: Path, split: str = "val", progress: bool = False, seen: SeenMisses | None = None
) -> MissCauses:
    """Why the detector misses face-up cards in a rendered dataset's ``split``."""
    report = MissCauses(floor=min(FLOOR, detector.settings.conf))
    for name, frame, labels, notes in rendered_frames(data, split, progress):
        proposals = detector.proposals(frame, report.floor)
        misses = report.add(proposals, labels, notes, detector.settings)
        if seen is not None:
            seen(name, frame, proposals, [c for k, c in labels if k == 0], misses)
    return report


def format_causes(report: dict[str, object], settings: DetectorSettings) -> Iterable[str]:
    """Human-readable lines of :meth:`MissCauses.to_dict`."""
    cards, found = report["cards"], report["found"]
    causes: dict[str, dict[str, int]] = report["causes"]
    bands = [b for b in IN_VIEW if any(b in row for row in causes.values())]
    yield (
        f"face-up cards missed at confidence {settings.conf:g}, overlap {settings.iou:g}: "
        f"{cards - found} of {cards}"
    )
    titles = " ".join(f"{IN_VIEW[b] + ' in view':>16s}" for b in bands)
    yield f"  {'':30s} {'missed':>6s} {titles}".rstrip()
    for name, title in CAUSES.items():
        row = causes[name]
        counts = " ".join(f"{row.get(b, 0):16d}" for b in bands)
        yield f"  {title:30s} {sum(row.values()):6d} {counts}".rstrip()
    yield (
        f"with a face-up box of IoU 0.5 among the network's proposals (score {report['floor']:g} or more): "
        f"{report['proposed']} of {cards}"
    )
    yield (
        f"lying over another face-up card at overlap {settings.iou:g} or more, where suppression would "
        f"drop one of two perfect boxes: {report['crowded']} of {cards} ({report['crowded_missed']} missed)"
    )
