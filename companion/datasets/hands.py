"""Hands and arms reaching over the table: skin-toned palms with fingers, arms and sleeves."""

from __future__ import annotations

import cv2
import numpy as np

from companion.datasets.palette import Split, hsv_colour, pick_colour

VAL_SKIN_VALUES = (0.58, 0.68)
"""Skin brightness band kept for validation hands."""


def _skin(rng: np.random.Generator, split: Split) -> np.ndarray:
    lo, hi = VAL_SKIN_VALUES
    if split == "val":
        value = rng.uniform(lo, hi)
    else:
        value = rng.uniform(0.3, lo) if rng.random() < 0.4 else rng.uniform(hi, 0.97)
    return hsv_colour(rng.uniform(4, 16), rng.uniform(0.25, 0.6), value)


def _capsule(layer: np.ndarray, a: np.ndarray, b: np.ndarray, width: float, colour: tuple) -> None:
    cv2.line(
        layer,
        tuple(np.round(a).astype(int)),
        tuple(np.round(b).astype(int)),
        colour,
        max(1, round(width)),
        cv2.LINE_AA,
    )


def draw_hand(
    canvas: np.ndarray,
    rng: np.random.Generator,
    wrist: tuple[float, float],
    direction: float,
    length: float,
    split: Split = "train",
) -> np.ndarray:
    """Draw a hand whose wrist is at ``wrist``, pointing ``direction`` radians, ``length`` px long.

    The arm (with a sleeve) runs from the wrist backwards off the canvas. ``canvas`` (BGR) is
    changed in place; the boolean mask of the pixels the hand and arm cover is returned.
    """
    h, w = canvas.shape[:2]
    skin = _skin(rng, split)
    outline = tuple(float(c) for c in skin * 0.72)
    skin_t = tuple(float(c) for c in skin)
    forward = np.array([np.cos(direction), np.sin(direction)])
    side = np.array([-forward[1], forward[0]])
    wrist_p = np.asarray(wrist, float)
    layer = np.zeros((h, w), np.uint8)
    colour = np.zeros((h, w, 3), np.uint8)

    def paint(draw) -> None:  # draw with the outline colour, then shrink by 1 px in skin colour
        draw(colour, outline, 1.0)
        draw(layer, 255, 1.0)
        draw(colour, skin_t, 0.82)

    arm_end = wrist_p - forward * (w + h)
    arm_width = length * rng.uniform(0.35, 0.45)
    paint(lambda img, c, k: _capsule(img, arm_end, wrist_p, arm_width * k, c))
    sleeve_at = wrist_p - forward * length * rng.uniform(0.4, 2.5)
    sleeve = tuple(float(c) for c in pick_colour(rng, split, (0.0, 0.9), (0.1, 0.9)))
    _capsule(colour, arm_end, sleeve_at, arm_width * 1.25, sleeve)
    _capsule(layer, arm_end, sleeve_at, arm_width * 1.25, 255)

    palm_c = wrist_p + forward * length * 0.3
    palm_axes = (round(length * 0.3), round(length * rng.uniform(0.22, 0.27)))
    angle_deg = float(np.degrees(direction))
    paint(
        lambda img, c, k: cv2.ellipse(
            img,
            tuple(np.round(palm_c).astype(int)),
            (max(1, round(palm_axes[0] * k)), max(1, round(palm_axes[1] * k))),
            angle_deg,
            0,
            360,
            c,
            -1,
            cv2.LINE_AA,
        )
    )
    curl = rng.uniform(0.3, 1.0)
    finger_w = length * rng.uniform(0.08, 0.1)
    for i, offset in enumerate((-0.17, -0.06, 0.05, 0.15)):
        base = palm_c + forward * length * 0.2 + side * length * offset
        spread = offset * rng.uniform(0.5, 1.5)
        tip_dir = forward * np.cos(spread) + side * np.sin(spread)
        tip = base + tip_dir * length * (0.42 - 0.06 * abs(i - 1.5)) * curl
        paint(lambda img, c, k, b=base, t=tip: _capsule(img, b, t, finger_w * k, c))
    thumb_side = 1 if rng.random() < 0.5 else -1
    thumb_base = palm_c - forward * length * 0.1 + side * thumb_side * length * 0.2
    thumb_tip = thumb_base + (forward * 0.6 + side * thumb_side * 0.8) * length * 0.3 * rng.uniform(0.6, 1.1)
    paint(lambda img, c, k: _capsule(img, thumb_base, thumb_tip, finger_w * 1.2 * k, c))

    mask = layer > 0
    shade = np.linspace(rng.uniform(0.8, 1.0), rng.uniform(1.0, 1.15), w, dtype=np.float32)[None, :, None]
    blended = cv2.GaussianBlur(colour, (3, 3), 0).astype(np.float32) * shade
    alpha = cv2.GaussianBlur(layer, (3, 3), 0).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - alpha) + np.clip(blended, 0, 255) * alpha).astype(np.uint8)
    return mask
