"""Naming the face-up cards of a video, frame after frame, without reading again a card that
lies as it lay when it was read: most cards on a table lie still for most of a game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import Card
from companion.vision.decks import DeckReferences
from companion.vision.identifier import Identifier, cuts, rectify
from companion.vision.readings import Face, Reading

STILL_PX = 2.0
"""A card lies as it lay when every corner is within this many pixels of where it was read."""

SAME_LOOK = 4.0
"""...and when its crop looks the same: the mean absolute difference (0-255) of the crops'
grey thumbnails stays under this (sensor noise and JPEG stay well under; a finger, a shadow or
another card over it do not)."""

THUMB = (10, 16)
"""Thumbnail size (width, height) compared, averaging each 8x8 block of the crop."""


def thumbnail(crop: np.ndarray) -> np.ndarray:
    """The grey thumbnail of a card's crop that two frames are compared by."""
    return cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), THUMB, interpolation=cv2.INTER_AREA).astype(
        np.float32
    )


@dataclass(frozen=True)
class _Read:
    """A card as it was when the identifier read it."""

    corners: np.ndarray
    thumb: np.ndarray
    alternatives: tuple[tuple[Card, float], ...]
    strangeness: float

    def same(self, corners: np.ndarray, thumb: np.ndarray) -> bool:
        moved = float(np.abs(corners - self.corners).max())
        return moved <= STILL_PX and float(np.abs(thumb - self.thumb).mean()) < SAME_LOOK


class StillCardNamer:
    """Names the face-up readings of successive frames of one camera with ``references``; a card
    that lies as it lay when it was read keeps that reading, so the identifier reads only the
    cards that came, moved or changed. ``reads`` and ``kept`` count the cards read and the cards
    that kept an earlier reading."""

    def __init__(self, identifier: Identifier, references: DeckReferences) -> None:
        self.identifier = identifier
        self.references = references
        self._read: list[_Read] = []
        self.reads = 0
        self.kept = 0

    def name(self, frame: np.ndarray, readings: Sequence[Reading]) -> list[Reading]:
        """``readings`` with every face-up card named; backs are returned unchanged."""
        up = [i for i, r in enumerate(readings) if r.face is Face.UP]
        thumbs = [thumbnail(rectify(frame, readings[i].corners)) for i in up]
        known = [self._earlier(readings[i].corners, t) for i, t in zip(up, thumbs, strict=True)]
        unread = [k for k, earlier in enumerate(known) if earlier is None]
        if unread:
            cut = [cuts(frame, readings[up[k]].corners) for k in unread]  # both ways only when read
            read = self.identifier.read_cuts(cut, self.references)
            for k, (alternatives, strangeness) in zip(unread, read, strict=True):
                known[k] = _Read(readings[up[k]].corners, thumbs[k], tuple(alternatives), strangeness)
        self.reads += len(unread)
        self.kept += len(up) - len(unread)
        self._read = [r for r in known if r is not None]
        named = list(readings)
        for i, earlier in zip(up, self._read, strict=True):
            named[i] = readings[i].named(list(earlier.alternatives), earlier.strangeness)
        return named

    def _earlier(self, corners: np.ndarray, thumb: np.ndarray) -> _Read | None:
        return next((r for r in self._read if r.same(corners, thumb)), None)
