"""Flat-coloured cards for renderer tests, so no artwork from ../shared is needed."""

from __future__ import annotations

import numpy as np

from companion.datasets.decks import rounded_alpha

FACE = (255, 0, 255)  # BGR magenta: no cloth or light makes green exceed red and blue by 60
BACK = (255, 128, 0)


def flat_card(colour: tuple[int, int, int], width: int = 120) -> np.ndarray:
    card = np.full((round(width * 1.56), width, 3), colour, np.uint8)
    return rounded_alpha(card)


def magenta(image: np.ndarray) -> np.ndarray:
    """Pixels of the flat face colour, whatever light and noise did to them."""
    b, g, r = (image[:, :, i].astype(int) for i in range(3))
    return (np.minimum(b, r) - g) > 60
