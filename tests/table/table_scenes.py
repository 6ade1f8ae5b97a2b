"""Generated table scenes with known truth: a cloth, the corner markers, cards at known poses.

Everything is drawn from a seeded generator; no card artwork is used, so the tests
run on a fresh clone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.table.markers import draw_markers, table_corners_mm
from companion.table.profile import CARD_MM

SIZE_MM = (900.0, 900.0)
FRAME_SIZE = (1280, 720)


@dataclass(frozen=True)
class Artwork:
    """Card pictures to draw instead of the generated ones: faces and a back (BGR)."""

    faces: list[np.ndarray]
    back: np.ndarray


@dataclass(frozen=True)
class Scene:
    frame: np.ndarray
    empty: np.ndarray  # the same view without cards
    corners_px: np.ndarray  # true table corners 0..3 in the frame
    cards_px: list[np.ndarray]  # true corners of each card in the frame
    cards_mm: list[np.ndarray]  # the same on the table
    faces_up: list[bool]
    clear: list[bool]  # for each card, whether no hand touches it


def camera_corners(rng: np.random.Generator, tilt: float = 0.12) -> np.ndarray:
    """Table corners in a 1280x720 frame as seen by a camera roughly above, a little tilted."""
    w, h = FRAME_SIZE
    side = h * 0.78
    top = (h - side) / 2
    left, right, bottom = w / 2 - side / 2, w / 2 + side / 2, top + side
    base = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], dtype=np.float64)
    base[:, 0] += rng.uniform(-60, 60)
    jitter = rng.uniform(-tilt, tilt, size=(4, 2)) * side
    return np.clip(base + jitter, 2, [w - 3, h - 3])


def cloth(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A felt-like cloth of a random colour with a fine noise texture (BGR, size = width, height)."""
    w, h = size
    colour = rng.choice([(40, 110, 30), (110, 60, 20), (30, 30, 120), (60, 80, 70)]) + rng.integers(
        -15, 15, 3
    )
    texture = cv2.GaussianBlur(rng.normal(0, 9, (h, w)).astype(np.float32), (0, 0), 1.2)[..., None]
    return np.clip(np.asarray(colour, np.float32) + texture, 0, 255).astype(np.uint8)


def card_image(rng: np.random.Generator, face_up: bool, px_per_mm: float = 2.0) -> np.ndarray:
    """A card-like picture: a white face with coloured figures, or a patterned back."""
    w, h = (round(s * px_per_mm) for s in CARD_MM)
    if not face_up:
        card = np.full((h, w, 3), (40, 40, 160), np.uint8)
        for y in range(0, h, 10):
            cv2.line(card, (0, y), (w, y + 30), (200, 200, 230), 2)
        return card
    card = np.full((h, w, 3), (235, 240, 242), np.uint8)
    for _ in range(int(rng.integers(1, 7))):
        centre = (int(rng.integers(20, w - 20)), int(rng.integers(25, h - 25)))
        colour = tuple(int(c) for c in rng.integers(0, 220, 3))
        cv2.circle(card, centre, int(rng.integers(8, 22)), colour, -1)
    return card


def card_corners_mm(center: np.ndarray, angle: float) -> np.ndarray:
    w, h = CARD_MM
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    c, s = np.cos(angle), np.sin(angle)
    return local @ np.array([[c, s], [-s, c]]) + center


def place_cards(
    rng: np.random.Generator, count: int, min_gap_mm: float = 15.0, overlap: bool = False
) -> list[np.ndarray]:
    """Card quads on the table (mm) at random places and angles that do not touch each other;
    with ``overlap``, in pairs whose second card lies partly over the first, at another angle."""
    quads: list[np.ndarray] = []
    centres: list[np.ndarray] = []
    reach = (2.2 if overlap else 1.0) * np.hypot(*CARD_MM) + min_gap_mm
    while len(quads) < count:
        centre = rng.uniform(150, SIZE_MM[0] - 150, 2)
        if all(np.linalg.norm(centre - other) > reach for other in centres):
            centres.append(centre)
            angle = rng.uniform(0, np.pi)
            quads.append(card_corners_mm(centre, angle))
            if overlap and len(quads) < count:
                direction = rng.uniform(0, 2 * np.pi)
                shift = rng.uniform(40, 60) * np.array([np.cos(direction), np.sin(direction)])
                quads.append(card_corners_mm(centre + shift, angle + rng.uniform(0.35, 1.2)))
    return quads


