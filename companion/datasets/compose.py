"""Compositing primitives: where a card lies, and how it is drawn onto a canvas.

Corners are always four (x, y) points in order around the card, starting at the
top-left corner of the artwork, so the first edge is a short edge (as in
:class:`companion.vision.readings.Reading`).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.datasets.decks import rounded_alpha
from companion.datasets.palette import Split, pick_colour
from companion.errors import MalformedInput

CARD_ASPECT = 1.56
"""Height over width of a Spanish card (61 x 95 mm)."""


def card_corners(
    centre: tuple[float, float], width: float, angle: float, aspect: float = CARD_ASPECT
) -> np.ndarray:
    """Corners (4, 2) of a card of ``width`` pixels centred at ``centre``, turned by ``angle`` radians."""
    w, h = width / 2, width * aspect / 2
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float32)
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]], np.float32)
    return (local @ rot.T + np.asarray(centre, np.float32)).astype(np.float32)


def _roi(shape: tuple[int, ...], corners: np.ndarray, pad: int) -> tuple[int, int, int, int] | None:
    h, w = shape[:2]
    x0, y0 = np.floor(corners.min(0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    return None if x0 >= x1 or y0 >= y1 else (x0, y0, x1, y1)


def polygon_mask(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    """Boolean mask (h, w) of the quadrilateral ``corners`` in an image of ``shape``."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(corners * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
    return mask.astype(bool)


def drop_shadow(
    canvas: np.ndarray, corners: np.ndarray, offset: tuple[float, float], blur: float, strength: float
) -> np.ndarray:
    """Darken ``canvas`` under a soft shadow of the card at ``corners``, shifted by ``offset``."""
    pad = int(3 * blur + abs(offset[0]) + abs(offset[1])) + 2
    shifted = corners + np.asarray(offset, np.float32)
    roi = _roi(canvas.shape, shifted, pad)
    if roi is None:
        return canvas
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round(shifted - [x0, y0]).astype(np.int32)], 1.0, cv2.LINE_AA)
    k = 2 * int(blur) + 1
    mask = cv2.GaussianBlur(mask, (k, k), blur)
    patch = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - strength * mask)[..., None]
    canvas[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)
    return canvas


def place_card(
    canvas: np.ndarray,
    card_img: np.ndarray,
    corners: np.ndarray,
    thickness: tuple[float, float] = (0.0, 0.0),
    edge_colour: tuple[float, float, float] = (170.0, 175.0, 180.0),
) -> np.ndarray:
    """Draw the BGRA (or BGR) ``card_img`` onto the BGR ``canvas`` with its corners at ``corners``.

    ``thickness`` shifts a copy of the outline (drawn first, in ``edge_colour``) so the card
    shows the edge of its cardboard. The canvas is changed in place and returned.
    """
    corners = np.asarray(corners, np.float32)
    if corners.shape != (4, 2):
        raise MalformedInput(f"corners must have shape (4, 2), got {corners.shape}")
    if card_img.ndim != 3 or card_img.shape[2] not in (3, 4):
        raise MalformedInput(f"card image must be BGR or BGRA, got shape {card_img.shape}")
    if card_img.shape[2] == 3:
        card_img = rounded_alpha(card_img)
    h, w = card_img.shape[:2]
    scale = 2 * np.sqrt(cv2.contourArea(corners) / (w * h))
    if scale < 1:  # shrink first: warpPerspective does not filter, so fine print would alias
        size = (max(4, int(w * scale)), max(4, int(h * scale)))
        card_img = cv2.resize(card_img, size, interpolation=cv2.INTER_AREA)
        h, w = card_img.shape[:2]
    if thickness != (0.0, 0.0):
        edge = np.empty_like(card_img)
        edge[:, :, :3] = np.asarray(edge_colour, np.float32).astype(np.uint8)
        edge[:, :, 3] = card_img[:, :, 3]
        place_card(canvas, edge, corners + np.asarray(thickness, np.float32))
    roi = _roi(canvas.shape, corners, 2)
    if roi is None:
        return canvas
    x0, y0, x1, y1 = roi
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners - np.array([x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(card_img, matrix, size, flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:].astype(np.float32) / 255
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (patch * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    return canvas


def procedural_back(rng: np.random.Generator, split: Split = "train", width: int = 220) -> np.ndarray:
    """A made-up card back (BGRA): a white margin around a patterned panel with a central emblem."""
    height = round(width * CARD_ASPECT)
    ink = tuple(float(c) for c in pick_colour(rng, split, (0.0, 1.0), (0.05, 0.6)))
    paper = tuple(float(c) for c in np.full(3, rng.uniform(215, 250)))
    back = np.full((height, width, 3), paper, np.uint8)
    margin = round(width * rng.uniform(0.04, 0.1))
    panel = back[margin : height - margin, margin : width - margin]
    ph, pw = panel.shape[:2]
    cell = max(3, round(width * rng.uniform(0.02, 0.08)))
    y, x = np.mgrid[0:ph, 0:pw]
    kind = int(rng.integers(4))
    if kind == 0:
        ink_mask = ((x // cell) + (y // cell)) % 2 == 0
    elif kind == 1:
        ink_mask = ((x + y) // cell) % 2 == 0
    elif kind == 2:
        ink_mask = ((np.abs(x - pw / 2) + np.abs(y - ph / 2)) // cell) % 2 == 0
    else:
        ink_mask = ((x // cell) % 2 == 0) | ((y // cell) % 2 == 0)
    panel[ink_mask] = ink
    cv2.rectangle(back, (margin, margin), (width - margin, height - margin), ink, max(1, width // 60))
    if rng.random() < 0.7:
        axes = (round(width * rng.uniform(0.12, 0.25)), round(height * rng.uniform(0.08, 0.18)))
        centre = (width // 2, height // 2)
        cv2.ellipse(back, centre, axes, 0, 0, 360, paper, -1, cv2.LINE_AA)
        cv2.ellipse(back, centre, axes, 0, 0, 360, ink, max(1, width // 50), cv2.LINE_AA)
    return rounded_alpha(back)


def tint_card(card_img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card with its paper aged or brightened a little (per-card, not per-scene)."""
    gain = rng.uniform(0.85, 1.05, 3) * np.array([rng.uniform(0.9, 1.0), 1.0, 1.0])
    out = card_img.copy()
    out[:, :, :3] = np.clip(card_img[:, :, :3] * gain.astype(np.float32), 0, 255).astype(np.uint8)
    return out
