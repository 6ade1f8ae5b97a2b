"""A detector that looks again only when what it looks at changed.

A fixed camera over a table that lies still (players thinking, a trick being counted) shows the
same cards frame after frame, and the detector, the costliest stage, would find the same boxes
each time. The window the detector looks at is glanced at, shrunk, and compared with the glance
taken when it last looked, in the same light; while next to nothing in it differs, its boxes are
those found then. What changed is measured against that glance, not the frame before, so a card
sliding slowly is looked at again once it has moved.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

from companion.table.light import in_one_light
from companion.table.profile import CARD_MM
from companion.table.proposer import ProposerConfig, colour_distance
from companion.vision.reader import CardDetector
from companion.vision.readings import Reading

#: Each side of the glance is the window's side halved this many times: cheap, and a grain of
#: noise averages away (each halving averages 2 x 2 pixels).
HALVINGS: Final = 2
#: Changed glance pixels, as a share of a card's area, below which the window lies as it lay.
STILL_SHARE: Final = 0.05


class LazyDetector:
    """``detector`` looking at the window ``within`` (x0, y0, x1, y1, frame px) of a fixed camera's
    frames, in which a card's short side spans ``card_px`` frame px; :meth:`detect` looks again
    only when the window changed since it last looked (:data:`STILL_SHARE` of a card)."""

    def __init__(self, detector: CardDetector, within: tuple[int, int, int, int], card_px: float) -> None:
        self.detector, self.within, self.card_px = detector, within, card_px
        aspect = max(CARD_MM) / min(CARD_MM)
        self.limit = STILL_SHARE * aspect * (card_px / 2**HALVINGS) ** 2  # glance px
        self.looked = 0  # frames the detector looked at
        self.skipped = 0  # frames given the boxes found last
        self._glance: np.ndarray | None = None
        self._found: list[Reading] = []

    def detect(self, frame: np.ndarray) -> list[Reading]:
        """The cards the detector finds in ``frame``'s window, or found last where it lies as it lay."""
        glance = self._glance_at(frame)
        if self._glance is not None and self.changed(self._glance, glance) < self.limit:
            self.skipped += 1
            return list(self._found)
        self._found = self.detector.detect(frame, within=self.within, card_px=self.card_px)
        self._glance = glance
        self.looked += 1
        return list(self._found)

    def _glance_at(self, frame: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.within
        glance = frame[y0:y1, x0:x1]
        for _ in range(HALVINGS):  # a third of the cost of one resize by area, as alike
            size = (max(1, glance.shape[1] // 2), max(1, glance.shape[0] // 2))
            glance = cv2.resize(glance, size, interpolation=cv2.INTER_LINEAR)
        return glance

    @staticmethod
    def changed(before: np.ndarray, now: np.ndarray) -> int:
        """How many pixels of glance ``now`` differ from glance ``before``, seen in one light."""
        distance = colour_distance(*in_one_light(before, now))
        return int(np.count_nonzero(distance > ProposerConfig.threshold))  # what the proposer counts
