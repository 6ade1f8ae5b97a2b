"""Evidence snapshots: the table as the camera saw it when a trick was completed, and the readings."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.vision.readings import Face, Reading

_UP, _DOWN = (40, 200, 40), (200, 120, 40)


def annotate(frame: np.ndarray, readings: Sequence[Reading]) -> np.ndarray:
    """A copy of ``frame`` with each reading's outline and name drawn on it."""
    out = frame.copy()
    for reading in readings:
        colour = _UP if reading.face is Face.UP else _DOWN
        cv2.polylines(out, [np.round(reading.corners).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        if reading.card is not None:
            x, y = (int(v) for v in reading.corners.min(axis=0))
            label = f"{reading.card} {reading.confidence:.2f}"
            at = (x, max(12, y - 4))
            cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return out


def save_evidence(
    folder: Path, trick: int, frame: np.ndarray, readings: Sequence[Reading], quality: int = 80
) -> tuple[Path, tuple[dict[str, object], ...]]:
    """Write ``trick-NN.jpg`` (annotated) and ``trick-NN.json`` (readings) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    image = folder / f"trick-{trick:02d}.jpg"
    cv2.imwrite(str(image), annotate(frame, readings), [cv2.IMWRITE_JPEG_QUALITY, quality])
    found = tuple(reading.to_dict() for reading in readings)
    (folder / f"trick-{trick:02d}.json").write_text(json.dumps({"trick": trick, "readings": found}, indent=1))
    return image, found
