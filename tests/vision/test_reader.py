"""Frame -> readings, and ``companion detect``, with a stand-in detector that knows the corners, and
with the shipped models on a frame of the bundled sample game."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from identifier_cards import SMALL_DECK, card_corners, card_image, place_cards, write_deck

from companion.cli import main
from companion.pipeline.vision import STRANGE
from companion.vision import reader as reader_module
from companion.vision.decks import teach
from companion.vision.identifier import Identifier
from companion.vision.reader import CardReader, annotate
from companion.vision.readings import Face, Reading

cv2.setNumThreads(1)

CARDS = SMALL_DECK[2:6]
CORNERS = [card_corners((200 + 280 * i, 330 + 40 * i), 70 * i - 20, height=230) for i in range(4)]


class KnownCorners:
    """A detector that finds the cards where the test put them; the last one lies face down."""

    def detect(self, frame: np.ndarray) -> list[Reading]:
        return [Reading(q, Face.UP if i < 3 else Face.DOWN, 0.9) for i, q in enumerate(CORNERS)]


@pytest.fixture(scope="module")
def taught_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with a taught made-up deck, and a frame of four of its cards."""
    root = tmp_path_factory.mktemp("reader")
    write_deck(root / "cards", SMALL_DECK)
    teach("made-up", root / "cards", Identifier.from_file(), into=root / "data" / "decks")
    cv2.imwrite(str(root / "frame.png"), place_cards([card_image(c) for c in CARDS], CORNERS))
    return root


@pytest.fixture
def scene(taught_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The taught data folder in use, and the stand-in detector."""
    monkeypatch.setenv("COMPANION_DATA", str(taught_data / "data"))
    monkeypatch.setattr(reader_module, "load_detector", lambda path=None, threads=1: KnownCorners())
    return taught_data


def test_read_names_every_face_up_card(scene: Path) -> None:
    reader = CardReader.load("made-up")
    readings = reader.read(cv2.imread(str(scene / "frame.png")))
    assert [r.card for r in readings] == [*CARDS[:3], None]
    assert set(reader.timings) == {"detect_ms", "identify_ms"}
    drawn = annotate(cv2.imread(str(scene / "frame.png")), readings)
    assert drawn.shape == (720, 1280, 3)
    assert np.any(drawn != cv2.imread(str(scene / "frame.png")))


def test_detect_prints_json_and_draws(scene: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = scene / "annotated.jpg"
    assert main(["detect", str(scene / "frame.png"), "--deck", "made-up", "--json", "--out", str(out)]) == 0
    readings = json.loads(capsys.readouterr().out)
    assert [r["card"] for r in readings] == [*(str(c) for c in CARDS[:3]), None]
    for r in readings:
        assert {"card", "confidence", "face", "corners", "alternatives", "strangeness"} <= set(r)
        assert len(r["corners"]) == 4 and all(len(p) == 2 for p in r["corners"])
    assert readings[0]["face"] == "up" and readings[3]["face"] == "down"
    assert 0 < readings[0]["strangeness"] < STRANGE and readings[3]["strangeness"] == 0
    assert readings[0]["alternatives"][0] == [readings[0]["card"], readings[0]["confidence"]]
    assert cv2.imread(str(out)).shape == (720, 1280, 3)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--deck", "no-such-deck"], "unknown deck 'no-such-deck'"),
        (["--deck", "made-up", "--identifier", "absent.onnx"], "identifier model not found"),
    ],
)
def test_detect_errors_are_one_line(
    scene: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["detect", str(scene / "frame.png"), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_detect_unreadable_image(scene: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (scene / "broken.jpg").write_bytes(b"garbage")
    assert main(["detect", str(scene / "broken.jpg"), "--deck", "made-up"]) == 2
    err = capsys.readouterr().err
    assert "cannot read image" in err and err.count("\n") == 1


def test_missing_detector_model(tmp_path: Path) -> None:
    from companion.errors import MissingResource

    with pytest.raises(MissingResource, match="detector model not found"):
        reader_module.load_detector(tmp_path / "absent.onnx")


def test_the_printed_corner_markers_are_no_cards() -> None:
    """A reading centred on one of the table-corner tiles is dropped; one in the middle is kept."""
    from companion.table.markers import draw_markers, find_markers, off_markers

    corners = np.array([[240, 60], [1040, 60], [1100, 680], [180, 680]], np.float64)
    frame = draw_markers(np.full((720, 1280, 3), (40, 110, 50), np.uint8), corners, (900.0, 900.0))
    markers = find_markers(frame)
    assert len(markers) == 4

    def at(x: float, y: float) -> Reading:
        return Reading(card_corners((x, y), 0, height=90), Face.UP, 0.9)

    on_tile = [at(*quad.mean(axis=0)) for quad in markers.values()]
    middle = at(640, 360)
    assert off_markers([*on_tile, middle], markers) == [middle]


def test_detect_reports_no_card_on_the_corner_markers_of_a_rendered_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shipped models on a frame of the bundled sample game: its cards are reported, its corner
    tiles are not (the detector alone takes some of them for cards)."""
    from companion.paths import PROJECT_ROOT
    from companion.table.markers import find_markers

    video = cv2.VideoCapture(
        str(PROJECT_ROOT / "datasets" / "samples" / "brisca-2-fournier-1878" / "game.mp4")
    )
    video.set(cv2.CAP_PROP_POS_FRAMES, 300)
    ok, frame = video.read()
    assert ok
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    capsys.readouterr()
    assert main(["detect", str(tmp_path / "frame.png"), "--deck", "fournier-1878", "--json"]) == 0
    readings = json.loads(capsys.readouterr().out)
    assert readings
    centres = [np.mean(r["corners"], axis=0) for r in readings]
    for quad in find_markers(frame).values():
        assert all(np.linalg.norm(c - quad.mean(axis=0)) > 50 for c in centres)
