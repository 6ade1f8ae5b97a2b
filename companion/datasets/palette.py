"""Colours drawn for the renderer, with hue bands held out for validation.

Every colour choice that describes the world (cloths, wood, sleeves, skin, light) goes
through :func:`pick_hue`, so the validation split sees cloth colours, skin tones and light
tints the training split never saw.
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np

Split = Literal["train", "val"]

HUE_BANDS = 12
VAL_HUE_BANDS = (1, 5, 9)
"""Bands of the colour wheel (of 12) kept for validation: orange, sea green, violet-blue."""


def pick_hue(rng: np.random.Generator, split: Split) -> float:
    """A hue in [0, 180) (OpenCV scale) from the bands of ``split``."""
    bands = [b for b in range(HUE_BANDS) if (b in VAL_HUE_BANDS) == (split == "val")]
    band = int(rng.choice(bands))
    return (band + rng.random()) * 180.0 / HUE_BANDS


def hsv_colour(hue: float, sat: float, val: float) -> np.ndarray:
    """One BGR colour (float32, 0-255) from OpenCV-scaled hue and 0-1 saturation and value."""
    hsv = np.array([[[hue, sat * 255.0, val * 255.0]]], np.float32)
    hsv = np.clip(hsv, 0, [179.9, 255, 255]).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def pick_colour(
    rng: np.random.Generator, split: Split, sat: tuple[float, float], val: tuple[float, float]
) -> np.ndarray:
    """A BGR colour with a hue of ``split`` and saturation and value drawn from the ranges."""
    return hsv_colour(pick_hue(rng, split), rng.uniform(*sat), rng.uniform(*val))
