"""The card detector at run time: the exported YOLO-OBB model through ONNX Runtime.

No torch or ultralytics here: letterboxing, decoding the oriented boxes and rotated
non-maximum suppression are done with numpy, so users need only ``onnxruntime``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import MalformedInput
from companion.paths import models_dir
from companion.vision.readings import Face, Reading
from companion.vision.runtime import load_session

#: A part of a frame: x0, y0, x1, y1 in frame px (x1, y1 excluded).
Region = tuple[int, int, int, int]

SHIPPED_MODEL = "detector-int8.onnx"
"""The detector run by default, in ``models/``: the int8 version of ``detector.onnx`` (the trained
float model, which training goes on from): detection 1.4 to 2.4 times faster on a 2-core CPU,
and as right on rendered games (models/MODEL_CARD.md)."""

FACES = (Face.UP, Face.DOWN)
"""Detector class index -> face: 0 a face-up card, 1 a card back."""

CARD_INPUT_PX = 32.0
"""The most input px a card's short side is given where its size in the frame is known: in the
rendered games the detector is measured on (a 640 mm table filling the height of a 1280x720 or
1920x1080 frame) it spans 29.5-30.7; a camera that sees the table larger, a 640x480 webcam's 40,
costs no more."""


@dataclass(frozen=True)
class DetectorSettings:
    """``conf``: lowest confidence kept; ``iou``: overlap (probabilistic IoU) above which the
    weaker of two boxes is dropped; ``max_det``: most cards reported per frame. The defaults are
    the pair with the best face-up F1 on two tuning sets together (models/MODEL_CARD.md)."""

    conf: float = 0.55
    iou: float = 0.75
    max_det: int = 100


@dataclass(frozen=True)
class Letterbox:
    """How a frame was fitted into the square network input: ``scale`` then ``pad`` (x, y)."""

    scale: float
    pad: tuple[float, float]

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        return (points - np.asarray(self.pad, np.float32)) / self.scale

    def to_input(self, points: np.ndarray) -> np.ndarray:
        return points * self.scale + np.asarray(self.pad, np.float32)


@dataclass(frozen=True)
class Proposals:
    """The network's boxes before suppression: ``boxes`` (n, 5) in input pixels (what suppression
    compares), ``scores`` and ``classes`` (n,), and ``corners`` (n, 4, 2) in frame pixels."""

    boxes: np.ndarray
    scores: np.ndarray
    classes: np.ndarray
    corners: np.ndarray


def letterbox(
    frame: np.ndarray, size: int, square: bool = True, stride: int = 32, within: Region | None = None
) -> tuple[np.ndarray, Letterbox]:
    """Fit a BGR frame into the network input as a float32 NCHW RGB tensor in [0, 1].

    The longer side becomes ``size``; the shorter is padded (grey) to ``size`` when ``square``,
    else only up to a multiple of ``stride`` (models exported with dynamic shapes). ``within``
    (x0, y0, x1, y1, frame px) keeps only the window of that input, on the stride's grid, that
    holds this part of the frame: the network sees there what it sees in the whole frame, for the
    cost of the window (a square input keeps its size, the window at its top left).
    """
    h, w = frame.shape[:2]
    scale = min(size / h, size / w)
    nw, nh = round(w * scale), round(h * scale)
    out_w, out_h = (size, size) if square else (-(-nw // stride) * stride, -(-nh // stride) * stride)
    px, py = (out_w - nw) / 2, (out_h - nh) / 2
    canvas = np.full((out_h, out_w, 3), 114, np.uint8)
    top, left = round(py - 0.1), round(px - 0.1)
    canvas[top : top + nh, left : left + nw] = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_LINEAR)
    box = Letterbox(scale, (left, top))
    if within is not None:
        canvas, box = _window(canvas, box, _clipped(within, frame.shape), stride, square)
    tensor = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(tensor), box


def _window(
    canvas: np.ndarray, box: Letterbox, region: Region, stride: int, square: bool
) -> tuple[np.ndarray, Letterbox]:
    """The part of a network input on the ``stride`` grid that holds ``region`` of the frame."""
    (x0, y0), (x1, y1) = box.to_input(np.array(region, np.float64).reshape(2, 2))
    left, top = int(x0 // stride) * stride, int(y0 // stride) * stride
    right = min(canvas.shape[1], -(-int(np.ceil(x1)) // stride) * stride)
    bottom = min(canvas.shape[0], -(-int(np.ceil(y1)) // stride) * stride)
    window = canvas[top:bottom, left:right]
    if square:
        window = np.pad(
            window,
            ((0, top + canvas.shape[0] - bottom), (0, left + canvas.shape[1] - right), (0, 0)),
            constant_values=114,
        )
    return window, Letterbox(box.scale, (box.pad[0] - left, box.pad[1] - top))


def _clipped(region: Region, shape: tuple[int, ...]) -> Region:
    """``region`` cut to a frame of ``shape``; a region holding no pixel of it is an error."""
    x0, y0 = max(0, int(region[0])), max(0, int(region[1]))
    x1, y1 = min(shape[1], int(region[2])), min(shape[0], int(region[3]))
    if x1 <= x0 or y1 <= y0:
        raise MalformedInput(f"region {tuple(region)} holds no pixel of a {shape[1]}x{shape[0]} frame")
    return x0, y0, x1, y1


def xywhr_to_corners(boxes: np.ndarray) -> np.ndarray:
    """(n, 5) rotated boxes -> (n, 4, 2) corners, each starting at a corner of a short edge."""
    cx, cy, w, h, r = boxes.T
    cos, sin = np.cos(r), np.sin(r)
    vw = np.stack([cos * w / 2, sin * w / 2], -1)
    vh = np.stack([-sin * h / 2, cos * h / 2], -1)
    c = np.stack([cx, cy], -1)
    corners = np.stack([c - vw - vh, c + vw - vh, c + vw + vh, c - vw + vh], 1)
    long_first = w > h  # the first edge runs along w: start one corner later so it is the short one
    corners[long_first] = np.roll(corners[long_first], -1, axis=1)
    return corners.astype(np.float32)


def _covariance(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w2, h2 = boxes[:, 2] ** 2 / 12, boxes[:, 3] ** 2 / 12
    cos, sin = np.cos(boxes[:, 4]), np.sin(boxes[:, 4])
    return w2 * cos**2 + h2 * sin**2, w2 * sin**2 + h2 * cos**2, (w2 - h2) * cos * sin


def probiou(a: np.ndarray, b: np.ndarray, eps: float = 1e-7) -> np.ndarray:
    """Probabilistic IoU (Gaussian overlap, as ultralytics uses for OBB NMS) of (n, 5) x (m, 5) boxes."""
    a1, b1, c1 = (v[:, None] for v in _covariance(a))
    a2, b2, c2 = (v[None, :] for v in _covariance(b))
    dx = a[:, None, 0] - b[None, :, 0]
    dy = a[:, None, 1] - b[None, :, 1]
    denom = (a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps
    t1 = ((a1 + a2) * dy**2 + (b1 + b2) * dx**2) / denom * 0.25
    t2 = ((c1 + c2) * -dx * dy) / denom * 0.5
    det1 = np.clip(a1 * b1 - c1**2, 0, None)
    det2 = np.clip(a2 * b2 - c2**2, 0, None)
    t3 = 0.5 * np.log(denom / (4 * np.sqrt(det1 * det2) + eps) + eps)
    bd = np.clip(t1 + t2 + t3, eps, 100.0)
    return np.asarray(1 - np.sqrt(1 - np.exp(-bd) + eps))


def rotated_nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy NMS on probabilistic IoU, best first."""
    order = np.argsort(-scores, kind="stable")
    boxes = boxes[order]
    overlap = np.triu(probiou(boxes, boxes), k=1)
    keep = np.ones(len(order), bool)
    for i in range(len(order)):
        if keep[i]:
            keep[i + 1 :] &= overlap[i, i + 1 :] < iou
    return order[keep]


