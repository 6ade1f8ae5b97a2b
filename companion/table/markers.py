"""ArUco markers at the four table corners: draw them, print them, find them.

Each corner of the table holds one white square tile of ``TILE_MM`` with an
ArUco marker of ``MARKER_MM`` in its middle; the tile's outer corner lies on the
table corner. Corners are numbered around the table plane as seen from above:
0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left (seat 0 sits at the
bottom edge). ``MARKER_IDS[i]`` is the marker at corner ``i``.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.errors import RecognitionFailure
from companion.vision.readings import Reading

#: The fixed ArUco dictionary (4x4 bits, 50 markers: robust when small).
MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
#: Marker ids at table corners 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
MARKER_IDS: tuple[int, int, int, int] = (10, 11, 12, 13)
#: Side of the black marker square, in mm.
MARKER_MM = 50.0
#: Side of the white tile around it (the quiet zone the detector needs), in mm.
TILE_MM = 70.0

_MARGIN_MM = (TILE_MM - MARKER_MM) / 2
_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)


def table_corners_mm(size_mm: tuple[float, float]) -> np.ndarray:
    """The four table corners (0 top-left .. 3 bottom-left) in table mm, shape (4, 2)."""
    width, height = size_mm
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)


def tile_origin_mm(corner: int, size_mm: tuple[float, float]) -> np.ndarray:
    """Top-left of the white tile at table corner ``corner``, in table mm."""
    width, height = size_mm
    x = 0.0 if corner in (0, 3) else width - TILE_MM
    y = 0.0 if corner in (0, 1) else height - TILE_MM
    return np.array([x, y])


def marker_corners_mm(corner: int, size_mm: tuple[float, float]) -> np.ndarray:
    """The black square's corners of the marker at table corner ``corner``, in table mm, shape (4, 2)."""
    return tile_origin_mm(corner, size_mm) + _MARGIN_MM + _UNIT_SQUARE * MARKER_MM


def tile_image(marker_id: int, px: int) -> np.ndarray:
    """A white tile of ``px`` pixels with the marker ``marker_id`` in its middle (uint8 gray)."""
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    inner = round(px * MARKER_MM / TILE_MM)
    tile = np.full((px, px), 255, np.uint8)
    offset = (px - inner) // 2
    tile[offset : offset + inner, offset : offset + inner] = cv2.aruco.generateImageMarker(
        dictionary, marker_id, inner
    )
    return tile


def draw_markers(image: np.ndarray, table_corners_px: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    """A copy of ``image`` with the four corner tiles drawn where the table corners lie.

    ``table_corners_px`` are the table corners 0..3 in image pixels, shape (4, 2);
    the tiles follow the table's perspective, so a rendered table calibrates itself.
    """
    to_image = cv2.getPerspectiveTransform(
        table_corners_mm(size_mm).astype(np.float32), np.asarray(table_corners_px, np.float32)
    )
    out = image.copy()
    tile_px = 160
    mm_per_px = TILE_MM / tile_px
    for corner, marker_id in enumerate(MARKER_IDS):
        ox, oy = tile_origin_mm(corner, size_mm)
        tile_to_table = np.array([[mm_per_px, 0, ox], [0, mm_per_px, oy], [0, 0, 1]])
        tile_to_image = to_image @ tile_to_table
        tile = cv2.cvtColor(tile_image(marker_id, tile_px), cv2.COLOR_GRAY2BGR)
        size = (out.shape[1], out.shape[0])
        warped = cv2.warpPerspective(tile, tile_to_image, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((tile_px, tile_px), 255, np.uint8), tile_to_image, size)
        out[mask > 127] = warped[mask > 127]
    return out


def _detect(gray: np.ndarray) -> dict[int, np.ndarray]:
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY), parameters)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    for quad, marker_id in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if int(marker_id) in MARKER_IDS:
            found[MARKER_IDS.index(int(marker_id))] = quad.reshape(4, 2).astype(np.float64)
    return found


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The table-corner markers visible in ``image``: corner index -> the square's four corners in px.

    Markers missed at the image's own size (small, far or noisy) are looked for again
    in the image enlarged twice.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _detect(gray)
    if len(found) < len(MARKER_IDS):
        enlarged = _detect(cv2.resize(gray, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR))
        for corner, quad in enlarged.items():
            found.setdefault(corner, (quad + 0.5) / 2.0 - 0.5)  # back to the image's pixel centres
    return found


def homography_from_markers(image: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    """The homography image px -> table mm fitted on the four corner markers of ``image``.

    A first fit on the marker centres tells which detected corner is which (so a
    marker taped down rotated still works); the final fit uses all sixteen corners.
    Raises ``RecognitionFailure`` naming the corners whose marker was not found.
    """
    found = find_markers(image)
    missing = [corner for corner in range(4) if corner not in found]
    if missing:
        names = ", ".join(f"{c} (id {MARKER_IDS[c]})" for c in missing)
        raise RecognitionFailure(f"table markers not found at corners {names}; found {sorted(found)}")
    centres_px = np.array([found[c].mean(axis=0) for c in range(4)])
    centres_mm = np.array([marker_corners_mm(c, size_mm).mean(axis=0) for c in range(4)])
    rough = cv2.getPerspectiveTransform(centres_px.astype(np.float32), centres_mm.astype(np.float32))
    image_points, table_points = [], []
    for corner in range(4):
        expected = marker_corners_mm(corner, size_mm)
        seen = cv2.perspectiveTransform(found[corner].reshape(-1, 1, 2), rough).reshape(-1, 2)
        for point_px, point_mm in zip(found[corner], seen, strict=True):
            image_points.append(point_px)
            table_points.append(expected[np.argmin(np.linalg.norm(expected - point_mm, axis=1))])
    homography, _ = cv2.findHomography(np.array(image_points), np.array(table_points), 0)
    return np.asarray(homography / homography[2, 2], dtype=np.float64)


def off_markers(readings: Sequence[Reading], markers: dict[int, np.ndarray]) -> list[Reading]:
    """``readings`` without those centred on a table-corner marker (``markers``, from
    :func:`find_markers`): a square of black and white on its white tile is no card, though a
    detector may take it for one."""
    squares = [cv2.minEnclosingCircle(quad.astype(np.float32)) for quad in markers.values()]
    return [
        r
        for r in readings
        if all(np.hypot(r.center[0] - x, r.center[1] - y) > radius for (x, y), radius in squares)
    ]
