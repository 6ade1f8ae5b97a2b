"""The compositing primitives: surfaces, card placement, hands, camera."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from render_helpers import FACE, flat_card, magenta

from companion.datasets.camera import apply_camera_effects, project, tilted_homography
from companion.datasets.compose import card_corners, place_card, polygon_mask, procedural_back
from companion.datasets.hands import draw_hand
from companion.datasets.surfaces import SURFACES, render_table
from companion.errors import MalformedInput


@pytest.mark.parametrize("kind", sorted(SURFACES))
def test_every_surface_is_deterministic_and_textured(kind: str) -> None:
    a = render_table(np.random.default_rng(3), (160, 120), kind, unit=40)
    b = render_table(np.random.default_rng(3), (160, 120), kind, unit=40)
    c = render_table(np.random.default_rng(4), (160, 120), kind, unit=40)
    assert a.shape == (120, 160, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert a.std() > 1.0  # no flat fill: felt, grain, weave or pattern


def test_card_corners_start_on_a_short_edge() -> None:
    corners = card_corners((100, 80), 40, np.radians(30))
    edges = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    assert edges[0] == pytest.approx(40, abs=1e-3)
    assert edges[1] == pytest.approx(40 * 1.56, abs=1e-3)
    assert corners.mean(0) == pytest.approx([100, 80], abs=1e-3)


def test_place_card_draws_exactly_inside_its_corners() -> None:
    canvas = np.zeros((200, 240, 3), np.uint8)
    corners = card_corners((120, 100), 60, np.radians(25))
    place_card(canvas, flat_card(FACE), corners)
    inside = polygon_mask(canvas.shape, corners)
    drawn = magenta(canvas)
    assert np.count_nonzero(drawn & ~inside) < 0.01 * inside.sum()  # nothing outside but anti-aliasing
    assert np.count_nonzero(drawn & inside) > 0.97 * inside.sum()  # rounded corners are all that's missing


def test_label_corners_follow_the_camera() -> None:
    """A card drawn on the table plane and seen through a tilted camera lies where its label says."""
    size = (320, 240)
    to_image = tilted_homography(size, np.radians(30), np.radians(60))
    plane = np.zeros((600, 800, 3), np.uint8)
    shift = np.array([[1, 0, -400], [0, 1, -300], [0, 0, 1]], float)
    to_image = to_image @ shift
    corners = card_corners((400, 300), 70, np.radians(10))
    place_card(plane, flat_card(FACE), corners)
    image = cv2.warpPerspective(plane, to_image, size)
    label = polygon_mask(image.shape, project(to_image, corners))
    drawn = magenta(image)
    iou = np.count_nonzero(label & drawn) / np.count_nonzero(label | drawn)
    assert iou > 0.93


def test_place_card_rejects_bad_shapes() -> None:
    canvas = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(MalformedInput, match=r"\(3, 2\)"):
        place_card(canvas, flat_card(FACE), np.zeros((3, 2)))
    with pytest.raises(MalformedInput, match="BGR"):
        place_card(canvas, np.zeros((10, 10), np.uint8), card_corners((25, 25), 10, 0))


def test_hand_covers_what_its_mask_says() -> None:
    canvas = np.full((300, 300, 3), 40, np.uint8)
    mask = draw_hand(canvas, np.random.default_rng(1), (150, 150), 0.3, 120)
    changed = np.any(canvas != 40, axis=2)
    assert 0.02 < mask.mean() < 0.9
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    assert not np.any(changed & ~grown)
    assert np.count_nonzero(changed & mask) > 0.95 * mask.sum()


def test_procedural_back_has_card_shape_and_rounded_corners() -> None:
    back = procedural_back(np.random.default_rng(2), width=100)
    assert back.shape == (156, 100, 4)
    assert back[0, 0, 3] == 0 and back[78, 50, 3] == 255


def test_camera_effects_are_deterministic_per_seed() -> None:
    image = render_table(np.random.default_rng(0), (128, 96), "wood", unit=30)
    a = apply_camera_effects(image, np.random.default_rng(5))
    b = apply_camera_effects(image, np.random.default_rng(5))
    assert a.shape == image.shape and np.array_equal(a, b)
    assert not np.array_equal(a, image)
