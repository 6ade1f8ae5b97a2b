"""The int8 detector: quantizing the committed one (``companion train int8``), and what it finds
against the float model."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest
from identifier_cards import SMALL_DECK, card_corners, card_image, place_cards

from companion.cli import main
from companion.paths import models_dir
from companion.training.quantize import float_nodes
from companion.vision.detector import SHIPPED_MODEL, Detector
from companion.vision.readings import Reading

FLOAT = models_dir() / "detector.onnx"
pytestmark = pytest.mark.skipif(not FLOAT.is_file(), reason="no committed detector model")


def _table(seed: int) -> np.ndarray:
    """A frame of three to five made-up cards at turns and places drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    count = int(rng.integers(3, 6))
    cards = [card_image(SMALL_DECK[int(i)]) for i in rng.choice(len(SMALL_DECK), count, replace=False)]
    centres = [(160 + 240 * i + rng.uniform(-30, 30), rng.uniform(200, 520)) for i in range(count)]
    corners = [card_corners(c, rng.uniform(0, 180), height=rng.uniform(150, 220)) for c in centres]
    return place_cards(cards, corners, seed=seed)


@pytest.fixture(scope="module")
def int8_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("int8")
    scenes = root / "data" / "images" / "train"
    scenes.mkdir(parents=True)
    for seed in range(6):
        cv2.imwrite(str(scenes / f"{seed:06d}.jpg"), _table(seed))
    out = root / "detector-int8.onnx"
    assert main(["train", "int8", "--data", str(root / "data"), "--out", str(out), "--json"]) == 0
    return out


def _nearest(reading: Reading, readings: list[Reading]) -> Reading:
    return min(readings, key=lambda r: float(np.linalg.norm(np.subtract(r.center, reading.center))))


def _finds_what_the_float_model_finds(int8_detector: Detector) -> None:
    float_detector = Detector.from_file(FLOAT)
    for seed in (100, 101, 102):  # frames it was not calibrated on
        frame = _table(seed)
        expected = float_detector.detect(frame)
        found = int8_detector.detect(frame)
        assert expected and len(found) == len(expected)
        for reading in found:
            twin = _nearest(reading, expected)
            assert reading.face is twin.face
            np.testing.assert_allclose(reading.corners, twin.corners, atol=6)
            assert reading.detection_confidence == pytest.approx(twin.detection_confidence, abs=0.1)


def test_the_int8_model_finds_the_cards_the_float_model_finds(int8_model: Path) -> None:
    _finds_what_the_float_model_finds(Detector.from_file(int8_model))


@pytest.mark.skipif(not (models_dir() / SHIPPED_MODEL).is_file(), reason="no committed int8 detector")
def test_the_shipped_detector_is_the_int8_version_of_the_float_one() -> None:
    shipped = Detector.from_file()
    frame = _table(7)
    by_default = [r.corners for r in shipped.detect(frame)]
    int8 = [r.corners for r in Detector.from_file(models_dir() / SHIPPED_MODEL).detect(frame)]
    float_ = [r.corners for r in Detector.from_file(FLOAT).detect(frame)]
    assert np.array_equal(by_default, int8) and not np.array_equal(by_default, float_)
    _finds_what_the_float_model_finds(shipped)


def test_the_int8_model_is_a_third_of_the_size_and_decodes_in_float(int8_model: Path, capsys) -> None:
    assert int8_model.stat().st_size < FLOAT.stat().st_size / 3
    quantized = onnx.load(str(int8_model))
    dequantized_inputs = {n.input[0] for n in quantized.graph.node if n.op_type == "QuantizeLinear"}
    kept_float = set(float_nodes(onnx.load(str(FLOAT))))
    assert dequantized_inputs and kept_float
    head_convs = [n for n in quantized.graph.node if n.name in kept_float and n.op_type == "Conv"]
    assert head_convs and all(not i.endswith("DequantizeLinear_Output") for n in head_convs for i in n.input)
    assert {p.key: p.value for p in quantized.metadata_props}["imgsz"] == "[640, 640]"


def test_quantizing_without_scenes_or_model_is_a_clear_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "data" / "images" / "train").mkdir(parents=True)
    assert main(["train", "int8", "--data", str(tmp_path / "data")]) != 0
    assert "no training scenes in" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "data" / "images" / "train" / "a.jpg"), _table(0))
    missing = tmp_path / "none.onnx"
    args = ["train", "int8", "--data", str(tmp_path / "data"), "--model", str(missing)]
    assert main([*args, "--out", str(tmp_path / "out.onnx")]) != 0
    assert f"detector model not found: {missing}" in capsys.readouterr().err
    assert not (tmp_path / "out.onnx").exists()
