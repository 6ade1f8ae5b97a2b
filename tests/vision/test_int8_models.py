"""The int8 models the product runs: quantizing the committed float ones (``companion train
int8``), and what the int8 ones find and read against the float ones."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest
from identifier_cards import SMALL_DECK, card_corners, card_image, place_cards

from companion.cli import main
from companion.paths import models_dir
from companion.training.quantize import detector_float_nodes, identifier_float_nodes
from companion.vision.detector import SHIPPED_MODEL as SHIPPED_DETECTOR
from companion.vision.detector import Detector
from companion.vision.identifier import SHIPPED_MODEL as SHIPPED_IDENTIFIER
from companion.vision.identifier import Identifier, rectify
from companion.vision.readings import Reading

FLOAT = {name: models_dir() / f"{name}.onnx" for name in ("detector", "identifier")}
pytestmark = pytest.mark.skipif(
    not all(path.is_file() for path in FLOAT.values()), reason="no committed float models"
)


def _table(seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """A frame of three to five made-up cards at turns and places drawn from ``seed``, and their
    corners."""
    rng = np.random.default_rng(seed)
    count = int(rng.integers(3, 6))
    cards = [card_image(SMALL_DECK[int(i)]) for i in rng.choice(len(SMALL_DECK), count, replace=False)]
    centres = [(160 + 240 * i + rng.uniform(-30, 30), rng.uniform(200, 520)) for i in range(count)]
    corners = [card_corners(c, rng.uniform(0, 180), height=rng.uniform(150, 220)) for c in centres]
    return place_cards(cards, corners, seed=seed), corners


def _write_dataset(root: Path, seeds: range) -> Path:
    """Frames of :func:`_table` with their labels (face up), laid out as a rendered dataset."""
    images, labels = root / "images" / "train", root / "labels" / "train"
    images.mkdir(parents=True)
    labels.mkdir(parents=True)
    for seed in seeds:
        frame, corners = _table(seed)
        cv2.imwrite(str(images / f"{seed:06d}.jpg"), frame)
        size = np.array([frame.shape[1], frame.shape[0]])
        lines = ["0 " + " ".join(f"{v:.6f}" for v in (quad / size).ravel()) for quad in corners]
        (labels / f"{seed:06d}.txt").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture(scope="module")
def quantized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("int8")
    data = _write_dataset(root / "data", range(6))
    models = root / "models"
    models.mkdir()
    for path in FLOAT.values():
        (models / path.name).symlink_to(path)
    assert main(["train", "int8", "--data", str(data), "--models", str(models), "--json"]) == 0
    return {name: models / f"{name}-int8.onnx" for name in FLOAT}


def _nearest(reading: Reading, readings: list[Reading]) -> Reading:
    return min(readings, key=lambda r: float(np.linalg.norm(np.subtract(r.center, reading.center))))


def _finds_what_the_float_detector_finds(int8_detector: Detector) -> None:
    float_detector = Detector.from_file(FLOAT["detector"])
    for seed in (100, 101, 102):  # frames it was not calibrated on
        frame, _ = _table(seed)
        expected = float_detector.detect(frame)
        found = int8_detector.detect(frame)
        assert expected and len(found) == len(expected)
        for reading in found:
            twin = _nearest(reading, expected)
            assert reading.face is twin.face
            np.testing.assert_allclose(reading.corners, twin.corners, atol=6)
            assert reading.detection_confidence == pytest.approx(twin.detection_confidence, abs=0.1)


def _reads_as_the_float_identifier(int8_identifier: Identifier) -> None:
    """Each made-up card's int8 embedding lies nearest the float embedding of the same card."""
    images = [card_image(card) for card in SMALL_DECK]
    corners = [card_corners((640, 360), 17 * i, height=200) for i in range(len(images))]
    crops = np.stack(
        [
            rectify(place_cards([im], [q], seed=i), q)
            for i, (im, q) in enumerate(zip(images, corners, strict=True))
        ]
    )
    ours, _ = int8_identifier.embed(crops)
    theirs, _ = Identifier.from_file(FLOAT["identifier"]).embed(crops)
    similarity = ours @ theirs.T
    assert np.array_equal(similarity.argmax(1), np.arange(len(crops)))
    assert np.diag(similarity).min() > 0.85  # 0.90-0.99 for the committed pair


