"""Made-up card artwork for the identifier's tests: no licensed images needed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.cards import Card, deck
from companion.vision.plain_cards import plain_card as card_image


def write_deck(folder: Path, cards: tuple[Card, ...]) -> dict[Card, np.ndarray]:
    """Write one PNG per card into ``folder``; returns the images."""
    folder.mkdir(parents=True, exist_ok=True)
    images = {card: card_image(card) for card in cards}
    for card, image in images.items():
        cv2.imwrite(str(folder / f"{card}.png"), image)
    return images


SMALL_DECK = tuple(c for c in deck(40) if int(c.rank) in (1, 3, 7, 12))


def place_cards(
    images: list[np.ndarray], corners: list[np.ndarray], size: tuple[int, int] = (720, 1280), seed: int = 0
) -> np.ndarray:
    """A green-cloth frame with each image warped onto its four corners (clockwise from top-left)."""
    rng = np.random.default_rng(seed)
    frame = np.clip(rng.normal((60, 120, 50), 6, (*size, 3)), 0, 255).astype(np.uint8)
    for image, quad in zip(images, corners, strict=True):
        h, w = image.shape[:2]
        source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        homography = cv2.getPerspectiveTransform(source, np.float32(quad))
        warped = cv2.warpPerspective(image, homography, (size[1], size[0]))
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), homography, (size[1], size[0]))
        frame[mask > 127] = warped[mask > 127]
    return frame


def card_corners(centre: tuple[float, float], angle: float, height: float = 180) -> np.ndarray:
    """Corners of an upright card of ``height`` px turned by ``angle`` degrees about ``centre``."""
    half = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (height * 0.65 / 2, height / 2)
    a = np.deg2rad(angle)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return half @ turn.T + np.float32(centre)
