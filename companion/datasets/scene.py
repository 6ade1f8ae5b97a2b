"""Whole labelled frames: a Brisca table seen from above, with the labels of every card on it.

A scene is laid out on the table plane (stock with the trump card under it, the trick, won
piles, loose cards, hands, everyday objects), drawn there, then seen through a tilted camera.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.datasets.camera import apply_camera_effects, project, tilted_homography
from companion.datasets.compose import (
    card_corners,
    drop_shadow,
    place_card,
    polygon_mask,
    procedural_back,
    tint_card,
)
from companion.datasets.decks import DeckImages
from companion.datasets.hands import draw_hand
from companion.datasets.palette import Split, pick_colour
from companion.datasets.shadows import cast_aside
from companion.datasets.surfaces import render_table
from companion.errors import MalformedInput
from companion.table.markers import MARKER_IDS, TILE_MM, tile_image
from companion.table.profile import CARD_MM

CLASS_NAMES = ("card", "back")
"""Detector classes: 0 a face-up card, 1 a card back."""

FRAME_SIZES = ((640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1600, 900), (1920, 1080))
MAX_TILT = np.radians(35)
MIN_VISIBLE = 0.25
"""A card is labelled when at least this fraction of it is in view (not hidden or off the frame)."""

WHOLE = 0.98
"""A card at least this fraction in view counts as wholly visible (edges are rasterised)."""

MOSTLY = 0.6
"""A partly hidden card at least this fraction in view counts as mostly visible."""

MARKER_SHARE = 0.3
"""The share of training frames with the printed table-corner markers in view (no val frame has
them, so the held-out figures of earlier detectors stay comparable)."""


def in_view(visible: float) -> str:
    """How much of a labelled card shows: ``"whole"``, ``"mostly"`` (60-98% in view) or
    ``"hidden"`` (25-60%: the renderer labels no card less in view)."""
    return "whole" if visible >= WHOLE else "mostly" if visible >= MOSTLY else "hidden"


@dataclass(frozen=True)
class Label:
    """One labelled card: class index (0 card, 1 back), corners (4, 2) in image px, tags, the
    face's name (its file stem, ``1O``...; empty for a back) and the fraction of the card in view."""

    cls: int
    corners: np.ndarray
    tags: tuple[str, ...] = ()
    card: str = ""
    visible: float = 1.0


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    labels: list[Label]


@dataclass
class _Item:
    image: np.ndarray
    corners: np.ndarray
    cls: int | None  # None: an object that is not a card
    tags: list[str] = field(default_factory=list)
    name: str = ""  # a face-up card's file stem


def _face(rng: np.random.Generator, decks: list[DeckImages]) -> tuple[str, np.ndarray]:
    deck = decks[int(rng.integers(len(decks)))]
    names = sorted(deck.faces)
    name = names[int(rng.integers(len(names)))]
    return name, tint_card(deck.faces[name], rng)


def _aspect(image: np.ndarray) -> float:
    return image.shape[0] / image.shape[1]


