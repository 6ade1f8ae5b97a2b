"""Frame -> readings: the detector finds the cards, the identifier names the face-up ones.

>>> reader = CardReader.load(deck="fournier-1878")      # doctest: +SKIP
>>> readings = reader.read(frame)                        # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.vision.decks import DeckReferences, load_deck
from companion.vision.identifier import Identifier
from companion.vision.readings import Face, Reading


class CardDetector(Protocol):
    """What the reader needs from a detector: a frame (or the part ``within`` it: x0, y0, x1, y1;
    a card's short side ``card_px`` frame px where known) -> unnamed readings."""

    def detect(
        self,
        frame: np.ndarray,
        within: tuple[int, int, int, int] | None = None,
        card_px: float | None = None,
    ) -> list[Reading]: ...


def load_detector(path: Path | None = None, threads: int = 1) -> CardDetector:
    """The shipped card detector (``models/detector-int8.onnx``) or the one at ``path``."""
    from companion.vision.detector import Detector

    return Detector.from_file(path, threads=threads)


@dataclass
class CardReader:
    """Detector plus identifier with the active deck; keeps the time each stage took last."""

    detector: CardDetector
    identifier: Identifier
    references: DeckReferences
    timings: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(
        cls, deck: str, detector: Path | None = None, identifier: Path | None = None, threads: int = 1
    ) -> CardReader:
        """A reader for deck ``deck`` with the shipped models, or the ones at the given paths."""
        references = load_deck(deck)
        return cls(
            load_detector(detector, threads=threads),
            Identifier.from_file(identifier, threads=threads),
            references,
        )

    def read(self, frame: np.ndarray) -> list[Reading]:
        """Every card found in the BGR ``frame``, face-up ones named over the active deck."""
        start = time.perf_counter()
        found = self.detector.detect(frame)
        detected = time.perf_counter()
        named = self.identifier.identify(frame, found, self.references)
        self.timings = {
            "detect_ms": (detected - start) * 1000,
            "identify_ms": (time.perf_counter() - detected) * 1000,
        }
        return named


def annotate(frame: np.ndarray, readings: list[Reading]) -> np.ndarray:
    """A copy of ``frame`` with each card outlined and labelled (card and confidence, or "back")."""
    out = frame.copy()
    scale = max(0.5, frame.shape[1] / 1600)
    for reading in readings:
        colour = (60, 200, 60) if reading.face is Face.UP else (200, 120, 40)
        cv2.polylines(
            out, [reading.corners.astype(np.int32)], True, colour, max(2, round(2 * scale)), cv2.LINE_AA
        )
        label = "back" if reading.face is Face.DOWN else f"{reading.card} {reading.confidence:.0%}"
        x, y = reading.corners.min(axis=0)
        cv2.putText(
            out,
            label,
            (int(x), max(0, int(y) - 6)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8 * scale,
            colour,
            max(1, round(2 * scale)),
            cv2.LINE_AA,
        )
    return out


def bench_frame(card_images: list[np.ndarray], seed: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A 1280x720 frame on a cloth with the given cards (six for the benchmark), and their corners."""
    rng = np.random.default_rng(seed)
    frame = np.clip(rng.normal((60, 110, 50), 8, (720, 1280, 3)), 0, 255).astype(np.uint8)
    corners = []
    for i, image in enumerate(card_images):
        h, w = image.shape[:2]
        centre = np.float32([200 + 300 * (i % 4), 200 + 320 * (i // 4)])
        angle = rng.uniform(0, 2 * np.pi)
        turn = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = np.float32([[-w, -h], [w, -h], [w, h], [-w, h]]) * (110 / h) @ turn.T + centre
        homography = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
        warped = cv2.warpPerspective(image[:, :, :3], homography, (1280, 720))
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), homography, (1280, 720)) > 127
        frame[mask] = warped[mask]
        corners.append(quad)
    return frame, corners


def bench(
    reader: CardReader, frame: np.ndarray, corners: list[np.ndarray], repeats: int = 30
) -> dict[str, float]:
    """Median milliseconds of detection on ``frame`` and of identifying the cards at ``corners``.

    Identification is timed on the given corners, so the figure holds for that many cards
    whatever the detector finds; ``found`` says how many cards the detector found.
    """
    readings = [Reading(c, Face.UP, 1.0) for c in corners]
    detect_ms, identify_ms = [], []
    found = 0
    for i in range(repeats + 3):
        start = time.perf_counter()
        found = len(reader.detector.detect(frame))
        detected = time.perf_counter()
        reader.identifier.identify(frame, readings, reader.references)
        if i >= 3:  # warm-up
            detect_ms.append((detected - start) * 1000)
            identify_ms.append((time.perf_counter() - detected) * 1000)
    detect, identify = float(np.median(detect_ms)), float(np.median(identify_ms))
    return {
        "detect_ms": round(detect, 2),
        "identify_ms": round(identify, 2),
        "cards": len(corners),
        "found": found,
        "fps": round(1000 / (detect + identify), 1),
    }


def run_bench(deck: str, as_json: bool, threads: int = 2, detector: Path | None = None) -> int:
    """``companion bench vision``: a 1280x720 frame with six cards of ``deck`` (made-up faces of
    its cards without ``../shared``), detection (by the shipped detector, or the one at ``detector``) plus
    identification, printed as frames per second and ms per stage."""
    import json

    from companion.paths import shared_dir
    from companion.vision.decks import read_card_images
    from companion.vision.plain_cards import plain_card

    reader = CardReader.load(deck, detector=detector, threads=threads)
    artwork = shared_dir() / "decks" / deck
    if artwork.is_dir():
        images = list(read_card_images(artwork).values())[:: max(1, len(reader.references.cards) // 6)][:6]
    else:
        images = [plain_card(card) for card in reader.references.cards[::7][:6]]
    frame, corners = bench_frame(images)
    figures = {"frame": "1280x720", "threads": threads, **bench(reader, frame, corners)}
    if as_json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['fps']} frames/s: detect {figures['detect_ms']} ms, identify {figures['cards']} cards "
            f"{figures['identify_ms']} ms ({threads} threads; detector found {figures['found']} cards)"
        )
    return 0