def test_the_int8_detector_finds_the_cards_the_float_one_finds(quantized: dict[str, Path]) -> None:
    _finds_what_the_float_detector_finds(Detector.from_file(quantized["detector"]))


def test_the_int8_identifier_reads_cards_as_the_float_one(quantized: dict[str, Path]) -> None:
    _reads_as_the_float_identifier(Identifier.from_file(quantized["identifier"]))


def test_the_int8_models_are_smaller_and_keep_their_heads_in_float(quantized: dict[str, Path]) -> None:
    keep = {"detector": detector_float_nodes, "identifier": identifier_float_nodes}
    for name, path in quantized.items():
        assert path.stat().st_size < FLOAT[name].stat().st_size / 1.9
        model = onnx.load(str(path))
        assert any(node.op_type == "QuantizeLinear" for node in model.graph.node)
        kept = set(keep[name](onnx.load(str(FLOAT[name]))))
        head = [
            n for n in model.graph.node if n.name in kept and n.op_type in ("Conv", "Gemm")
        ]  # float weights
        assert head and not any(node.input[1].endswith("DequantizeLinear_Output") for node in head)
    assert {p.key: p.value for p in onnx.load(str(quantized["detector"])).metadata_props}[
        "imgsz"
    ] == "[640, 640]"


@pytest.mark.skipif(
    not (models_dir() / SHIPPED_DETECTOR).is_file() or not (models_dir() / SHIPPED_IDENTIFIER).is_file(),
    reason="no committed int8 models",
)
def test_the_shipped_models_are_the_int8_versions_of_the_float_ones() -> None:
    frame, _ = _table(7)
    by_default = [r.corners for r in Detector.from_file().detect(frame)]
    int8 = [r.corners for r in Detector.from_file(models_dir() / SHIPPED_DETECTOR).detect(frame)]
    float_ = [r.corners for r in Detector.from_file(FLOAT["detector"]).detect(frame)]
    assert np.array_equal(by_default, int8) and not np.array_equal(by_default, float_)
    _finds_what_the_float_detector_finds(Detector.from_file())
    _reads_as_the_float_identifier(Identifier.from_file())


def test_quantizing_without_scenes_or_models_is_a_clear_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "data" / "images" / "train").mkdir(parents=True)
    assert main(["train", "int8", "--data", str(tmp_path / "data")]) != 0
    assert "no training scenes in" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "data" / "images" / "train" / "a.jpg"), _table(0)[0])
    (tmp_path / "models").mkdir()
    assert (
        main(["train", "int8", "--data", str(tmp_path / "data"), "--models", str(tmp_path / "models")]) != 0
    )
    assert f"no detector.onnx or identifier.onnx in {tmp_path / 'models'}" in capsys.readouterr().err
    (tmp_path / "models" / "identifier.onnx").symlink_to(FLOAT["identifier"])
    assert (
        main(["train", "int8", "--data", str(tmp_path / "data"), "--models", str(tmp_path / "models")]) != 0
    )
    assert "nothing in the calibration scenes to calibrate identifier.onnx on" in capsys.readouterr().err
    assert not (tmp_path / "models" / "identifier-int8.onnx").exists()


def test_the_command_says_what_it_wrote(quantized: dict[str, Path], tmp_path: Path, capsys) -> None:
    data = _write_dataset(tmp_path / "data", range(1))
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "identifier.onnx").symlink_to(FLOAT["identifier"])
    assert main(["train", "int8", "--data", str(data), "--models", str(tmp_path / "models"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result == {"scenes": 1, "identifier": str(tmp_path / "models" / "identifier-int8.onnx")}
