"""A table profile: where the table plane lies in the image, and what lies where on it.

The table plane is measured in millimetres from the table's top-left corner as
seen from above, x to the right, y down; seat 0 sits at the bottom edge and the
seats follow counterclockwise. The profile holds the homography image px ->
table mm, the seats, the stock (with the trump card under it) and the play
area, and is saved as JSON (``brisca-table/1``) under ``calibration/`` or
wherever the user likes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import MalformedInput, MissingResource
from companion.paths import PROJECT_ROOT
from companion.table.markers import homography_from_markers, table_corners_mm

FORMAT = "brisca-table/1"
PRESETS_DIR = PROJECT_ROOT / "calibration" / "presets"
#: A Spanish card, short side by long side, in mm.
CARD_MM: tuple[float, float] = (61.5, 95.0)
#: A square table of 90 cm, the size the markers are assumed at unless told.
DEFAULT_TABLE_MM: tuple[float, float] = (900.0, 900.0)


@dataclass(frozen=True)
class Layout:
    """What lies where on the table, in table mm."""

    seats: np.ndarray  # (players, 2): where each seat's player sits, in playing order
    stock: np.ndarray  # (2,): centre of the stock, with the trump card under it
    play_center: np.ndarray  # (2,): centre of the play area, where tricks are played
    play_radius: float

    @property
    def players(self) -> int:
        return len(self.seats)


def parse_table_mm(text: str) -> tuple[float, float]:
    """A table size given as ``W,H`` in mm (``--table-mm``)."""
    try:
        width, height = (float(v) for v in text.split(","))
    except ValueError:
        raise MalformedInput(f"--table-mm wants W,H in mm, e.g. 640,640: got {text!r}") from None
    if min(width, height) < 2 * CARD_MM[1]:
        raise MalformedInput(f"--table-mm {text}: a table narrower than two card lengths holds no game")
    return width, height


def preset_layout(players: int, size_mm: tuple[float, float]) -> Layout:
    """The seat layout preset for ``players`` (2..6) on a table of ``size_mm``."""
    path = PRESETS_DIR / f"{players}-players.json"
    if not path.is_file():
        raise MissingResource(f"no seat preset for {players} players: {path} is missing (2..6 exist)")
    preset = json.loads(path.read_text())
    scale = np.asarray(size_mm, dtype=np.float64)
    return Layout(
        seats=np.asarray(preset["seats"], dtype=np.float64) * scale,
        stock=np.asarray(preset["stock"], dtype=np.float64) * scale,
        play_center=np.asarray(preset["play_area"]["center"], dtype=np.float64) * scale,
        play_radius=float(preset["play_area"]["radius"]) * min(size_mm),
    )


def _as_points(points: np.ndarray | list[list[float]] | tuple[float, float]) -> np.ndarray:
    array = np.asarray(points, dtype=np.float64)
    return array.reshape(-1, 2)


@dataclass(frozen=True)
class TableProfile:
    """The calibration of one camera over one table."""

    homography: np.ndarray  # (3, 3) image px -> table mm
    size_mm: tuple[float, float]
    image_size: tuple[int, int]  # width, height of the frames it was made for
    layout: Layout
    card_mm: tuple[float, float] = CARD_MM
    source: str = "corners"  # how it was made: "corners" or "markers"

    @property
    def players(self) -> int:
        return self.layout.players

    @property
    def stock_half_mm(self) -> float:
        """Half the side of the square stock zone: the stock and the trump card crossed under it."""
        return 0.75 * max(self.card_mm)

    def to_table(self, points: np.ndarray | list[list[float]] | tuple[float, float]) -> np.ndarray:
        """Image px -> table mm, for an (N, 2) array (or one point); returns (N, 2)."""
        return cv2.perspectiveTransform(_as_points(points).reshape(-1, 1, 2), self.homography).reshape(-1, 2)

    def to_image(self, points: np.ndarray | list[list[float]] | tuple[float, float]) -> np.ndarray:
        """Table mm -> image px, for an (N, 2) array (or one point); returns (N, 2)."""
        inverse = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(_as_points(points).reshape(-1, 1, 2), inverse).reshape(-1, 2)

    def table_corners_px(self) -> np.ndarray:
        """The table corners 0 top-left .. 3 bottom-left in image px, shape (4, 2)."""
        return self.to_image(table_corners_mm(self.size_mm))

    def rectify_matrix(self, px_per_mm: float) -> np.ndarray:
        """The homography image px -> rectified table image at ``px_per_mm``."""
        return np.asarray(np.diag([px_per_mm, px_per_mm, 1.0]) @ self.homography, dtype=np.float64)

    def rectify(self, frame: np.ndarray, px_per_mm: float = 1.0) -> np.ndarray:
        """The table seen from straight above, ``px_per_mm`` pixels per mm, top-left corner at (0, 0)."""
        width, height = (round(side * px_per_mm) for side in self.size_mm)
        return cv2.warpPerspective(
            frame, self.rectify_matrix(px_per_mm), (width, height), flags=cv2.INTER_AREA
        )

    def nearest_seat(self, point_mm: tuple[float, float] | np.ndarray) -> int:
        """The seat whose place is nearest to a point of the table (mm)."""
        distances = np.linalg.norm(self.layout.seats - np.asarray(point_mm, dtype=np.float64), axis=1)
        return int(np.argmin(distances))

    def in_stock(self, point_mm: tuple[float, float] | np.ndarray) -> bool:
        """Whether a point of the table (mm) lies in the stock and trump zone."""
        offset = np.abs(np.asarray(point_mm, dtype=np.float64) - self.layout.stock)
        return bool(np.all(offset <= self.stock_half_mm))

    def in_play_area(self, point_mm: tuple[float, float] | np.ndarray) -> bool:
        """Whether a point of the table (mm) lies in the play area, where tricks are played."""
        offset = np.asarray(point_mm, dtype=np.float64) - self.layout.play_center
        return bool(np.linalg.norm(offset) <= self.layout.play_radius)

    def for_image_size(self, image_size: tuple[int, int]) -> TableProfile:
        """The same calibration for frames of another resolution of the same view (width, height)."""
        scale_x, scale_y = (old / new for old, new in zip(self.image_size, image_size, strict=True))
        homography = self.homography @ np.diag([scale_x, scale_y, 1.0])
        return replace(self, homography=homography, image_size=(int(image_size[0]), int(image_size[1])))

    def with_players(self, players: int) -> TableProfile:
        """The same calibration with the seat preset for ``players``."""
        return replace(self, layout=preset_layout(players, self.size_mm))

    def to_dict(self) -> dict[str, object]:
        def rounded(array: np.ndarray) -> list[Any]:
            return list(np.round(array, 3).tolist())

        return {
            "format": FORMAT,
            "source": self.source,
            "size_mm": list(self.size_mm),
            "card_mm": list(self.card_mm),
            "image_size": list(self.image_size),
            "homography": np.asarray(self.homography).tolist(),
            "image_corners": rounded(self.table_corners_px()),
            "players": self.players,
            "seats": rounded(self.layout.seats),
            "stock": rounded(self.layout.stock),
            "play_area": {
                "center": rounded(self.layout.play_center),
                "radius": round(self.layout.play_radius, 3),
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableProfile:
        """A profile from its JSON form; raises ``MalformedInput`` naming what is wrong."""
        if data.get("format") != FORMAT:
            raise MalformedInput(
                f"not a table profile: format is {data.get('format')!r}, expected {FORMAT!r}"
            )
        try:
            play = data["play_area"]
            layout = Layout(
                seats=np.asarray(data["seats"], dtype=np.float64).reshape(-1, 2),
                stock=np.asarray(data["stock"], dtype=np.float64).reshape(2),
                play_center=np.asarray(play["center"], dtype=np.float64).reshape(2),
                play_radius=float(play["radius"]),
            )
            homography = np.asarray(data["homography"], dtype=np.float64).reshape(3, 3)
            width, height = (float(v) for v in data["size_mm"])
            card_w, card_h = (float(v) for v in data.get("card_mm", CARD_MM))
            image_w, image_h = (int(v) for v in data["image_size"])
        except (KeyError, TypeError, ValueError) as error:
            raise MalformedInput(f"table profile field missing or malformed: {error}") from None
        return cls(
            homography=homography,
            size_mm=(width, height),
            image_size=(image_w, image_h),
            layout=layout,
            card_mm=(card_w, card_h),
            source=str(data.get("source", "corners")),
        )

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n")


def load_profile(path: Path) -> TableProfile:
    """Read a table profile; ``MissingResource`` if absent, ``MalformedInput`` if unreadable."""
    if not path.is_file():
        raise MissingResource(f"table profile not found: {path}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise MalformedInput(f"table profile {path} is not JSON: {error}") from None
    return TableProfile.from_dict(data)


def profile_from_corners(
    corners_px: np.ndarray | list[list[float]],
    image_size: tuple[int, int],
    players: int = 2,
    size_mm: tuple[float, float] = DEFAULT_TABLE_MM,
) -> TableProfile:
    """A profile from the four table corners clicked in the image (0 top-left .. 3 bottom-left, px)."""
    corners = np.asarray(corners_px, dtype=np.float32)
    if corners.shape != (4, 2):
        raise MalformedInput(f"need four table corners (x, y), got shape {corners.shape}")
    homography = cv2.getPerspectiveTransform(corners, table_corners_mm(size_mm).astype(np.float32))
    return TableProfile(homography, size_mm, image_size, preset_layout(players, size_mm), source="corners")


def profile_from_markers(
    image: np.ndarray, players: int = 2, size_mm: tuple[float, float] = DEFAULT_TABLE_MM
) -> TableProfile:
    """A profile found from the four corner markers in ``image``; ``RecognitionFailure`` if any is missing."""
    homography = homography_from_markers(image, size_mm)
    image_size = (image.shape[1], image.shape[0])
    return TableProfile(homography, size_mm, image_size, preset_layout(players, size_mm), source="markers")
