"""Pictures of the detector's mistakes: rendered frames drawn with what it missed and what it
made up, the worst of them kept, and a contact sheet to look at them all at once; and missed
cards, each beside the box the network came closest with, sorted by why they were missed."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.training.evaluation import match
from companion.training.miss_causes import CAUSES, Miss
from companion.vision.detector import Proposals
from companion.vision.readings import Face, Reading

FOUND = (60, 200, 60)
"""Green (BGR): a face-up card found."""
MISSED = (40, 40, 230)
"""Red: a face-up card the detector missed (its labelled corners)."""
MADE_UP = (230, 60, 230)
"""Magenta: a face-up reading that matches no card."""
BACK = (200, 120, 40)
"""Blue: a card back found."""
CLOSEST = (0, 165, 255)
"""Orange: the face-up proposal that came closest to finding a missed card."""


def _outline(image: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int], width: int) -> None:
    cv2.polylines(image, [np.round(corners).astype(np.int32)], True, colour, width, cv2.LINE_AA)


def _banner(image: np.ndarray, text: str) -> None:
    scale = max(0.5, image.shape[1] / 1600)
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    cv2.rectangle(image, (0, 0), (w + 16, h + 16), (255, 255, 255), -1)
    cv2.putText(image, text, (8, h + 8), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 2, cv2.LINE_AA)


class Drawn(NamedTuple):
    """A frame drawn with its mistakes, how many it shows, and a caption saying which."""

    picture: np.ndarray
    mistakes: int
    caption: str


def draw_errors(
    frame: np.ndarray, readings: Sequence[Reading], labels: Sequence[tuple[int, np.ndarray]]
) -> Drawn:
    """``frame`` with the face-up cards found in green, missed ones in red and made-up ones in
    magenta (backs in blue), scored as the evaluation scores them."""
    up = [r.corners for r in readings if r.face is Face.UP]
    truth = [corners for cls, corners in labels if cls == 0]
    matched = match(up, truth)
    found = {m for m in matched if m >= 0}
    missed = [t for t, m in zip(truth, matched, strict=True) if m < 0]
    width = max(2, round(frame.shape[1] / 640))
    out = frame.copy()
    for reading in readings:
        if reading.face is Face.DOWN:
            _outline(out, reading.corners, BACK, 1)
    for index, corners in enumerate(up):
        _outline(out, corners, FOUND if index in found else MADE_UP, width)
    for corners in missed:
        _outline(out, corners, MISSED, width)
    made_up = len(up) - len(found)
    caption = f"{len(missed)} missed (red), {made_up} made up (magenta)"
    _banner(out, caption)
    return Drawn(out, len(missed) + made_up, caption)


def draw_count(frame: np.ndarray, readings: Sequence[Reading], expected: tuple[int, int]) -> np.ndarray:
    """A real frame with its readings outlined (face up green, backs blue) and the face-up count
    against the hand-counted range."""
    out = frame.copy()
    width = max(2, round(frame.shape[1] / 640))
    for reading in readings:
        _outline(out, reading.corners, FOUND if reading.face is Face.UP else BACK, width)
    up = sum(r.face is Face.UP for r in readings)
    lo, hi = expected
    verdict = "in range" if lo <= up <= hi else "OUT OF RANGE"
    _banner(out, f"{up} face up, expected {lo}-{hi}: {verdict}")
    return out


def contact_sheet(
    pictures: Sequence[np.ndarray],
    captions: Sequence[str],
    columns: int = 6,
    cell: tuple[int, int] = (360, 270),
) -> np.ndarray:
    """Each picture fitted into a ``cell`` (width, height) under its caption, in rows of ``columns``."""
    width, height = cell
    strip = 22
    rows = -(-len(pictures) // columns)
    sheet = np.full((rows * (height + strip + 6), columns * (width + 6), 3), 255, np.uint8)
    for i, (picture, caption) in enumerate(zip(pictures, captions, strict=True)):
        scale = min(width / picture.shape[1], height / picture.shape[0])
        size = (round(picture.shape[1] * scale), round(picture.shape[0] * scale))
        y, x = (i // columns) * (height + strip + 6), (i % columns) * (width + 6)
        cv2.putText(
            sheet, caption, (x + 2, y + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA
        )
        top, left = y + strip + (height - size[1]) // 2, x + (width - size[0]) // 2
        sheet[top : top + size[1], left : left + size[0]] = cv2.resize(
            picture, size, interpolation=cv2.INTER_AREA
        )
    return sheet


class WorstFrames:
    """The ``keep`` drawn frames with the most mistakes (the first seen among equals)."""

    def __init__(self, keep: int = 36) -> None:
        self.keep = keep
        self._heap: list[tuple[int, int, str, Drawn]] = []
        self._seen = 0

    def offer(self, name: str, drawn: Drawn) -> None:
        if drawn.mistakes <= 0:
            return
        item = (drawn.mistakes, -self._seen, name, drawn)
        self._seen += 1
        if len(self._heap) < self.keep:
            heapq.heappush(self._heap, item)
        elif item[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, item)

    def write(self, folder: Path) -> list[Path]:
        """Write them, most mistakes first, as ``NN-NAME.jpg``, and ``sheet.jpg`` of them all."""
        folder.mkdir(parents=True, exist_ok=True)
        worst = sorted(self._heap, key=lambda item: item[:2], reverse=True)
        paths = []
        for rank, (_, _, name, drawn) in enumerate(worst, 1):
            paths.append(folder / f"{rank:02d}-{name}.jpg")
            cv2.imwrite(str(paths[-1]), drawn.picture)
        if worst:
            pictures = [drawn.picture for *_, drawn in worst]
            captions = [
                f"{rank:02d} {name}: {drawn.caption}" for rank, (_, _, name, drawn) in enumerate(worst, 1)
            ]
            cv2.imwrite(str(folder / "sheet.jpg"), contact_sheet(pictures, captions))
        return paths


def draw_miss(frame: np.ndarray, proposals: Proposals, truth: np.ndarray, miss: Miss) -> np.ndarray:
    """The part of ``frame`` around a missed card: its labelled corners in red and the proposal
    that came closest (face up orange, back blue) with its score."""
    out = frame.copy()
    width = max(2, round(frame.shape[1] / 640))
    if miss.closest is not None:
        corners = proposals.corners[miss.closest]
        _outline(out, corners, BACK if proposals.classes[miss.closest] else CLOSEST, width)
        x, y = np.round(corners.min(0)).astype(int)
        score = f"{proposals.scores[miss.closest]:.2f}"
        for colour, thickness in (((0, 0, 0), 3), ((255, 255, 255), 1)):
            cv2.putText(
                out, score, (x, max(y - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, thickness, cv2.LINE_AA
            )
    _outline(out, truth, MISSED, width)
    (x0, y0), (x1, y1) = truth.min(0), truth.max(0)
    margin = 0.4 * max(x1 - x0, y1 - y0)
    h, w = frame.shape[:2]
    left, top = int(max(x0 - margin, 0)), int(max(y0 - margin, 0))
    right, bottom = int(min(x1 + margin, w)), int(min(y1 + margin, h))
    return out[top:bottom, left:right]


class MissExamples:
    """The first ``per_cause`` missed cards of each cause, drawn by :func:`draw_miss`."""

    def __init__(self, per_cause: int = 6) -> None:
        self.per_cause = per_cause
        self._drawn: dict[str, list[tuple[str, np.ndarray]]] = {cause: [] for cause in CAUSES}

    def offer(
        self,
        name: str,
        frame: np.ndarray,
        proposals: Proposals,
        truth: list[np.ndarray],
        misses: list[Miss | None],
    ) -> None:
        for corners, miss in zip(truth, misses, strict=True):
            if miss is not None and len(self._drawn[miss.cause]) < self.per_cause:
                self._drawn[miss.cause].append((name, draw_miss(frame, proposals, corners, miss)))

    def write(self, folder: Path) -> Path | None:
        """``causes.jpg``: a row per cause (its title on each picture), or None if nothing was missed."""
        rows = [(cause, drawn) for cause, drawn in self._drawn.items() if drawn]
        if not rows:
            return None
        blank = np.full((8, 8, 3), 255, np.uint8)
        pictures, captions = [], []
        for cause, drawn in rows:
            padded = drawn + [("", blank)] * (self.per_cause - len(drawn))
            pictures += [picture for _, picture in padded]
            captions += [f"{CAUSES[cause]}: {name}" if name else "" for name, _ in padded]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "causes.jpg"
        cv2.imwrite(str(path), contact_sheet(pictures, captions, columns=self.per_cause, cell=(240, 240)))
        return path
