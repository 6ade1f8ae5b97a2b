"""The camera: a tilted view of the table plane, and what light and sensor do to the picture."""

from __future__ import annotations

import cv2
import numpy as np

from companion.datasets.palette import Split

VAL_WARMTH = (-0.15, 0.15)
"""Band of light warmth (-1 cool .. 1 warm) kept for validation scenes."""


def tilted_homography(
    size: tuple[int, int], tilt: float, azimuth: float, fov: float = np.radians(60)
) -> np.ndarray:
    """3x3 homography from table-plane pixels to image pixels for a camera tilted ``tilt`` radians.

    The camera looks at the table point under the image centre; ``azimuth`` is the direction of
    the tilt; at the image centre one plane pixel is one image pixel. Plane coordinates are
    centred on that point (add an offset to map a canvas).
    """
    w, h = size
    f = max(w, h) / (2 * np.tan(fov / 2))
    axis = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
    rot, _ = cv2.Rodrigues(axis * tilt)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rt = rot.T
    return k @ np.column_stack([rt[:, 0], rt[:, 1], [0, 0, f]])


def project(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to (n, 2) points."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, matrix).reshape(-1, 2).astype(np.float32)


def _warmth(rng: np.random.Generator, split: Split) -> float:
    lo, hi = VAL_WARMTH
    if split == "val":
        return float(rng.uniform(lo, hi))
    return float(rng.uniform(-1, lo) if rng.random() < 0.5 else rng.uniform(hi, 1))


def apply_camera_effects(image: np.ndarray, rng: np.random.Generator, split: Split = "train") -> np.ndarray:
    """Light colour and falloff, glare, shade, blur, sensor noise and JPEG artefacts on a BGR image."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    warmth = _warmth(rng, split)
    gains = np.array([1 - 0.25 * warmth, 1.0, 1 + 0.25 * warmth], np.float32) * rng.uniform(0.6, 1.25)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (x * np.cos(angle) + y * np.sin(angle)) / max(w, h)
    falloff = 1 + rng.uniform(-0.35, 0.35) * (ramp - ramp.mean())
    r2 = ((x - w / 2) ** 2 + (y - h / 2) ** 2) / (w * w / 4 + h * h / 4)
    falloff *= 1 - rng.uniform(0, 0.35) * r2
    out *= gains * falloff[..., None]
    if rng.random() < 0.3:  # a person's soft shadow over part of the table
        blob = np.zeros((h, w), np.float32)
        cv2.ellipse(
            blob,
            (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
            (int(w * rng.uniform(0.15, 0.5)), int(h * rng.uniform(0.15, 0.5))),
            rng.uniform(0, 180),
            0,
            360,
            1.0,
            -1,
        )
        k = 2 * int(max(w, h) * 0.05) + 1
        out *= (1 - rng.uniform(0.15, 0.45) * cv2.GaussianBlur(blob, (k, k), 0))[..., None]
    for _ in range(int(rng.integers(0, 3))):
        glare = np.zeros((h, w), np.float32)
        cv2.ellipse(
            glare,
            (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
            (int(w * rng.uniform(0.02, 0.15)), int(h * rng.uniform(0.02, 0.15))),
            rng.uniform(0, 180),
            0,
            360,
            1.0,
            -1,
        )
        k = 2 * int(max(w, h) * 0.03) + 1
        out += rng.uniform(25, 110) * cv2.GaussianBlur(glare, (k, k), 0)[..., None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    blur = rng.uniform(0, 1.6)
    if rng.random() < 0.15:  # motion blur of a moving camera
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, rot, (length, length)))
    elif blur > 0.4:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    sigma = rng.uniform(1, 8)
    noise = rng.normal(0, sigma, (h, w, 1)) + rng.normal(0, sigma / 2, (h, w, 3))
    out = np.clip(out + noise, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 96))
    ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else out
