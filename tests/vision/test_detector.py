"""The run-time card detector: decoding oriented boxes, rotated NMS, letterboxing, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from companion.errors import MalformedInput, MissingResource, RecognitionFailure
from companion.paths import models_dir
from companion.vision.detector import (
    CARD_INPUT_PX,
    SHIPPED_MODEL,
    Detector,
    DetectorSettings,
    decode,
    letterbox,
    probiou,
    rotated_nms,
    xywhr_to_corners,
)
from companion.vision.readings import Face


def _output(
    rows: list[tuple[float, float, float, float, float, float, float]], anchors: int = 50
) -> np.ndarray:
    """A fake network output (1, 7, anchors): cx, cy, w, h, score card, score back, angle."""
    out = np.zeros((1, 7, anchors), np.float32)
    for i, row in enumerate(rows):
        out[0, :, i] = row
    return out


def test_corners_start_on_a_short_edge_whatever_the_box_orientation() -> None:
    boxes = np.array([[50, 50, 20, 40, 0.3], [50, 50, 40, 20, 0.3]], np.float32)
    for corners in xywhr_to_corners(boxes):
        edges = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        assert edges[0] == pytest.approx(20, abs=1e-3) and edges[1] == pytest.approx(40, abs=1e-3)
        assert corners.mean(0) == pytest.approx([50, 50], abs=1e-3)


def test_probiou_is_one_for_the_same_box_and_zero_far_away() -> None:
    a = np.array([[10, 10, 8, 12, 0.2]], np.float32)
    b = np.array([[10, 10, 8, 12, 0.2], [200, 200, 8, 12, 0.2], [12, 10, 8, 12, 0.2]], np.float32)
    iou = probiou(a, b)[0]
    assert iou[0] == pytest.approx(1, abs=1e-3)
    assert iou[1] == pytest.approx(0, abs=1e-3)
    assert 0.3 < iou[2] < 1


def test_rotated_nms_keeps_the_best_of_each_overlapping_group() -> None:
    boxes = np.array([[10, 10, 8, 12, 0], [11, 10, 8, 12, 0.05], [60, 60, 8, 12, 1.0]], np.float32)
    kept = rotated_nms(boxes, np.array([0.6, 0.9, 0.5]), iou=0.5)
    assert kept.tolist() == [1, 2]


def test_decode_filters_by_confidence_and_picks_the_class() -> None:
    out = _output(
        [
            (100, 100, 30, 50, 0.9, 0.1, 0.0),
            (300, 100, 30, 50, 0.2, 0.8, 0.5),
            (500, 100, 30, 50, 0.1, 0.2, 0.0),
        ]
    )
    boxes, scores, classes = decode(out, DetectorSettings(conf=0.35))
    assert classes.tolist() == [0, 1]
    assert scores == pytest.approx([0.9, 0.8])
    assert boxes[:, 0].tolist() == [100, 300]
    with pytest.raises(MalformedInput, match=r"\(7, 50\)"):
        decode(out[0], DetectorSettings())


def test_letterbox_maps_back_to_frame_pixels() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    tensor, box = letterbox(frame, 320)
    assert tensor.shape == (1, 3, 320, 320) and tensor.dtype == np.float32
    assert box.scale == pytest.approx(0.5) and box.pad == (0, 40)
    assert box.to_frame(np.array([[0.0, 40.0], [320.0, 280.0]])).tolist() == [[0, 0], [640, 480]]


def test_letterbox_for_dynamic_models_pads_only_to_the_stride() -> None:
    tensor, box = letterbox(np.zeros((1920, 1080, 3), np.uint8), 640, square=False)
    assert tensor.shape == (1, 3, 640, 384)  # 1080 -> 360, padded to 384
    assert box.pad == (12, 0)


def test_letterbox_within_a_region_keeps_the_window_of_the_input_on_the_stride_grid() -> None:
    frame = np.random.default_rng(0).integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    whole, _ = letterbox(frame, 640, square=False)  # 640 x 360, padded by 12 above and below
    tensor, box = letterbox(frame, 640, square=False, within=(400, 200, 800, 500))
    assert tensor.shape == (1, 3, 192, 224)  # input x 200..400 -> 192..416, y 112..262 -> 96..288
    assert box.pad == (-192, -84)
    np.testing.assert_array_equal(tensor, whole[:, :, 96:288, 192:416])
    assert box.to_frame(np.array([[8.0, 16.0]])).tolist() == [[400.0, 200.0]]


class _FakeSession:
    """Stands in for an ONNX Runtime session: one input of shape (1, 3, 320, 320), a fixed output."""

    class _Input:
        name = "images"
        shape = (1, 3, 320, 320)

    def __init__(self, output: np.ndarray) -> None:
        self.output = output
        self.seen: list[np.ndarray] = []

    def get_inputs(self) -> list[_Input]:
        return [self._Input()]

    def run(self, _names, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.seen.append(feeds["images"])
        return [self.output]


def test_detect_returns_readings_in_frame_coordinates() -> None:
    out = _output([(160, 160, 20, 40, 0.95, 0.02, 0.0), (100, 200, 20, 40, 0.1, 0.7, np.pi / 2)])
    detector = Detector(_FakeSession(out))
    readings = detector.detect(np.zeros((480, 640, 3), np.uint8))
    assert [r.face for r in readings] == [Face.UP, Face.DOWN]
    assert readings[0].detection_confidence == pytest.approx(0.95)
    assert readings[0].center == pytest.approx((320, 240), abs=1e-3)  # (160 - 0) / 0.5, (160 - 40) / 0.5
    assert readings[0].corners[0].tolist() == pytest.approx([300, 200], abs=1e-3)
    assert readings[0].card is None


def test_detect_within_a_region_maps_back_to_frame_pixels() -> None:
    session = _FakeSession(_output([(64, 64, 20, 40, 0.95, 0.02, 0.0)]))
    readings = Detector(session).detect(np.zeros((480, 640, 3), np.uint8), within=(100, 50, 300, 250))
    window = session.seen[0]  # input x 50..150 -> 32..160, y 65..165 -> 64..192, at the top left
    assert window.shape == (1, 3, 320, 320)
    assert np.all(window[0, :, :128, :128] == 0) and np.all(window[0, :, 128:] == pytest.approx(114 / 255))
    assert readings[0].center == pytest.approx((192, 176), abs=1e-3)  # ((64, 64) + (32, 24)) / 0.5
    with pytest.raises(MalformedInput, match="no pixel"):
        Detector(session).detect(np.zeros((480, 640, 3), np.uint8), within=(700, 0, 800, 100))


class _DynamicSession(_FakeSession):
    """A model exported with a dynamic input, trained at 640."""

    class _Input:
        name = "images"
        shape = (1, 3, "height", "width")

    class _Meta:
        custom_metadata_map: ClassVar[dict[str, str]] = {"imgsz": "[640, 640]"}

    def get_inputs(self) -> list[_Input]:  # type: ignore[override]
        return [self._Input()]

    def get_modelmeta(self) -> _Meta:
        return self._Meta()


def test_a_camera_that_sees_cards_large_gives_the_network_a_smaller_input() -> None:
    """A 640x480 webcam sees a card's short side at 40 px: the input is shrunk to give it 32."""
    session = _DynamicSession(_output([(256, 192, 20, 40, 0.95, 0.02, 0.0)]))
    detector = Detector(session)
    frame = np.zeros((480, 640, 3), np.uint8)
    (large,) = detector.detect(frame, card_px=40.0)
    assert session.seen[-1].shape == (1, 3, 384, 512)
    assert large.center == pytest.approx((320, 240), abs=1e-3)
    detector.detect(frame, card_px=CARD_INPUT_PX)  # already as small as that: as without a size
    detector.detect(frame)
    assert session.seen[-2].shape == session.seen[-1].shape == (1, 3, 480, 640)


