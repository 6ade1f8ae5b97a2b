"""Card artwork as the renderer uses it: BGRA images with rounded, transparent corners."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.errors import MissingResource, UnknownName
from companion.paths import shared_dir

CORNER_RADIUS = 0.045
"""Radius of a card's rounded corners, as a fraction of its width (real decks: 3-5%)."""


@dataclass(frozen=True)
class DeckImages:
    """One deck style's artwork: face images by file stem (``1O``, ``AS``...) and its back, if any."""

    style: str
    faces: dict[str, np.ndarray]
    back: np.ndarray | None


def decks_root() -> Path:
    """The folder of deck artwork, ``../shared/decks`` (absent on users' machines)."""
    return shared_dir() / "decks"


def available_styles(root: Path | None = None) -> list[str]:
    """Names of the deck styles found under ``root`` (default :func:`decks_root`)."""
    root = root or decks_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "deck.json").is_file())


def rounded_alpha(image: np.ndarray, radius: float = CORNER_RADIUS) -> np.ndarray:
    """``image`` as BGRA whose corners outside a rounded rectangle are transparent."""
    h, w = image.shape[:2]
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    alpha = image[:, :, 3] if image.shape[2] == 4 else np.full((h, w), 255, np.uint8)
    r = max(2, round(radius * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    bgr = image[:, :, :3]
    return np.dstack([bgr, np.minimum(alpha, mask)])


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise MissingResource(f"cannot read card image {path}")
    return image


def _opaque_alpha(image: np.ndarray) -> np.ndarray:
    """Artwork with transparent corners keeps them; the rest gets rounded corners."""
    if image.ndim == 3 and image.shape[2] == 4:
        rgb = np.where(image[:, :, 3:] > 0, image[:, :, :3], 255).astype(np.uint8)
        return rounded_alpha(np.dstack([rgb, image[:, :, 3]]))
    return rounded_alpha(image)


@cache
def load_deck_images(style: str, root: Path | None = None) -> DeckImages:
    """Load one deck style from ``root/style`` (default ``../shared/decks``); cached per process.

    Raises :class:`UnknownName` if the style is not there.
    """
    folder = (root or decks_root()) / style
    if not (folder / "deck.json").is_file():
        raise UnknownName(f"no deck style {style!r} under {folder.parent}")
    faces = {
        p.stem: _opaque_alpha(_read(p))
        for p in sorted(folder.iterdir())
        if p.suffix.lower() in {".png", ".jpg", ".jpeg"} and p.stem != "back"
    }
    back_path = folder / "back.png"
    back = _opaque_alpha(_read(back_path)) if back_path.is_file() else None
    return DeckImages(style=style, faces=faces, back=back)
