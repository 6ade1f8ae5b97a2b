"""The printable marker sheet: an A4 page with the four corner markers at true size."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import MalformedInput
from companion.table.markers import MARKER_IDS, MARKER_MM, TILE_MM, tile_image

A4_MM = (210.0, 297.0)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
INSTRUCTIONS = (
    "Print at 100% (no 'fit to page'): each black square must measure 50 mm.",
    "Cut along the dashed lines. Tape each square flat at its table corner, as the camera sees",
    "the table: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left; seat 0 sits at the",
    "bottom edge. The outer corner of each white square goes on the corner of the playing area.",
    "Measure the width and height between the outer corners (in mm) and run:",
    "  companion calibrate --source CAMERA --size WIDTHxHEIGHT --players N --out table.json",
)


def marker_sheet(dpi: int = 300) -> np.ndarray:
    """The A4 sheet as a white BGR image at ``dpi``: four labelled tiles with dashed cut lines."""
    px_per_mm = dpi / 25.4
    width, height = (round(side * px_per_mm) for side in A4_MM)
    page = np.full((height, width, 3), 255, np.uint8)
    tile_px = round(TILE_MM * px_per_mm)
    scale = dpi / 300

    def at(x_mm: float, y_mm: float) -> tuple[int, int]:
        return round(x_mm * px_per_mm), round(y_mm * px_per_mm)

    def text(line: str, x_mm: float, y_mm: float, size: float = 1.0) -> None:
        cv2.putText(
            page,
            line,
            at(x_mm, y_mm),
            cv2.FONT_HERSHEY_SIMPLEX,
            size * scale,
            (0, 0, 0),
            max(1, round(2 * scale)),
        )

    text("brisca-companion: table corner markers", 15, 18, 1.6)
    for corner, marker_id in enumerate(MARKER_IDS):
        x_mm = 25 + (corner in (1, 2)) * 90
        y_mm = 35 + (corner in (2, 3)) * 105
        x, y = at(x_mm, y_mm)
        page[y : y + tile_px, x : x + tile_px] = tile_image(marker_id, tile_px)[..., None]
        for i in range(0, 4 * tile_px, round(4 * px_per_mm)):  # dashed cut line around the tile
            side, offset = divmod(i, tile_px)
            start = [
                (x + offset, y),
                (x + tile_px, y + offset),
                (x + tile_px - offset, y + tile_px),
                (x, y + tile_px - offset),
            ][side]
            cv2.circle(page, start, max(1, round(2 * scale)), (120, 120, 120), -1)
        text(f"corner {corner}: {CORNER_NAMES[corner]} (id {marker_id})", x_mm, y_mm + TILE_MM + 8, 0.9)
    for line_number, line in enumerate(INSTRUCTIONS):
        text(line, 15, 245 + 8 * line_number, 0.85)
    text(f"marker {MARKER_MM:.0f} mm, tile {TILE_MM:.0f} mm", 15, 292, 0.8)
    return page


def write_marker_sheet(path: Path, dpi: int = 300) -> None:
    """Write the sheet as PNG or PDF (A4 at true size), chosen by the file's suffix."""
    page = marker_sheet(dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix == ".png":
        cv2.imwrite(str(path), page, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    elif suffix == ".pdf":
        from PIL import Image

        Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)).save(path, "PDF", resolution=float(dpi))
    else:
        raise MalformedInput(f"marker sheet must be .pdf or .png, got {path.name!r}")
