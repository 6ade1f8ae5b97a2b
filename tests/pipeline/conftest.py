"""Scripted readings for the pipeline tests: cards at table positions, with chosen probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import Card
from companion.table.profile import CARD_MM
from companion.vision.readings import Face, Reading


def _seen(
    x: float, y: float, card: str | None = None, p: float = 0.95, *others: tuple[str, float]
) -> Reading:
    """A reading of a card lying at (x, y) mm, face up with identity ``card`` (face down when None)."""
    w, h = CARD_MM[0] / 2, CARD_MM[1] / 2
    corners = np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]])
    if card is None:
        return Reading(corners, Face.DOWN, 0.9)
    alternatives = [(Card.parse(card), p), *((Card.parse(c), q) for c, q in others)]
    return Reading(corners, Face.UP, 0.9).named(alternatives)


@pytest.fixture(autouse=True)
def _one_thread():
    import cv2

    cv2.setNumThreads(1)


@pytest.fixture
def seen():
    """Make a scripted reading: ``seen(x, y, "7O", 0.9, ("7C", 0.05))``; no card: face down."""
    return _seen
