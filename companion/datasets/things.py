"""Everyday things people set down on a card table: a phone, a glass on its coaster, coins, a
score pad. Each is drawn from above as a BGRA picture at :data:`PX_PER_MM`, to be laid on the
table like a card (``place_card``) at its width in mm."""

from __future__ import annotations

import cv2
import numpy as np

from companion.datasets.decks import rounded_alpha

#: Resolution of the drawn things (px per mm).
PX_PER_MM = 2.0
#: What can be set down.
KINDS = ("phone", "glass", "coins", "pad")


def draw_thing(rng: np.random.Generator, kind: str) -> tuple[np.ndarray, float]:
    """A ``kind`` of thing seen from above: its BGRA picture and its width (mm)."""
    draw = {"phone": _phone, "glass": _glass, "coins": _coins, "pad": _pad}[kind]
    image = draw(rng)
    return image, image.shape[1] / PX_PER_MM


def _canvas(width_mm: float, height_mm: float, channels: int = 4) -> np.ndarray:
    return np.zeros((round(height_mm * PX_PER_MM), round(width_mm * PX_PER_MM), channels), np.uint8)


def _phone(rng: np.random.Generator) -> np.ndarray:
    """A phone face up (its dark screen catching a sheen) or face down (a coloured case)."""
    image = _canvas(rng.uniform(68, 78), rng.uniform(142, 162), channels=3)
    h, w = image.shape[:2]
    if rng.random() < 0.5:
        image[:] = (25, 25, 28)
        inset = round(2.5 * PX_PER_MM)
        screen = image[inset:-inset, inset:-inset]
        screen[:] = (40, 34, 30)
        sheen = np.clip(
            1 - np.abs(np.arange(w)[None, :] + np.arange(h)[:, None] * 0.4 - w * 0.7) / (w * 0.5), 0, 1
        )
        lifted = image + sheen[:, :, None] * rng.uniform(20, 50)
        image[:] = np.clip(lifted, 0, 255).astype(np.uint8)
    else:
        image[:] = rng.uniform(30, 220, 3)
        lens = (round(w * 0.28), round(h * 0.12))
        cv2.circle(image, lens, round(6 * PX_PER_MM), (20, 20, 20), -1, cv2.LINE_AA)
    return rounded_alpha(image, 9 * PX_PER_MM / w)


def _glass(rng: np.random.Generator) -> np.ndarray:
    """A glass on a coaster: the coaster's disc, the glass's bright rim and its darker drink."""
    size = rng.uniform(85, 105)
    image = _canvas(size, size)
    centre, radius = (image.shape[1] // 2,) * 2, image.shape[1] // 2 - 1
    coaster = (rng.uniform(40, 90), rng.uniform(90, 140), rng.uniform(140, 200), 255)
    cv2.circle(image, centre, radius, coaster, -1, cv2.LINE_AA)
    rim = round(radius * rng.uniform(0.7, 0.8))
    drink = rng.uniform(20, 160, 3)
    cv2.circle(image, centre, rim, (*drink, 255), -1, cv2.LINE_AA)
    cv2.circle(image, centre, rim, (235, 235, 235, 255), round(1.5 * PX_PER_MM), cv2.LINE_AA)
    return image


def _coins(rng: np.random.Generator) -> np.ndarray:
    """Two to five coins, loosely heaped."""
    image = _canvas(70, 70)
    metals = ((70, 160, 200), (175, 175, 170), (60, 110, 170))
    for _ in range(int(rng.integers(2, 6))):
        radius = round(rng.uniform(9, 13) * PX_PER_MM)
        at = np.round(rng.uniform(radius, image.shape[1] - radius, 2)).astype(int)
        metal = np.array(metals[int(rng.integers(len(metals)))], float) * rng.uniform(0.8, 1.1)
        cv2.circle(image, tuple(at.tolist()), radius, (*np.clip(metal, 0, 255), 255), -1, cv2.LINE_AA)
        cv2.circle(
            image, tuple(at.tolist()), radius - 3, (*np.clip(metal * 0.8, 0, 255), 255), 1, cv2.LINE_AA
        )
    return image


def _pad(rng: np.random.Generator) -> np.ndarray:
    """A score pad, ruled, with a few pencilled marks."""
    image = _canvas(rng.uniform(90, 110), rng.uniform(140, 160))
    paper = (rng.uniform(150, 235), rng.uniform(225, 250), rng.uniform(235, 255), 255)
    image[:] = paper
    h, w = image.shape[:2]
    for y in np.arange(18, h / PX_PER_MM - 5, 7) * PX_PER_MM:
        cv2.line(image, (4, round(y)), (w - 5, round(y)), (200, 160, 120, 255), 1, cv2.LINE_AA)
    for y in np.arange(18, rng.uniform(40, 120), 7) * PX_PER_MM:
        x = rng.uniform(8, 20) * PX_PER_MM
        cv2.line(
            image,
            (round(x), round(y) - 3),
            (round(x + rng.uniform(15, 50) * PX_PER_MM), round(y) - 4),
            (70, 70, 70, 255),
            2,
            cv2.LINE_AA,
        )
    return image
