"""Whole rendered scenes: deterministic, and labelled where the cards are."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from render_helpers import magenta

from companion.datasets.compose import polygon_mask
from companion.datasets.decks import DeckImages
from companion.datasets.scene import MIN_VISIBLE, render_scene
from companion.errors import MalformedInput
from companion.table.markers import find_markers


def test_same_seed_same_scene(flat_deck: DeckImages) -> None:
    a = render_scene(np.random.default_rng([7, 1]), [flat_deck], max_side=320)
    b = render_scene(np.random.default_rng([7, 1]), [flat_deck], max_side=320)
    c = render_scene(np.random.default_rng([7, 2]), [flat_deck], max_side=320)
    assert np.array_equal(a.image, b.image)
    assert [(x.cls, x.tags) for x in a.labels] == [(x.cls, x.tags) for x in b.labels]
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(a.labels, b.labels, strict=True))
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", range(6))
def test_face_up_labels_lie_on_face_up_cards(flat_deck: DeckImages, seed: int) -> None:
    """Each face-up label covers card face; no card with 30% or more of it in view goes unlabelled."""
    scene = render_scene(np.random.default_rng(seed), [flat_deck], size=(480, 360))
    h, w = scene.image.shape[:2]
    face = magenta(scene.image)
    labelled = np.zeros((h, w), bool)
    card_area = 0.0
    for label in scene.labels:
        assert label.cls in (0, 1)
        assert label.corners.shape == (4, 2)
        assert np.all(label.corners >= 0) and np.all(label.corners <= [w, h])
        inside = polygon_mask(scene.image.shape, label.corners)
        labelled |= inside
        card_area = max(card_area, float(cv2.contourArea(label.corners)))
        if label.cls == 0:
            assert face[inside].mean() > 0.2
    _, _, stats, _ = cv2.connectedComponentsWithStats((face & ~labelled).astype(np.uint8))
    assert all(area < MIN_VISIBLE * card_area + 20 for area in stats[1:, cv2.CC_STAT_AREA])


def test_validation_split_changes_the_look(flat_deck: DeckImages) -> None:
    train = render_scene(np.random.default_rng(3), [flat_deck], split="train", max_side=256)
    val = render_scene(np.random.default_rng(3), [flat_deck], split="val", max_side=256)
    assert not np.array_equal(train.image, val.image)


def test_frame_size_and_max_side(flat_deck: DeckImages) -> None:
    scene = render_scene(np.random.default_rng(0), [flat_deck], size=(1920, 1080), max_side=640)
    assert scene.image.shape == (360, 640, 3)


def test_needs_a_deck() -> None:
    with pytest.raises(MalformedInput, match="at least one deck"):
        render_scene(np.random.default_rng(0), [])


def test_some_training_frames_show_the_corner_markers_unlabelled(flat_deck: DeckImages) -> None:
    """Markers are drawn in training frames only, and no label lies on one: they are no cards."""
    marked = 0
    for seed in range(40):
        train = render_scene(np.random.default_rng([9, seed]), [flat_deck], split="train", size=(960, 720))
        val = render_scene(np.random.default_rng([9, seed]), [flat_deck], split="val", size=(960, 720))
        assert find_markers(val.image) == {}
        markers = find_markers(train.image)
        marked += bool(markers)
        for quad in markers.values():
            x, y = (float(v) for v in quad.mean(0))
            assert all(cv2.pointPolygonTest(label.corners, (x, y), False) < 0 for label in train.labels)
    assert 4 <= marked <= 20
