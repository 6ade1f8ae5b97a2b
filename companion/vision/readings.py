"""What vision saw in a frame: a :class:`Reading` per card and a :class:`Reach` per arm, together a
:class:`Sight`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

import cv2
import numpy as np

from companion.cards import Card


class Face(Enum):
    UP = "up"
    DOWN = "down"


@dataclass(frozen=True)
class Reading:
    """One card seen in one frame.

    ``corners`` are the four physical corners of the card in image pixels, as a
    float32 array of shape (4, 2), in order around the card starting at a corner
    of a short edge. ``card`` is None until the identifier has named a face-up
    card (and always for a back). ``alternatives`` holds the identifier's best
    guesses, most likely first, as ``(card, probability)`` pairs, and ``strangeness`` how
    unlike any card of the deck the card looks (:meth:`Identifier.read_cuts`: a face-up card seen
    whole reads 50 to 150, the trump card under the stock about 300, a score pad, a card's back or
    a card half under another card 600 and more). ``arrived`` says
    that vision saw this card come in this frame: it lies where, before the table
    last moved, another card or nothing lay (a card tossed onto a pile).
    """

    corners: np.ndarray
    face: Face
    detection_confidence: float
    card: Card | None = None
    confidence: float = 0.0
    alternatives: tuple[tuple[Card, float], ...] = field(default=())
    strangeness: float = 0.0
    arrived: bool = False

    def __post_init__(self) -> None:
        corners = np.asarray(self.corners, dtype=np.float32)
        if corners.shape != (4, 2):
            raise ValueError(f"corners must have shape (4, 2), got {corners.shape}")
        object.__setattr__(self, "corners", corners)

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def named(self, alternatives: list[tuple[Card, float]], strangeness: float | None = None) -> Reading:
        """This reading with the identifier's verdict: the best alternative becomes the card (the
        strangeness kept where none is given)."""
        best, p = alternatives[0]
        strange = self.strangeness if strangeness is None else strangeness
        return replace(self, card=best, confidence=p, alternatives=tuple(alternatives), strangeness=strange)

    def to_dict(self) -> dict[str, object]:
        return {
            "card": None if self.card is None else str(self.card),
            "confidence": round(self.confidence, 4),
            "face": self.face.value,
            "detection_confidence": round(self.detection_confidence, 4),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "alternatives": [[str(c), round(p, 4)] for c, p in self.alternatives],
            "strangeness": round(self.strangeness, 1),
        }


@dataclass(frozen=True)
class Reach:
    """An arm reaching onto the table in one frame: ``edge``, where it crosses the table's edge,
    and ``tip``, the point of it farthest from there, in image pixels."""

    edge: tuple[float, float]
    tip: tuple[float, float]


@dataclass(frozen=True)
class Sight:
    """Everything vision saw in one frame: the cards, the arms reaching onto the table, and where
    cards were seen taken away (their centres, image pixels: their place seen bare)."""

    readings: tuple[Reading, ...]
    reaches: tuple[Reach, ...] = ()
    cleared: tuple[tuple[float, float], ...] = ()


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals (4, 2)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0
