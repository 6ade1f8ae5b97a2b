"""Table calibration on generated tables with known truth: homographies, markers, seats, profiles."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import SIZE_MM, render

from companion.errors import MalformedInput, MissingResource, RecognitionFailure
from companion.table.markers import (
    MARKER_IDS,
    TILE_MM,
    draw_markers,
    find_markers,
    tile_image,
    tile_origin_mm,
)
from companion.table.profile import (
    TableProfile,
    load_profile,
    preset_layout,
    profile_from_corners,
    profile_from_markers,
)

cv2.setNumThreads(1)


def card_corner_errors_mm(profile: TableProfile, seed: int, tilt: float) -> np.ndarray:
    scene = render(seed, cards=4, tilt=tilt)
    seen = np.vstack([profile.to_table(card) for card in scene.cards_px])
    return np.linalg.norm(seen - np.vstack(scene.cards_mm), axis=1)


def test_round_trip_image_table_image_is_exact() -> None:
    rng = np.random.default_rng(4)
    corners = np.array([[300, 40], [980, 60], [1010, 700], [260, 690]]) + rng.uniform(-20, 20, (4, 2))
    profile = profile_from_corners(corners, (1280, 720), players=4)
    points_mm = rng.uniform(0, 900, (50, 2))
    assert np.abs(profile.to_table(profile.to_image(points_mm)) - points_mm).max() < 1e-3
    assert np.abs(profile.table_corners_px() - corners).max() < 1e-3


def test_profile_follows_the_camera_to_another_resolution() -> None:
    scene = render(9, cards=4)
    profile = profile_from_corners(scene.corners_px, (1280, 720), size_mm=SIZE_MM)
    small = profile.for_image_size((640, 360))
    for card_px, card_mm in zip(scene.cards_px, scene.cards_mm, strict=True):
        assert np.abs(small.to_table(card_px / 2) - card_mm).max() < 1.0


@pytest.mark.parametrize("seed", range(3))
def test_clicked_corners_map_cards_onto_the_table_within_a_millimetre(seed: int) -> None:
    scene = render(seed, cards=4)
    profile = profile_from_corners(scene.corners_px, (1280, 720), size_mm=SIZE_MM)
    assert card_corner_errors_mm(profile, seed, 0.12).max() < 1.0


@pytest.mark.parametrize(("seed", "tilt"), [(0, 0.0), (1, 0.05), (2, 0.1), (3, 0.12), (4, 0.12)])
def test_markers_calibrate_a_table_seen_from_several_perspectives(seed: int, tilt: float) -> None:
    scene = render(seed, cards=4, tilt=tilt)
    profile = profile_from_markers(scene.frame, players=2, size_mm=SIZE_MM)
    assert profile.source == "markers"
    errors = card_corner_errors_mm(profile, seed, tilt)
    assert errors.mean() < 1.0
    assert errors.max() < 2.0  # one pixel is about 1.6 mm on this table


def test_a_marker_taped_down_rotated_still_calibrates() -> None:
    scene = render(5, cards=4)
    truth = profile_from_corners(scene.corners_px, (1280, 720), size_mm=SIZE_MM)
    tile = cv2.cvtColor(np.rot90(tile_image(MARKER_IDS[2], 160)).copy(), cv2.COLOR_GRAY2BGR)
    origin = tile_origin_mm(2, SIZE_MM)
    square = origin + np.array([[0, 0], [TILE_MM, 0], [TILE_MM, TILE_MM], [0, TILE_MM]])
    warp = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [160, 0], [160, 160], [0, 160]]), truth.to_image(square).astype(np.float32)
    )
    frame = cv2.warpPerspective(
        tile, warp, (1280, 720), dst=scene.frame.copy(), borderMode=cv2.BORDER_TRANSPARENT
    )
    profile = profile_from_markers(frame, size_mm=SIZE_MM)
    assert card_corner_errors_mm(profile, 5, 0.12).max() < 2.0


def test_a_covered_marker_is_named_in_the_failure() -> None:
    scene = render(6, cards=0)
    frame = scene.frame.copy()
    x, y = scene.corners_px[3].astype(int)
    cv2.rectangle(frame, (x - 5, y - 90), (x + 90, y + 5), (60, 60, 60), -1)
    assert sorted(find_markers(frame)) == [0, 1, 2]
    with pytest.raises(RecognitionFailure, match=r"corners 3 \(id 13\)"):
        profile_from_markers(frame, size_mm=SIZE_MM)


def test_drawn_markers_follow_the_table_corners() -> None:
    corners = np.array([[200.0, 100.0], [1000.0, 80.0], [1100.0, 650.0], [150.0, 700.0]])
    image = draw_markers(np.zeros((720, 1280, 3), np.uint8), corners, SIZE_MM)
    for corner, quad in find_markers(image).items():
        assert np.linalg.norm(quad.mean(axis=0) - corners[corner]) < 80  # each tile sits at its own corner
    assert len(find_markers(image)) == 4


def test_small_far_markers_are_found_in_the_enlarged_image() -> None:
    corners = np.array([[500.0, 200.0], [700.0, 200.0], [700.0, 400.0], [500.0, 400.0]])  # markers 11 px wide
    image = draw_markers(np.full((720, 1280, 3), (40, 90, 40), np.uint8), corners, SIZE_MM)
    found = find_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    profile = profile_from_markers(image, size_mm=SIZE_MM)
    assert np.abs(profile.table_corners_px() - corners).max() < 1.0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seat_presets_go_counterclockwise_from_the_bottom_edge(players: int) -> None:
    layout = preset_layout(players, SIZE_MM)
    assert layout.players == players
    centre = np.array(SIZE_MM) / 2
    offsets = layout.seats - centre
    angles = np.degrees(np.arctan2(offsets[:, 1], offsets[:, 0]))  # y down: 90 is the bottom edge
    assert angles[0] == pytest.approx(90)
    turns = np.diff(np.unwrap(np.radians(angles)))
    assert np.all(turns < 0) and np.degrees(turns.sum()) > -360  # counterclockwise seen from above, once


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_zones_tell_seat_stock_and_play_area(players: int) -> None:
    profile = profile_from_corners([[0, 0], [900, 0], [900, 900], [0, 900]], (900, 900), players=players)
    centre = np.array(SIZE_MM) / 2
    for seat, place in enumerate(profile.layout.seats):
        in_front = centre + 0.6 * (place - centre)  # where this seat plays its card
        assert profile.nearest_seat(in_front) == seat
        assert not profile.in_stock(in_front)
    assert profile.in_stock(profile.layout.stock) and not profile.in_play_area(profile.layout.stock)
    assert profile.in_play_area(centre) and not profile.in_stock(centre)


def test_rectified_table_has_the_marker_tiles_in_its_corners() -> None:
    scene = render(7, cards=0)
    profile = profile_from_markers(scene.frame, size_mm=SIZE_MM)
    top_down = profile.rectify(scene.frame, px_per_mm=0.5)
    assert top_down.shape == (450, 450, 3)
    for x, y in [(2, 2), (447, 2), (447, 447), (2, 447)]:  # the white margin of each tile
        assert top_down[y, x].min() > 200
    assert top_down[225, 225].max() < 200  # the cloth


def test_profile_survives_save_and_load(tmp_path: Path) -> None:
    scene = render(8, cards=0)
    profile = profile_from_markers(scene.frame, players=4, size_mm=SIZE_MM)
    profile.save(tmp_path / "table.json")
    loaded = load_profile(tmp_path / "table.json")
    assert np.allclose(loaded.homography, profile.homography)
    assert loaded.players == 4 and loaded.size_mm == SIZE_MM and loaded.source == "markers"
    assert np.allclose(loaded.layout.seats, profile.layout.seats, atol=1e-3)
    assert loaded.with_players(3).players == 3


@pytest.mark.parametrize(
    ("content", "error", "named"),
    [
        ("{not json", MalformedInput, "not JSON"),
        (json.dumps({"format": "other/1"}), MalformedInput, "other/1"),
        (json.dumps({"format": "brisca-table/1", "seats": []}), MalformedInput, "play_area"),
    ],
)
def test_broken_profiles_are_refused_with_the_reason(
    tmp_path: Path, content: str, error: type, named: str
) -> None:
    path = tmp_path / "table.json"
    path.write_text(content)
    with pytest.raises(error, match=named):
        load_profile(path)


def test_missing_profile_and_preset_are_named(tmp_path: Path) -> None:
    with pytest.raises(MissingResource, match=r"absent\.json"):
        load_profile(tmp_path / "absent.json")
    with pytest.raises(MissingResource, match="7 players"):
        preset_layout(7, SIZE_MM)


def test_a_table_size_is_read_from_w_comma_h_and_nonsense_is_a_clear_error():
    from companion.table.profile import parse_table_mm

    assert parse_table_mm("900,600") == (900.0, 600.0)
    with pytest.raises(MalformedInput, match="--table-mm wants W,H in mm"):
        parse_table_mm("900x600")
    with pytest.raises(MalformedInput, match="narrower than two card lengths"):
        parse_table_mm("900,150")
