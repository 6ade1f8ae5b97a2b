"""Draw a table profile onto a frame, so a person can check a calibration by looking."""

from __future__ import annotations

import cv2
import numpy as np

from companion.table.profile import TableProfile

_OUTLINE = (0, 255, 255)
_SEAT = (255, 160, 0)
_STOCK = (0, 128, 255)
_PLAY = (80, 220, 80)


def _polyline(
    frame: np.ndarray, profile: TableProfile, points_mm: np.ndarray, color: tuple[int, int, int]
) -> None:
    points = np.round(profile.to_image(points_mm)).astype(np.int32)
    cv2.polylines(frame, [points], isClosed=True, color=color, thickness=2, lineType=cv2.LINE_AA)


def _label(frame: np.ndarray, text: str, at: np.ndarray, color: tuple[int, int, int]) -> None:
    x, y = (int(v) for v in np.round(at))
    for thickness, ink in ((4, (0, 0, 0)), (1, color)):
        cv2.putText(frame, text, (x + 8, y - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, thickness, cv2.LINE_AA)


def draw_profile(frame: np.ndarray, profile: TableProfile) -> np.ndarray:
    """A copy of ``frame`` with the table outline, the seats, the stock and trump zone and the play area."""
    out = frame.copy()
    width, height = profile.size_mm
    _polyline(out, profile, np.array([[0, 0], [width, 0], [width, height], [0, height]]), _OUTLINE)
    half = profile.stock_half_mm
    stock = profile.layout.stock + np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    _polyline(out, profile, stock, _STOCK)
    _label(out, "stock + trump", profile.to_image(profile.layout.stock)[0], _STOCK)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    circle = profile.layout.play_center + profile.layout.play_radius * np.stack(
        [np.cos(angles), np.sin(angles)], 1
    )
    _polyline(out, profile, circle, _PLAY)
    for seat, place in enumerate(profile.to_image(profile.layout.seats)):
        cv2.circle(out, (int(place[0]), int(place[1])), 9, _SEAT, -1, cv2.LINE_AA)
        _label(out, f"seat {seat}", place, _SEAT)
    return out