def propose(output: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Network output (1, 4 + classes + 1, anchors) -> the boxes (n, 5) scoring ``conf`` or more,
    their best class score (n,) and class (n,), before non-maximum suppression.

    Each anchor holds centre x, y, width, height (input pixels), one score per class and the angle.
    """
    if output.ndim != 3 or output.shape[0] != 1 or output.shape[1] < 6:
        raise MalformedInput(f"detector output must have shape (1, 4+classes+1, anchors), got {output.shape}")
    pred = output[0].T
    class_scores = pred[:, 4:-1]
    classes = class_scores.argmax(1)
    scores = class_scores.max(1)
    mask = scores >= conf
    boxes = np.concatenate([pred[mask, :4], pred[mask, -1:]], 1)
    return boxes, scores[mask], classes[mask]


def choose(boxes: np.ndarray, scores: np.ndarray, settings: DetectorSettings) -> np.ndarray:
    """Indices of the boxes ``settings`` keep, best first: scoring ``conf`` or more, not overlapping
    a stronger one beyond ``iou`` (one card, one class), at most ``max_det``."""
    strong = np.flatnonzero(scores >= settings.conf)
    return np.asarray(strong[rotated_nms(boxes[strong], scores[strong], settings.iou)][: settings.max_det])


def decode(output: np.ndarray, settings: DetectorSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Network output -> the boxes (n, 5), scores (n,) and classes (n,) kept by ``settings``."""
    boxes, scores, classes = propose(output, settings.conf)
    keep = choose(boxes, scores, settings)
    return boxes[keep], scores[keep], classes[keep]


def metadata_imgsz(metadata: dict[str, str]) -> int:
    """The training size ultralytics writes into an exported model's metadata (``imgsz: [640, 640]``)."""
    return max(int(v) for v in metadata.get("imgsz", "[640, 640]").strip("[]").split(","))


class Detector:
    """Finds cards (face up or down) in BGR frames with an exported YOLO-OBB ONNX model."""

    def __init__(self, session: Any, settings: DetectorSettings = DetectorSettings()) -> None:
        self.session = session
        self.settings = settings
        model_input = session.get_inputs()[0]
        self.input_name = model_input.name
        height = model_input.shape[2]
        self.square = isinstance(height, int)  # a dynamic input takes frames padded only to stride
        self.imgsz = height if self.square else metadata_imgsz(session.get_modelmeta().custom_metadata_map)

    @classmethod
    def from_file(
        cls, path: Path | None = None, settings: DetectorSettings | None = None, threads: int = 1
    ) -> Detector:
        """Load ``path`` (default the shipped :data:`SHIPPED_MODEL`); ``threads`` for ONNX Runtime."""
        path = Path(path) if path is not None else models_dir() / SHIPPED_MODEL
        session = load_session(path, "detector", threads)
        return cls(session, settings or DetectorSettings())

    def detect(
        self, frame: np.ndarray, within: Region | None = None, card_px: float | None = None
    ) -> list[Reading]:
        """The cards in a BGR frame, most confident first; identity is left to the identifier.

        ``within`` (x0, y0, x1, y1, frame px) looks only at the window of the network input that
        holds that part of the frame (:func:`letterbox`): a card there is found as in the whole
        frame, for the cost of the window (the live pipeline looks only where a card counts).
        ``card_px``, a card's short side in frame px where the table is calibrated, shrinks the
        input of a model with a dynamic one so that it spans at most :data:`CARD_INPUT_PX`."""
        output, box = self._network(frame, within, card_px)
        boxes, scores, classes = decode(output, self.settings)
        corners = box.to_frame(xywhr_to_corners(boxes))
        return [
            Reading(corners=c, face=FACES[int(k)], detection_confidence=float(s))
            for c, s, k in zip(corners, scores, classes, strict=True)
        ]

    def proposals(self, frame: np.ndarray, conf: float) -> Proposals:
        """Every box the network scores at ``conf`` or more in a BGR frame, before suppression."""
        output, box = self._network(frame)
        boxes, scores, classes = propose(output, conf)
        return Proposals(boxes, scores, classes, box.to_frame(xywhr_to_corners(boxes)))

    def _network(
        self, frame: np.ndarray, within: Region | None = None, card_px: float | None = None
    ) -> tuple[np.ndarray, Letterbox]:
        """The network's output for a BGR frame (or its part ``within``), and how frame px map into
        its input."""
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            shape = getattr(frame, "shape", type(frame).__name__)
            raise MalformedInput(f"detector needs a BGR image (h, w, 3), got {shape}")
        size = self.imgsz
        if card_px is not None and not self.square:
            shown = card_px * self.imgsz / max(frame.shape[:2])
            size = round(self.imgsz * min(1.0, CARD_INPUT_PX / shown))
        tensor, box = letterbox(frame, size, self.square, within=within)
        return self.session.run(None, {self.input_name: tensor})[0], box