def draw_hand(rng: np.random.Generator, table: np.ndarray) -> np.ndarray:
    """Draws a skin-coloured hand and forearm reaching in from the bottom edge; returns its mask."""
    h, w = table.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    tip = (int(rng.integers(w // 4, 3 * w // 4)), int(rng.integers(h // 3, 2 * h // 3)))
    skin = tuple(int(c) for c in rng.integers([90, 120, 170], [130, 160, 230]))
    elbow = (tip[0] + int(rng.integers(-150, 150)), h)
    angle = float(rng.uniform(0, 180))
    for canvas, colour in ((table, skin), (mask, 255)):
        cv2.line(canvas, tip, elbow, colour, 90)
        cv2.ellipse(canvas, tip, (55, 75), angle, 0, 360, colour, -1)
    return mask


def untouched(quad: np.ndarray, mask: np.ndarray, margin_mm: int = 10) -> bool:
    """Whether a card quad (table mm) stays ``margin_mm`` away from the mask (1 px per mm)."""
    card = np.zeros_like(mask)
    cv2.fillConvexPoly(card, np.round(quad).astype(np.int32), 255)
    card = cv2.dilate(card, np.ones((2 * margin_mm + 1, 2 * margin_mm + 1), np.uint8))
    return not np.any(card & mask)


def render(
    seed: int,
    cards: int | list[np.ndarray] = 4,
    tilt: float = 0.12,
    light: float = 1.0,
    noise: float = 0.0,
    hand: bool = False,
    overlap: bool = False,
    artwork: Artwork | None = None,
) -> Scene:
    """A 1280x720 frame of the table with ``cards`` cards, and the same view empty, lit at 1.

    ``cards`` is a number of cards at random poses, or their quads on the table (mm).
    ``light`` scales the frame's brightness, ``noise`` adds sensor noise (std, grey levels),
    ``hand`` draws a hand reaching over the table (it is no card: proposals on it are wrong).
    ``overlap`` lays the cards in overlapping pairs; ``artwork`` draws real card pictures.
    """
    rng = np.random.default_rng(seed)
    table = cloth(rng, (round(SIZE_MM[0]), round(SIZE_MM[1])))  # 1 px per mm
    empty_table = table.copy()
    quads = place_cards(rng, cards, overlap=overlap) if isinstance(cards, int) else cards
    faces_up = [bool(rng.random() < 0.75) for _ in quads]
    for quad, face_up in zip(quads, faces_up, strict=True):
        if artwork is None:
            picture = card_image(rng, face_up)
        else:
            picture = artwork.faces[int(rng.integers(len(artwork.faces)))] if face_up else artwork.back
        ph, pw = picture.shape[:2]
        source = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
        warp = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
        layer = cv2.warpPerspective(picture, warp, (table.shape[1], table.shape[0]), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), warp, (table.shape[1], table.shape[0]))
        table[mask > 127] = layer[mask > 127]
    hand_mask = draw_hand(rng, table) if hand else np.zeros(table.shape[:2], np.uint8)
    clear = [untouched(quad, hand_mask) for quad in quads]
    corners_px = camera_corners(rng, tilt)
    to_image = cv2.getPerspectiveTransform(
        table_corners_mm(SIZE_MM).astype(np.float32), corners_px.astype(np.float32)
    )
    floor = np.full((FRAME_SIZE[1], FRAME_SIZE[0], 3), (70, 75, 80), np.uint8)

    def view(picture: np.ndarray, light: float = 1.0) -> np.ndarray:
        warped = cv2.warpPerspective(
            picture, to_image, FRAME_SIZE, dst=floor.copy(), borderMode=cv2.BORDER_TRANSPARENT
        )
        marked = draw_markers(warped, corners_px, SIZE_MM).astype(np.float32) * light
        return np.clip(marked + rng.normal(0, noise, marked.shape), 0, 255).astype(np.uint8)

    def project(quad: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(quad.reshape(-1, 1, 2), to_image).reshape(-1, 2)

    return Scene(
        view(table, light), view(empty_table), corners_px, [project(q) for q in quads], quads, faces_up, clear
    )