@pytest.mark.parametrize("frame", [np.zeros((10, 10), np.uint8), np.zeros((0, 5, 3), np.uint8), "frame.jpg"])
def test_detect_rejects_what_is_not_a_bgr_image(frame) -> None:
    detector = Detector(_FakeSession(_output([])))
    with pytest.raises(MalformedInput, match="BGR image"):
        detector.detect(frame)


def test_missing_or_broken_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MissingResource, match="not found"):
        Detector.from_file(tmp_path / "nope.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(RecognitionFailure, match=r"cannot load detector model .*broken\.onnx"):
        Detector.from_file(broken)


FLOAT = models_dir() / "detector.onnx"
COMMITTED = [p for p in (models_dir() / SHIPPED_MODEL, FLOAT) if p.is_file()]


@pytest.mark.skipif(not COMMITTED, reason="no committed detector model")
@pytest.mark.parametrize("model", COMMITTED, ids=lambda p: p.name)
def test_committed_model_gives_well_formed_readings(model: Path) -> None:
    detector = Detector.from_file(model, DetectorSettings(conf=0.01))
    frame = np.random.default_rng(0).integers(0, 255, (360, 640, 3), dtype=np.uint8)
    readings = detector.detect(frame)
    assert len(readings) <= DetectorSettings().max_det
    confidences = [r.detection_confidence for r in readings]
    assert confidences == sorted(confidences, reverse=True)
    assert all(c >= 0.01 for c in confidences)
    assert detector.imgsz % 32 == 0


@pytest.mark.skipif(not COMMITTED, reason="no committed detector model")
@pytest.mark.parametrize("model", COMMITTED, ids=lambda p: p.name)
def test_the_committed_model_finds_the_cards_of_a_region_as_in_the_whole_frame(model: Path) -> None:
    """The int8 model's rounding moves a corner up to about 4 px of a 180 px card, the float's 2.5."""
    from identifier_cards import SMALL_DECK, card_corners, card_image, place_cards

    cards = [card_image(c) for c in SMALL_DECK[:3]]
    frame = place_cards(cards, [card_corners((300 + 300 * i, 360), 25 * i) for i in range(3)])
    detector = Detector.from_file(model)
    whole = detector.detect(frame)
    part = detector.detect(frame, within=(150, 150, 750, 600))  # the first two cards, not the third
    assert len(whole) == 3 and len(part) == 2
    for a in part:
        b = min(whole, key=lambda r: np.linalg.norm(np.subtract(r.center, a.center)))
        assert a.face is b.face and a.center[0] < 750
        np.testing.assert_allclose(a.corners, b.corners, atol=2.5 if model == FLOAT else 4.5)


@pytest.mark.skipif(not FLOAT.is_file(), reason="no committed detector model")
def test_openvino_reads_the_committed_model_as_onnx_runtime_does() -> None:
    """The speed comparison runs the same float model on OpenVINO (``pip install -e '.[speed]'``)."""
    pytest.importorskip("openvino")
    from identifier_cards import SMALL_DECK, card_corners, card_image, place_cards

    from companion.training.speed import OpenVinoSession

    cards = [card_image(c) for c in SMALL_DECK[:3]]
    frame = place_cards(cards, [card_corners((300 + 300 * i, 360), 25 * i) for i in range(3)])
    settings = DetectorSettings(conf=0.05)
    ours = Detector.from_file(FLOAT, settings).detect(frame)
    theirs = Detector(OpenVinoSession(FLOAT, threads=1), settings).detect(frame)
    assert ours and len(theirs) == len(ours)
    for a, b in zip(ours, theirs, strict=True):
        assert a.face is b.face
        assert b.detection_confidence == pytest.approx(a.detection_confidence, abs=1e-3)
        np.testing.assert_allclose(b.corners, a.corners, atol=0.5)