class _Layout:
    """Lays out a Brisca table in plane coordinates: what lies where, bottom first."""

    def __init__(self, rng: np.random.Generator, decks: list[DeckImages], unit: float, split: Split):
        self.rng, self.decks, self.unit, self.split = rng, decks, unit, split
        styles_with_backs = [d.back for d in decks if d.back is not None]
        if styles_with_backs and rng.random() < 0.6:
            self.back = tint_card(styles_with_backs[int(rng.integers(len(styles_with_backs)))], rng)
        else:
            self.back = procedural_back(rng, split)
        self.items: list[_Item] = []

    def card(self, centre: np.ndarray, angle: float, face_up: bool, tags: tuple[str, ...] = ()) -> _Item:
        name, image = _face(self.rng, self.decks) if face_up else ("", self.back)
        width = self.unit * self.rng.uniform(0.96, 1.04)
        corners = card_corners(tuple(centre), width, angle, _aspect(image))
        item = _Item(image, corners, 0 if face_up else 1, list(tags), name)
        self.items.append(item)
        return item

    def stack(self, centre: np.ndarray, angle: float, count: int, messy: float) -> None:
        """A pile of backs: each card a little shifted and turned; only the top one shows its face."""
        drift = self.rng.normal(0, self.unit * 0.006, 2)
        for i in range(count):
            jitter = self.rng.normal(0, messy * self.unit * 0.05, 2)
            self.card(centre + drift * i + jitter, angle + self.rng.normal(0, messy * 0.08), face_up=False)

    def stock_with_trump(self, centre: np.ndarray) -> None:
        angle = self.rng.uniform(0, 2 * np.pi)
        along = np.array([-np.sin(angle), np.cos(angle)])  # the trump card's long axis
        exposed = self.rng.uniform(0.3, 0.65)  # fraction of the trump's length out from under the stock
        aspect = 1.56
        shift = along * self.unit * (exposed * aspect - (aspect - 1) / 2)
        self.card(centre + shift, angle, face_up=True, tags=("trump",))
        self.stack(centre, angle + np.pi / 2 + self.rng.normal(0, 0.08), int(self.rng.integers(1, 16)), 0.3)

    def trick(self, centre: np.ndarray, count: int) -> None:
        base = self.rng.uniform(0, 2 * np.pi)
        for i in range(count):
            spot = centre + self.rng.normal(0, self.unit * 0.55, 2)
            aligned = base + i * 2 * np.pi / max(count, 1)
            angle = aligned + self.rng.normal(0, 0.3) if self.rng.random() < 0.6 else self.rng.uniform(0, 7)
            self.card(spot, angle, face_up=True, tags=("trick",))

    def everyday_object(self, centre: np.ndarray) -> None:
        """A phone, a note, a coaster or coins: things that are not cards."""
        kind = int(self.rng.integers(3))
        if kind == 0:  # phone or note: a rectangle of another shape or colour
            aspect = self.rng.choice([self.rng.uniform(1.0, 1.3), self.rng.uniform(1.9, 2.3)])
            colour = pick_colour(self.rng, self.split, (0, 0.6), (0.05, 1.0))
            w = int(self.unit * self.rng.uniform(0.6, 1.6))
            image = np.dstack(
                [
                    np.full((int(w * aspect), w, 3), colour, np.uint8),
                    np.full((int(w * aspect), w), 255, np.uint8),
                ]
            )
        else:  # round things
            size = int(self.unit * (self.rng.uniform(0.2, 0.35) if kind == 1 else self.rng.uniform(0.8, 1.2)))
            image = np.zeros((size, size, 4), np.uint8)
            colour = tuple(float(c) for c in pick_colour(self.rng, self.split, (0.1, 0.8), (0.3, 0.9)))
            cv2.circle(image, (size // 2, size // 2), size // 2 - 1, (*colour, 255), -1, cv2.LINE_AA)
            cv2.circle(image, (size // 2, size // 2), size // 3, (*colour[:3], 255), 1, cv2.LINE_AA)
        width = image.shape[1]
        corners = card_corners(tuple(centre), width, self.rng.uniform(0, 7), _aspect(image))
        self.items.append(_Item(image, corners, None))


def _spot(rng: np.random.Generator, region: np.ndarray) -> np.ndarray:
    """A random point inside the quadrilateral ``region`` (plane coordinates)."""
    a, b = rng.random(2)
    top = region[0] + (region[1] - region[0]) * a
    bottom = region[3] + (region[2] - region[3]) * a
    return top + (bottom - top) * b


def _lay_out(layout: _Layout, region: np.ndarray) -> None:
    rng = layout.rng
    if rng.random() < 0.7:
        layout.stock_with_trump(_spot(rng, region))
    for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3]))):
        layout.stack(_spot(rng, region), rng.uniform(0, 7), int(rng.integers(1, 12)), rng.uniform(0.3, 1.5))
    if rng.random() < 0.3:
        layout.everyday_object(_spot(rng, region))
    layout.trick(_spot(rng, region), int(rng.choice([0, 1, 2, 2, 3, 4])))
    for _ in range(int(rng.choice([0, 0, 1, 2, 3]))):
        layout.card(_spot(rng, region), rng.uniform(0, 7), face_up=rng.random() < 0.6)
    if rng.random() < 0.15:  # a spread of cards, as a player lays a hand down
        start, angle = _spot(rng, region), rng.uniform(0, 7)
        step = np.array([np.cos(angle), np.sin(angle)]) * layout.unit * rng.uniform(0.25, 0.6)
        for i in range(int(rng.integers(2, 5))):
            layout.card(start + step * i, angle + rng.normal(0, 0.15) + np.pi / 2, face_up=True)


def _corner_markers(canvas: np.ndarray, seen: np.ndarray, unit: float, rng: np.random.Generator) -> None:
    """Draw the printed table-corner markers near corners of the view ``seen`` (canvas px): black
    squares on white tiles, square to one table edge. Unlabelled: a detector must learn they are
    no cards."""
    side = unit * TILE_MM / CARD_MM[0]
    angle = rng.uniform(0, 2 * np.pi)
    middle = seen.mean(0)
    for corner, marker_id in zip(seen, MARKER_IDS, strict=True):
        if rng.random() < 0.3:
            continue
        inward = (middle - corner) / (np.linalg.norm(middle - corner) + 1e-6)
        spot = corner + inward * side * rng.uniform(0.6, 1.8)
        tile = cv2.cvtColor(tile_image(marker_id, max(16, round(side))), cv2.COLOR_GRAY2BGRA)
        place_card(canvas, tile, card_corners(tuple(spot), side, angle, 1.0))


def _draw(canvas: np.ndarray, ids: np.ndarray, layout: _Layout, light: np.ndarray) -> None:
    rng = layout.rng
    for index, item in enumerate(layout.items):
        shadow = light * layout.unit * rng.uniform(0.01, 0.05)
        drop_shadow(canvas, item.corners, tuple(shadow), layout.unit * 0.03 + 1, rng.uniform(0.2, 0.45))
        thickness = tuple(light * layout.unit * rng.uniform(0.004, 0.012))
        edge = tuple(float(c) for c in np.full(3, rng.uniform(110, 190)))
        place_card(canvas, item.image, item.corners, thickness if item.cls is not None else (0.0, 0.0), edge)
        ids[polygon_mask(ids.shape, item.corners)] = index


