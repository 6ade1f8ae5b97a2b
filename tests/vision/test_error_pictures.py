"""Pictures of the detector's mistakes: what is drawn where, which frames are kept, the command."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.training.error_pictures import MADE_UP, MISSED, WorstFrames, draw_count, draw_errors
from companion.vision.readings import Face, Reading

CARD = np.float32([[20, 60], [80, 60], [80, 150], [20, 150]])


def _at(image: np.ndarray, point: tuple[int, int]) -> np.ndarray:
    return image[point[1], point[0]].astype(int)


def test_a_missed_card_is_red_and_a_made_up_one_magenta() -> None:
    frame = np.full((200, 300, 3), 90, np.uint8)
    other = CARD + np.float32([150, 0])
    labels = [(0, CARD), (0, other)]
    readings = [
        Reading(other + 1, Face.UP, 0.9),
        Reading(CARD + np.float32([0, 45]), Face.UP, 0.8),
    ]  # IoU 1/3
    drawn = draw_errors(frame, readings, labels)
    assert drawn.mistakes == 2 and drawn.caption.startswith("1 missed (red), 1 made up")
    assert np.abs(_at(drawn.picture, (20, 120)) - MISSED).max() < 40  # left edge of the missed card
    assert np.abs(_at(drawn.picture, (50, 195)) - MADE_UP).max() < 40  # bottom edge of the made-up one
    assert drawn.picture is not frame and frame.max() == 90


def test_a_frame_read_right_shows_no_mistake() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    drawn = draw_errors(
        frame, [Reading(CARD, Face.UP, 0.9), Reading(CARD + 200, Face.DOWN, 0.5)], [(0, CARD)]
    )
    assert drawn.mistakes == 0


def test_only_the_frames_with_most_mistakes_are_kept_and_written(tmp_path: Path) -> None:
    worst = WorstFrames(keep=2)
    frame = np.zeros((60, 80, 3), np.uint8)
    for name, mistakes in (("a", 1), ("b", 0), ("c", 3), ("d", 1), ("e", 2)):
        labels = [(0, CARD / 4 + np.float32([i * 2, 0])) for i in range(mistakes)]
        worst.offer(name, draw_errors(frame, [], labels))
    paths = worst.write(tmp_path)
    assert [p.name for p in paths] == ["01-c.jpg", "02-e.jpg"]
    assert all(cv2.imread(str(p)).shape == (60, 80, 3) for p in paths)
    assert cv2.imread(str(tmp_path / "sheet.jpg")) is not None


def test_a_real_frame_says_whether_its_count_is_in_range() -> None:
    frame = np.zeros((100, 900, 3), np.uint8)
    inside = draw_count(frame, [Reading(CARD, Face.UP, 0.9)], (1, 2))
    outside = draw_count(frame, [Reading(CARD, Face.UP, 0.9)], (2, 3))
    banner = (slice(0, 30), slice(0, 600))
    assert not np.array_equal(inside[banner], outside[banner])


@pytest.mark.parametrize("real", [False, True])
def test_evaluate_writes_pictures_of_rendered_and_real_frames(tmp_path: Path, real: bool) -> None:
    data = tmp_path / "data"
    for folder in ("images/val", "labels/val"):
        (data / folder).mkdir(parents=True)
    cv2.imwrite(str(data / "images" / "val" / "000000.jpg"), np.full((240, 320, 3), 80, np.uint8))
    (data / "labels" / "val" / "000000.txt").write_text("0 0.1 0.1 0.3 0.1 0.3 0.5 0.1 0.5\n")
    (data / "tags.json").write_text('{"val/000000": [[]]}')
    frames = tmp_path / "real"
    frames.mkdir()
    if real:
        cv2.imwrite(str(frames / "f1.jpg"), np.full((240, 320, 3), 80, np.uint8))
        (frames / "counts.json").write_text('{"f1.jpg": {"face_up_min": 0, "face_up_max": 0}}')
    out = tmp_path / "pictures"
    assert (
        main(["dataset", "evaluate", "--data", str(data), "--real", str(frames), "--pictures", str(out)]) == 0
    )
    written = sorted(p.name for p in out.iterdir())
    assert "01-000000.jpg" in written and "sheet.jpg" in written  # a blank frame: the card is missed
    assert ("real-f1.jpg" in written) is real
