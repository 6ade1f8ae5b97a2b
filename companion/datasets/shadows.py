"""Shadows people cast on the table: a hand's, a little aside of it, and that of someone leaning
over the table, their head and shoulders between a lamp and the cards."""

from __future__ import annotations

import cv2
import numpy as np

#: Silhouettes are drawn and blurred at this fraction of the frame's size: a soft shadow has no
#: detail a full-size drawing would add, and blurring a quarter of the pixels is fast.
SILHOUETTE_SCALE = 0.25


def cast_aside(
    canvas: np.ndarray, mask: np.ndarray, offset: np.ndarray, softness: float, darkness: float
) -> None:
    """Darken ``canvas`` (BGR, in place) under the soft shadow of ``mask`` (bool: what hangs over the
    table, such as a hand) moved by ``offset`` (px) and blurred by ``softness`` (px, sigma); the
    pixels of ``mask`` itself are darkened too, for the caller to paint over."""
    shift = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    shadow = cv2.warpAffine(mask.astype(np.float32), shift, mask.shape[::-1])
    soft = cv2.GaussianBlur(shadow, (0, 0), softness)
    canvas[:] = (canvas * (1 - darkness * soft[..., None])).astype(np.uint8)


def ellipse_points(centre: np.ndarray, axes: tuple[float, float], along: np.ndarray) -> np.ndarray:
    """Points (n x 2) around an ellipse of semi-axes ``axes``, the first along the unit ``along``."""
    turn = np.linspace(0, 2 * np.pi, 48, endpoint=False)[:, None]
    across = np.array([-along[1], along[0]])
    return centre + np.cos(turn) * axes[0] * along + np.sin(turn) * axes[1] * across


def shade_silhouette(
    canvas: np.ndarray, outlines: list[np.ndarray], softness: float, darkness: np.ndarray
) -> None:
    """Darken ``canvas`` (BGR, in place) under the soft shadow filled by ``outlines`` (polygons,
    image px), its edge blurred by ``softness`` (px, sigma); ``darkness`` per channel (BGR): a
    shadow is lit by the rest of the room, often a little bluer than the lamp."""
    h, w = canvas.shape[:2]
    small = (max(1, round(w * SILHOUETTE_SCALE)), max(1, round(h * SILHOUETTE_SCALE)))
    blob = np.zeros(small[::-1], np.float32)
    polygons = [np.round(outline * SILHOUETTE_SCALE).astype(np.int32) for outline in outlines]
    cv2.fillPoly(blob, polygons, 1.0, cv2.LINE_AA)
    blob = cv2.GaussianBlur(blob, (0, 0), max(softness * SILHOUETTE_SCALE, 0.5))
    soft = cv2.resize(blob, (w, h), interpolation=cv2.INTER_LINEAR)
    factor = 1.0 - soft[..., None] * np.asarray(darkness, np.float32)
    canvas[:] = np.clip(canvas * factor, 0, 255).astype(np.uint8)
