"""Procedural table surfaces: felt, wood, plastic and tablecloths, with folds and wrinkles."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from companion.datasets.palette import Split, pick_colour

Size = tuple[int, int]
"""(width, height) in pixels."""


def smooth_noise(rng: np.random.Generator, size: Size, scale: float) -> np.ndarray:
    """Zero-mean, unit-spread noise with features about ``scale`` pixels wide, float32 (h, w)."""
    w, h = size
    sw, sh = max(2, int(w / scale) + 2), max(2, int(h / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    noise = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return (noise - noise.mean()) / (noise.std() + 1e-6)


def _grid(size: Size, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates rotated by ``angle`` radians, so patterns need not be axis-aligned."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = np.cos(angle), np.sin(angle)
    return x * c + y * s, -x * s + y * c


def _fill(size: Size, colour: np.ndarray) -> np.ndarray:
    w, h = size
    return np.broadcast_to(colour, (h, w, 3)).astype(np.float32).copy()


def _felt(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    image = _fill(size, pick_colour(rng, split, (0.35, 0.9), (0.2, 0.6)))
    fibres = smooth_noise(rng, size, 1.5) * rng.uniform(4, 10) + smooth_noise(rng, size, unit * 2) * 6
    return image + fibres[..., None]


def _wood(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    base = pick_colour(rng, "train", (0.35, 0.75), (0.25, 0.75)) if rng.random() < 0.2 else None
    hue_wood = np.array([rng.uniform(40, 110), rng.uniform(70, 150), rng.uniform(120, 210)], np.float32)
    colour = base if base is not None else hue_wood * (1.0 if split == "train" else rng.uniform(0.7, 1.2))
    _, v = _grid(size, rng.uniform(0, np.pi))
    warp = smooth_noise(rng, size, unit * 3) * rng.uniform(3, 12)
    rings = np.sin((v + warp) * 2 * np.pi / rng.uniform(4, 14)) * rng.uniform(0.5, 1.5)
    grain = 0.6 * rings + 0.4 * smooth_noise(rng, size, 2)
    plank = rng.uniform(1.5, 5) * unit
    seams = (np.abs(((v / plank) % 1.0) - 0.5) > 0.495).astype(np.float32)
    shade = 1 + 0.15 * grain + 0.08 * smooth_noise(rng, size, unit * 4)
    return colour * shade[..., None] - 60 * seams[..., None]


def _plastic(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    image = _fill(size, pick_colour(rng, split, (0.0, 0.7), (0.35, 0.95)))
    speckle = (rng.random(image.shape[:2]) < rng.uniform(0, 0.05)).astype(np.float32)
    return image + (smooth_noise(rng, size, unit * 5) * 5 - 25 * speckle)[..., None]


def _weave(rng: np.random.Generator, size: Size) -> np.ndarray:
    """Fine cloth texture to multiply with a pattern."""
    u, v = _grid(size, 0.0)
    period = rng.uniform(2, 4)
    return (
        1
        + 0.04 * np.sin(u * 2 * np.pi / period) * np.sin(v * 2 * np.pi / period)
        + 0.03 * smooth_noise(rng, size, 1.2)
    )


def _cloth_colours(rng: np.random.Generator, split: Split) -> tuple[np.ndarray, np.ndarray]:
    light = np.array([rng.uniform(200, 250)] * 3, np.float32) + rng.uniform(-10, 10, 3).astype(np.float32)
    dark = pick_colour(rng, split, (0.3, 1.0), (0.1, 0.75))
    return light, dark


def _plain(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    return _fill(size, pick_colour(rng, split, (0.05, 0.8), (0.3, 0.95)))


def _stripes(u: np.ndarray, period: float, duty: float) -> np.ndarray:
    return (((u / period) % 1.0) < duty).astype(np.float32)


def _checked(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    light, dark = _cloth_colours(rng, split)
    u, v = _grid(size, rng.uniform(0, np.pi))
    period = unit * rng.uniform(0.2, 1.2)
    cells = _stripes(u, period, 0.5) != _stripes(v, period, 0.5)
    mix = cv2.GaussianBlur(cells.astype(np.float32), (3, 3), 0)[..., None]
    return light * (1 - mix) + dark * mix


def _gingham(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    """Two crossing stripe sets: dark where both cross, mid where one does (vichy)."""
    light, dark = _cloth_colours(rng, split)
    u, v = _grid(size, rng.uniform(0, np.pi))
    period = unit * rng.uniform(0.12, 0.6)
    a = _stripes(u, period, 0.5)
    b = _stripes(v, period, 0.5)
    amount = cv2.GaussianBlur(((a + b) / 2).astype(np.float32), (3, 3), 0)[..., None]
    return light * (1 - amount) + dark * amount


def _dots(
    rng: np.random.Generator, image: np.ndarray, unit: float, split: Split, regular: bool
) -> np.ndarray:
    h, w = image.shape[:2]
    colour = pick_colour(rng, split, (0.5, 1.0), (0.4, 0.9))
    radius = max(1, round(unit * rng.uniform(0.02, 0.08)))
    step = unit * rng.uniform(0.25, 0.8)
    if regular:
        ys, xs = np.mgrid[0 : h + step : step, 0 : w + step : step]
        xs = xs + (np.arange(xs.shape[0])[:, None] % 2) * step / 2
        points = np.stack([xs.ravel(), ys.ravel()], 1) + rng.normal(0, step * 0.05, (xs.size, 2))
    else:
        points = rng.random((int(w * h / step**2), 2)) * [w, h]
    mask = np.zeros((h, w), np.uint8)
    for x, y in points.astype(int):
        cv2.circle(mask, (int(x), int(y)), radius, 255, -1, cv2.LINE_AA)
    m = (mask.astype(np.float32) / 255)[..., None]
    return image * (1 - m) + colour * m


def _dotted(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    base = _plain(rng, size, split, unit) if rng.random() < 0.5 else _gingham(rng, size, split, unit)
    return _dots(rng, base, unit, split, regular=rng.random() < 0.7)


def _patterned(rng: np.random.Generator, size: Size, split: Split, unit: float) -> np.ndarray:
    """Printed cloth: scattered motifs (flowers, diamonds, squiggles) in a few colours."""
    w, h = size
    image = _fill(size, pick_colour(rng, split, (0.0, 0.6), (0.5, 0.98)))
    colours = [pick_colour(rng, split, (0.3, 1.0), (0.2, 0.9)) for _ in range(int(rng.integers(2, 5)))]
    motif = unit * rng.uniform(0.1, 0.5)
    count = int(w * h / (motif * rng.uniform(1.5, 4)) ** 2)
    for x, y in rng.random((count, 2)) * [w, h]:
        colour = tuple(float(c) for c in colours[int(rng.integers(len(colours)))])
        r = max(1, round(motif * rng.uniform(0.2, 0.5)))
        kind = int(rng.integers(3))
        centre = (int(x), int(y))
        if kind == 0:
            for k in range(5):
                a = 2 * np.pi * k / 5
                cv2.circle(image, (int(x + r * np.cos(a)), int(y + r * np.sin(a))), r // 2 + 1, colour, -1)
        elif kind == 1:
            pts = np.array([[x, y - r], [x + r * 0.6, y], [x, y + r], [x - r * 0.6, y]], np.int32)
            cv2.fillPoly(image, [pts], colour, cv2.LINE_AA)
        else:
            cv2.ellipse(image, centre, (r, r // 2 + 1), rng.uniform(0, 180), 0, 270, colour, 2, cv2.LINE_AA)
    return image


SURFACES: dict[str, Callable[[np.random.Generator, Size, Split, float], np.ndarray]] = {
    "felt": _felt,
    "wood": _wood,
    "plastic": _plastic,
    "plain": _plain,
    "checked": _checked,
    "gingham": _gingham,
    "dotted": _dotted,
    "patterned": _patterned,
}
"""Table surface kinds by name."""

CLOTHS = {"plain", "checked", "gingham", "dotted", "patterned"}


def _wrinkle(rng: np.random.Generator, image: np.ndarray, unit: float) -> np.ndarray:
    """Displace a cloth softly and shade its folds."""
    h, w = image.shape[:2]
    size = (w, h)
    amp = unit * rng.uniform(0.01, 0.06)
    dx = smooth_noise(rng, size, unit * rng.uniform(0.8, 3)) * amp
    dy = smooth_noise(rng, size, unit * rng.uniform(0.8, 3)) * amp
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    warped = cv2.remap(image, x + dx, y + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    slope = cv2.Sobel(dx, cv2.CV_32F, 1, 0, ksize=3) / (8 * amp + 1e-6)
    shade = 1 + np.clip(slope * rng.uniform(0.05, 0.2), -0.2, 0.2)
    return warped * shade[..., None]


def render_table(
    rng: np.random.Generator, size: Size, kind: str | None = None, split: Split = "train", unit: float = 120
) -> np.ndarray:
    """A table surface of ``size`` (width, height) as a BGR uint8 image.

    ``kind`` is one of :data:`SURFACES` (drawn at random when None); ``unit`` is the width of a
    card in pixels, which sets the scale of checks, dots and grain; ``split`` picks the colours
    (validation colours are never used for training).
    """
    kind = kind or str(rng.choice(sorted(SURFACES)))
    image = SURFACES[kind](rng, size, split, unit)
    if kind in CLOTHS:
        image = _wrinkle(rng, image * _weave(rng, size)[..., None], unit)
    return np.clip(image, 0, 255).astype(np.uint8)
