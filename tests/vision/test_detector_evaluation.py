"""Scoring the detector: oriented-box IoU, matching, and the rendered and real-frame reports."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.training.evaluation import (
    card_size,
    evaluate_real,
    evaluate_rendered,
    format_report,
    match,
    read_labels,
    sweep_rendered,
)
from companion.vision.readings import Face, Reading, polygon_iou

SQUARE = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)


def _shift(dx: float) -> np.ndarray:
    return SQUARE + np.float32([dx, 0])


def test_polygon_iou() -> None:
    assert polygon_iou(SQUARE, SQUARE) == pytest.approx(1.0)
    assert polygon_iou(SQUARE, _shift(5)) == pytest.approx(50 / 150)
    assert polygon_iou(SQUARE, _shift(20)) == 0.0


def test_match_pairs_each_truth_with_at_most_one_prediction() -> None:
    truth = [SQUARE, _shift(30)]
    predicted = [_shift(1), _shift(0.5), _shift(60)]
    assert match(predicted, truth) == [0, -1]


class _Oracle:
    """A detector that reads the label files: what a perfect model would answer."""

    def __init__(self, data: Path, drop_faces: bool = False) -> None:
        self.data, self.drop_faces, self.calls = data, drop_faces, 0

    def detect(self, frame: np.ndarray) -> list[Reading]:
        h, w = frame.shape[:2]
        stem = f"{self.calls:06d}"
        self.calls += 1
        labels = read_labels(self.data / "labels" / "val" / f"{stem}.txt", w, h)
        return [
            Reading(c, Face.UP if k == 0 else Face.DOWN, 0.9)
            for k, c in labels
            if not (self.drop_faces and k == 0)
        ]


@pytest.fixture
def rendered(tmp_path: Path) -> Path:
    for folder in ("images/val", "labels/val"):
        (tmp_path / folder).mkdir(parents=True)
    boxes = [
        (0, SQUARE * [4, 6] + [10, 10]),
        (0, SQUARE * [4, 6] + [100, 20]),
        (1, SQUARE * [4, 6] + [10, 100]),
    ]
    tags = {}
    for i in range(2):
        cv2.imwrite(str(tmp_path / "images" / "val" / f"{i:06d}.jpg"), np.zeros((200, 200, 3), np.uint8))
        lines = [" ".join([str(k), *(f"{v / 200:.6f}" for v in c.ravel())]) for k, c in boxes]
        (tmp_path / "labels" / "val" / f"{i:06d}.txt").write_text("\n".join(lines) + "\n")
        tags[f"val/{i:06d}"] = [["trump"], ["hand"], []]
    (tmp_path / "tags.json").write_text(json.dumps(tags))
    return tmp_path


def test_a_perfect_detector_scores_one(rendered: Path) -> None:
    report = evaluate_rendered(_Oracle(rendered), rendered).to_dict()
    assert report["images"] == 2
    assert report["card"] == {"recall": 1.0, "precision": 1.0, "f1": 1.0, "truth": 4, "found": 4}
    assert report["trump"] == {"recall": 1.0, "truth": 2}
    assert report["hand"] == {"recall": 1.0, "truth": 2}
    assert report["back"]["recall"] == 1.0


def test_missed_faces_count_against_recall_only(rendered: Path) -> None:
    report = evaluate_rendered(_Oracle(rendered, drop_faces=True), rendered).to_dict()
    assert report["card"]["recall"] == 0.0 and report["card"]["found"] == 0
    assert report["trump"]["recall"] == 0.0 and report["back"]["precision"] == 1.0


class _Graded(_Oracle):
    """The oracle with falling confidences and a spurious face-up card, kept down to ``conf``."""

    def __init__(self, data: Path, conf: float) -> None:
        super().__init__(data)
        self.conf = conf

    def detect(self, frame: np.ndarray) -> list[Reading]:
        graded = [Reading(r.corners, r.face, 0.9 - 0.3 * i) for i, r in enumerate(super().detect(frame))]
        spurious = Reading(_shift(150), Face.UP, 0.4)
        return [r for r in [*graded, spurious] if r.detection_confidence >= self.conf]


def test_a_sweep_scores_each_threshold_as_a_run_at_that_threshold(rendered: Path) -> None:
    thresholds = (0.2, 0.35, 0.5, 0.7)
    swept = sweep_rendered(_Graded(rendered, min(thresholds)), rendered, thresholds)
    assert list(swept) == sorted(thresholds)
    for threshold in thresholds:
        alone = evaluate_rendered(_Graded(rendered, threshold), rendered)
        assert json.dumps(swept[threshold].to_dict()) == json.dumps(alone.to_dict())  # NaN-safe
    assert swept[0.2].to_dict()["card"]["recall"] == 1.0
    assert swept[0.7].to_dict()["card"]["recall"] == 0.5
    assert swept[0.2].to_dict()["card"]["precision"] < swept[0.5].to_dict()["card"]["precision"]
    assert swept[0.2].to_dict()["card"]["f1"] == pytest.approx(2 * 4 / (2 * 4 + 2 + 0))  # 2 made up


def test_face_up_cards_are_also_counted_by_how_much_of_them_is_in_view(rendered: Path) -> None:
    unknown = evaluate_rendered(_Graded(rendered, 0.7), rendered).to_dict()
    assert not {"whole", "mostly", "hidden"} & set(unknown)  # rendered before visible.json

    visible = {f"val/{i:06d}": [1.0, 0.4, 0.9] for i in range(2)}  # the second card drops at 0.7
    (rendered / "visible.json").write_text(json.dumps(visible))
    report = evaluate_rendered(_Graded(rendered, 0.7), rendered).to_dict()
    assert report["whole"] == {"recall": 1.0, "truth": 2}
    assert report["hidden"] == {"recall": 0.0, "truth": 2}
    assert "mostly" not in report  # backs are not face-up cards
    lines = list(format_report(report, None))
    assert "  face up, 25-60% in view: recall 0.0000 of 2" in lines
    assert "in_sight" not in unknown


def test_cards_mostly_hidden_neither_count_as_found_nor_make_a_box_false(rendered: Path) -> None:
    """Face-up cards 60% or more in view on their own: a box on a card less in view is not false,
    and missing such a card is not a miss; a box on nothing still is false."""
    visible = {f"val/{i:06d}": [1.0, 0.4, 0.9] for i in range(2)}
    (rendered / "visible.json").write_text(json.dumps(visible))
    everything = evaluate_rendered(_Graded(rendered, 0.3), rendered).to_dict()  # both faces and a false one
    assert everything["in_sight"] == {"recall": 1.0, "precision": 0.5, "f1": 0.6667, "truth": 2, "found": 4}
    assert everything["card"]["precision"] == pytest.approx(4 / 6, abs=1e-4)
    hidden_missed = evaluate_rendered(_Graded(rendered, 0.7), rendered).to_dict()  # the hidden ones drop
    assert hidden_missed["in_sight"]["recall"] == 1.0 and hidden_missed["card"]["recall"] == 0.5
    lines = list(format_report(hidden_missed, None))
    assert any(
        line.startswith("  face up 60% or more in view") and "recall 1.0000 of 2" in line for line in lines
    )


def _card(width: float, height: float, angle: float, centre: tuple[float, float]) -> np.ndarray:
    return cv2.boxPoints((centre, (width, height), angle)).astype(np.float32)


def test_a_card_is_sized_by_its_width_against_the_frame_whatever_its_turn() -> None:
    for angle in (0, 30, 90, 135):
        assert card_size(_card(60, 100, angle, (300, 300)), 1000) == "small"
        assert card_size(_card(100, 60, angle, (300, 300)), 1000) == "small"  # the short side
        assert card_size(_card(90, 140, angle, (300, 300)), 1000) == "medium"
        assert card_size(_card(130, 200, angle, (300, 300)), 1000) == "large"
    assert card_size(_card(60, 100, 0, (300, 300)), 700) == "medium"  # a smaller frame


def test_face_up_cards_are_also_counted_by_their_size_in_the_frame(rendered: Path) -> None:
    report = evaluate_rendered(_Graded(rendered, 0.7), rendered).to_dict()
    assert report["large"] == {"recall": 0.5, "truth": 4}  # 40 px wide in a 200 px frame
    assert "small" not in report and "medium" not in report
    lines = list(format_report(report, None))
    assert "  face up, 12% of the frame wide or more: recall 0.5000 of 4" in lines


def test_the_command_scores_with_the_confidence_and_overlap_given(
    rendered: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no_real = tmp_path / "no-real"
    command = ["dataset", "evaluate", "--data", str(rendered), "--real", str(no_real), "--json"]
    assert main([*command, "--conf", "0.5", "--iou", "0.6"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["conf"], result["iou"]) == (0.5, 0.6)
    assert result["rendered"]["card"]["truth"] == 4 and result["real"] is None
    assert main([*command, "--sweep", "0.3", "0.5", "--iou", "0.6"]) == 0
    swept = json.loads(capsys.readouterr().out)
    assert list(swept) == ["0.3", "0.5"] and all("f1" in row["card"] for row in swept.values())
    assert main([*command, "--iou", "1.5"]) == 2
    error = capsys.readouterr().err
    assert "--iou" in error and error.count("\n") == 1


def test_real_frames_compare_face_up_counts_with_the_hand_counted_range(tmp_path: Path) -> None:
    for name in ("a.jpg", "b.jpg"):
        cv2.imwrite(str(tmp_path / name), np.zeros((40, 30, 3), np.uint8))
    counts = {"a.jpg": {"face_up_min": 2, "face_up_max": 2}, "b.jpg": {"face_up_min": 1, "face_up_max": 1}}
    (tmp_path / "counts.json").write_text(json.dumps(counts))

    class TwoUp:
        def detect(self, frame: np.ndarray) -> list[Reading]:
            return [
                Reading(SQUARE, Face.UP, 0.9),
                Reading(SQUARE, Face.UP, 0.8),
                Reading(SQUARE, Face.DOWN, 0.7),
            ]

    report = evaluate_real(TwoUp(), tmp_path)
    assert report["in_range"] == 1 and report["total"] == 2
    assert report["frames"][0] == {
        "frame": "a.jpg",
        "face_up": 2,
        "backs": 1,
        "expected": [2, 2],
        "in_range": True,
    }
