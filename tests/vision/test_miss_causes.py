"""Why the detector misses face-up cards: each cause told apart on made-up proposals, and the
command's counts agreeing with the evaluation on renders of a made-up deck."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from identifier_cards import SMALL_DECK, write_deck

from companion.cli import main
from companion.training.error_pictures import CLOSEST, MISSED, draw_miss
from companion.training.miss_causes import CAUSES, Miss, crowded, format_causes, frame_misses
from companion.vision.detector import DetectorSettings, Proposals, xywhr_to_corners

SETTINGS = DetectorSettings(conf=0.5, iou=0.6)


def _card(x: float, y: float) -> list[float]:
    return [x, y, 40, 60, 0]


def _proposals(*boxes: tuple[list[float], float, int]) -> Proposals:
    """Proposals in a frame the size of the network input, so input and frame pixels agree."""
    xywhr = np.array([b for b, _, _ in boxes], np.float32).reshape(-1, 5)
    scores = np.array([s for _, s, _ in boxes], np.float32)
    classes = np.array([k for _, _, k in boxes], np.int64)
    return Proposals(xywhr, scores, classes, xywhr_to_corners(xywhr))


def test_each_cause_of_a_miss_is_told_apart() -> None:
    truth = {
        "found": _card(50, 50),
        "no box": _card(150, 50),
        "back": _card(250, 50),
        "below": _card(350, 50),
        "stronger neighbour": _card(50, 200),
        "suppressed": _card(55, 200),  # its own box overlaps the neighbour's beyond 0.6
        "fitted better": _card(200, 200),
        "taken": _card(210, 200),  # the one box between them fits the other card better
    }
    proposals = _proposals(
        (truth["found"], 0.9, 0),
        (truth["back"], 0.9, 1),
        (truth["below"], 0.3, 0),
        (truth["stronger neighbour"], 0.9, 0),
        (truth["suppressed"], 0.8, 0),
        (_card(203, 200), 0.9, 0),
    )
    corners = list(xywhr_to_corners(np.array(list(truth.values()), np.float32)))
    misses = dict(zip(truth, frame_misses(proposals, corners, SETTINGS), strict=True))
    assert misses == {
        "found": None,
        "no box": Miss("no_box", None),
        "back": Miss("back", 1),  # with the proposal that came closest
        "below": Miss("below", 2),
        "stronger neighbour": None,
        "suppressed": Miss("suppressed", 4),
        "fitted better": None,
        "taken": Miss("taken", 5),
    }
    assert {m.cause for m in misses.values() if m} == set(CAUSES)
    lowered = frame_misses(proposals, corners, DetectorSettings(conf=0.25, iou=0.6))
    assert lowered[3] is None  # found once the threshold is under its score


def test_crowded_cards_are_those_another_card_overlaps_beyond_the_suppression_overlap() -> None:
    corners = list(xywhr_to_corners(np.array([_card(50, 50), _card(55, 50), _card(300, 50)], np.float32)))
    assert crowded(corners, 0.6) == [True, True, False]
    assert crowded(corners, 0.99) == [False, False, False]
    assert crowded(corners[:1], 0.6) == [False]


@pytest.fixture
def made_up_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Six validation renders of a made-up deck, which the shipped detector has never seen."""
    folder = tmp_path / "shared" / "decks" / "made-up"
    write_deck(folder, SMALL_DECK)
    (folder / "deck.json").write_text(json.dumps({"name": "made-up", "license": "test"}))
    back = np.full((310, 200, 3), (60, 40, 150), np.uint8)
    cv2.rectangle(back, (20, 20), (180, 290), (200, 200, 230), 6)
    cv2.imwrite(str(folder / "back.png"), back)
    monkeypatch.setenv("COMPANION_SHARED", str(tmp_path / "shared"))
    out = tmp_path / "data"
    render = ["dataset", "render", "--count", "9", "--out", str(out), "--max-side", "512"]
    assert main([*render, "--val-fraction", "0.67", "--json"]) == 0
    return out


def test_the_causes_account_for_every_card_the_evaluation_misses(
    made_up_renders: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no_real = tmp_path / "none"
    command = ["dataset", "evaluate", "--data", str(made_up_renders), "--real", str(no_real), "--json"]
    command += ["--conf", "0.9"]  # strict enough that the shipped detector misses some of the cards
    capsys.readouterr()
    assert main(command) == 0
    card = json.loads(capsys.readouterr().out)["rendered"]["card"]
    assert main([*command, "--causes"]) == 0
    report = json.loads(capsys.readouterr().out)

    found = round(card["recall"] * card["truth"])
    assert (report["cards"], report["found"]) == (card["truth"], found)
    assert 0 < found < card["truth"]
    missed = sum(n for row in report["causes"].values() for n in row.values())
    assert missed == card["truth"] - found
    assert {band for row in report["causes"].values() for band in row} <= {"whole", "mostly", "hidden"}
    assert found <= report["proposed"] <= report["cards"]  # a found card has a box of IoU 0.5
    assert report["crowded_missed"] <= min(report["crowded"], missed)
    lines = list(format_causes(report, SETTINGS))
    assert lines[0].endswith(f"{missed} of {card['truth']}")
    assert len(lines) == 2 + len(CAUSES) + 2

    assert main([*command, "--causes", "--pictures", str(tmp_path / "pictures")]) == 0
    sheet = cv2.imread(json.loads(capsys.readouterr().out)["pictures"])
    assert sheet is not None and sheet.shape[1] > 240


def test_a_missed_card_is_drawn_red_beside_the_box_that_came_closest() -> None:
    frame = np.full((300, 400, 3), 90, np.uint8)
    truth = xywhr_to_corners(np.array([_card(200, 150)], np.float32))[0]
    proposals = _proposals((_card(206, 150), 0.3, 0))

    def colours(picture: np.ndarray) -> set[tuple[int, int, int]]:
        return {tuple(int(v) for v in pixel) for pixel in picture.reshape(-1, 3)}

    below = draw_miss(frame, proposals, truth, Miss("below", 0))
    assert below.shape[0] < frame.shape[0] and below.shape[1] < frame.shape[1]  # the card's surroundings
    assert {MISSED, CLOSEST} <= colours(below)
    alone = draw_miss(frame, proposals, truth, Miss("no_box", None))
    assert MISSED in colours(alone) and CLOSEST not in colours(alone)


def test_causes_need_a_rendered_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", "evaluate", "--causes"]) == 2
    assert "--data" in capsys.readouterr().err