def _hands(
    canvas: np.ndarray, ids: np.ndarray, layout: _Layout, region: np.ndarray, light: np.ndarray
) -> None:
    rng = layout.rng
    count = int(rng.choice([0, 0, 1, 1, 1, 2]))
    cards = [i for i, it in enumerate(layout.items) if it.cls == 0]
    for _ in range(count):
        if cards and rng.random() < 0.7:  # reaching for, or holding, a card
            target = layout.items[cards[int(rng.integers(len(cards)))]].corners.mean(0)
            target = target + rng.normal(0, layout.unit * 0.4, 2)
        else:
            target = _spot(rng, region)
        inward = float(np.arctan2(*(region.mean(0) - target)[::-1]))  # from the nearer edge inwards
        direction = inward + rng.normal(0, 0.6) if rng.random() < 0.7 else rng.uniform(0, 2 * np.pi)
        length = layout.unit * rng.uniform(2.2, 3.2)  # a hand is about three card widths long
        wrist = target - np.array([np.cos(direction), np.sin(direction)]) * length * 0.5
        drawn = canvas.copy()
        mask = draw_hand(drawn, rng, tuple(wrist), direction, length, layout.split)
        cast_aside(canvas, mask, light * layout.unit * 0.15, layout.unit * 0.08, rng.uniform(0.2, 0.4))
        canvas[mask] = drawn[mask]
        ids[mask] = -2


def render_scene(
    rng: np.random.Generator,
    decks: list[DeckImages],
    size: tuple[int, int] | None = None,
    split: Split = "train",
    max_side: int | None = None,
) -> Scene:
    """Render one labelled frame of a table with cards of ``decks``.

    ``size`` is the camera's frame size (width, height), drawn from :data:`FRAME_SIZES` (and their
    portrait versions) when None; ``max_side`` renders that camera's view smaller, as ultralytics
    would shrink it anyway. Deterministic for a given ``rng`` state.
    """
    if not decks:
        raise MalformedInput("render_scene needs at least one deck, got none")
    if size is None:
        size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
        if rng.random() < 0.3:
            size = size[::-1]
    w, h = size
    if max_side and max(w, h) > max_side:
        w, h = round(w * max_side / max(w, h)), round(h * max_side / max(w, h))
    card_frac = rng.uniform(0.05, 0.16) if rng.random() < 0.85 else rng.uniform(0.16, 0.24)
    unit = card_frac * max(w, h)
    tilt = MAX_TILT * rng.random() ** 1.5
    to_image = tilted_homography((w, h), tilt, rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(50, 75)))
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    seen = project(np.linalg.inv(to_image), frame)  # the table area in view, plane coordinates
    origin = seen.min(0) - 2
    plane_size = tuple(int(v) + 4 for v in np.ceil(seen.max(0) - origin))
    shift = np.array([[1, 0, origin[0]], [0, 1, origin[1]], [0, 0, 1]])
    to_image = to_image @ shift
    margin = min(unit * 1.1, min(w, h) * 0.3)
    inner = frame + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32) * margin
    region = project(np.linalg.inv(to_image), inner)
    canvas = render_table(rng, plane_size, split=split, unit=unit)
    markers = rng.spawn(1)[0]  # its own stream: frames without markers stay as they were
    if split == "train" and markers.random() < MARKER_SHARE:
        _corner_markers(canvas, seen - origin, unit, markers)
    layout = _Layout(rng, decks, unit, split)
    _lay_out(layout, region)
    ids = np.full(canvas.shape[:2], -1, np.int16)
    light = rng.normal(0, 1, 2)
    light /= np.linalg.norm(light) + 1e-6
    _draw(canvas, ids, layout, light)
    _hands(canvas, ids, layout, region, light)
    image = cv2.warpPerspective(
        canvas, to_image, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    seen_ids = cv2.warpPerspective(ids, to_image, (w, h), flags=cv2.INTER_NEAREST, borderValue=-1)
    hands_before = ids == -2
    labels = []
    for index, item in enumerate(layout.items):
        if item.cls is None:
            continue
        corners = project(to_image, item.corners)
        area = cv2.contourArea(corners)
        visible = np.count_nonzero(seen_ids == index) / max(area, 1.0)
        if visible < MIN_VISIBLE:
            continue
        under_hand = bool(hands_before[polygon_mask(ids.shape, item.corners)].any())
        tags = tuple(item.tags) + (("hand",) if under_hand else ())
        clipped = np.clip(corners, 0, [w, h]).astype(np.float32)
        labels.append(Label(item.cls, clipped, tags, item.name, min(float(visible), 1.0)))
    return Scene(apply_camera_effects(image, rng, split), labels)
