"""Made-up card faces (no artwork needed): the benchmark's cards where ``../shared`` is absent."""

from __future__ import annotations

import cv2
import numpy as np

from companion.cards import Card

COLOURS = ((30, 160, 220), (40, 40, 200), (180, 90, 30), (40, 140, 40))
"""BGR ink of each suit, in the order O, C, E, B."""


def plain_card(card: Card, width: int = 200, height: int = 310) -> np.ndarray:
    """A white card with its rank as a big number and one symbol per suit, repeated rank times."""
    image = np.full((height, width, 3), 245, np.uint8)
    cv2.rectangle(image, (6, 6), (width - 7, height - 7), (30, 30, 30), 2)
    colour = COLOURS["OCEB".index(card.suit.value)]
    for i in range(min(int(card.rank), 7)):
        centre = (width // 4 + (i % 2) * width // 2, 50 + (i // 2) * 55)
        if card.suit.value in "OC":
            cv2.circle(image, centre, 18, colour, -1 if card.suit.value == "O" else 4)
        else:
            size = 16 if card.suit.value == "E" else 10
            cv2.rectangle(
                image, (centre[0] - size, centre[1] - 18), (centre[0] + size, centre[1] + 18), colour, -1
            )
    cv2.putText(
        image, str(int(card.rank)), (width // 2 - 40, height - 40), cv2.FONT_HERSHEY_DUPLEX, 2.6, colour, 6
    )
    return image
