"""The int8 models the product runs: ONNX Runtime's static quantization of the exported detector
and identifier, their activation ranges measured on rendered training scenes.

The detector's backbone and neck, and the hidden convolutions of its head, run in int8; the
head's last convolutions and its decoding (box distributions, angles, class scores) stay in
float, where rounding would move the corners and the confidences. The identifier's backbone runs
in int8; its head (the projection to the embedding, its normalisation, the logits) stays in
float, where the distances to a deck's references are measured. Weights are quantized per
channel to 7 bits (``reduce_range``): on CPUs without VNNI, ONNX Runtime's int8 products of
8-bit weights can saturate, so 7 bits give the same results on every x86 CPU.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
import onnx

from companion.datasets.writer import label_path
from companion.errors import MalformedInput, MissingResource
from companion.training.evaluation import read_labels
from companion.vision.detector import letterbox, metadata_imgsz
from companion.vision.identifier import cuts, to_blob

Inputs = Iterable[dict[str, np.ndarray]]
"""Network inputs by name, one run each, that calibration measures the activations on."""


def int8_beside(model: Path) -> Path:
    """Where the int8 version of the model at ``model`` goes: ``detector.onnx`` ->
    ``detector-int8.onnx`` (the names the product runs by default)."""
    return model.with_name(f"{model.stem}-int8{model.suffix}")


def calibration_scenes(data: Path, count: int) -> list[Path]:
    """The first ``count`` training scenes of the rendered dataset at ``data``."""
    if count < 1:
        raise MalformedInput(f"calibration needs at least one scene, not {count}")
    scenes = sorted((data / "images" / "train").glob("*.jpg"))[:count]
    if not scenes:
        raise MalformedInput(f"no training scenes in {data / 'images' / 'train'}")
    return scenes


def _frames(scenes: Sequence[Path], what: str, progress: bool) -> Iterator[tuple[Path, np.ndarray]]:
    from tqdm import tqdm

    for path in tqdm(scenes, desc=f"calibrating the {what}", unit="img", disable=not progress):
        frame = cv2.imread(str(path))
        if frame is None:
            raise MalformedInput(f"cannot read calibration image {path}")
        yield path, frame


def detector_head(model: onnx.ModelProto) -> str:
    """The name prefix (``/model.N/``) of the ultralytics module that writes the detector's output."""
    output = model.graph.output[0].name
    writer = next(node for node in model.graph.node if output in node.output)
    parts = writer.name.split("/")
    if len(parts) < 3 or not parts[1].startswith("model."):
        raise MalformedInput(f"not an exported ultralytics detector: its output comes from {writer.name!r}")
    return f"/{parts[1]}/"


def detector_float_nodes(model: onnx.ModelProto) -> list[str]:
    """The detector's nodes left in float: all of the head but the convolutions of its hidden
    blocks (``.../cv2.0.0/conv/Conv``; the distribution-to-distance one, ``dfl/conv``, stays float)."""
    prefix = detector_head(model)

    def hidden(node: onnx.NodeProto) -> bool:
        return node.op_type == "Conv" and node.name.endswith("/conv/Conv") and "/dfl/" not in node.name

    return [node.name for node in model.graph.node if node.name.startswith(prefix) and not hidden(node)]


def identifier_float_nodes(model: onnx.ModelProto) -> list[str]:
    """The identifier's nodes left in float: its head (``/head/...``)."""
    nodes = [node.name for node in model.graph.node if node.name.startswith("/head/")]
    if not nodes:
        raise MalformedInput("not an exported card identifier: it has no /head/ nodes")
    return nodes


def detector_inputs(scenes: Sequence[Path], imgsz: int, progress: bool = False) -> Inputs:
    """Each scene as the detector's input (its longer side ``imgsz``, padded to the stride)."""
    for _, frame in _frames(scenes, "detector", progress):
        yield {"images": letterbox(frame, imgsz, square=False)[0]}


def identifier_inputs(scenes: Sequence[Path], progress: bool = False) -> Inputs:
    """The face-up cards of each scene, cut out at their labelled corners both ways up, as the
    identifier reads them; scenes without a face-up card are passed over."""
    for path, frame in _frames(scenes, "identifier", progress):
        label = label_path(path)
        labels = read_labels(label, frame.shape[1], frame.shape[0]) if label.is_file() else []
        crops = [cuts(frame, corners)[0] for cls, corners in labels if cls == 0]
        if crops:
            yield {"image": to_blob(np.stack([*crops, *(crop[::-1, ::-1] for crop in crops)]))}


def quantize_model(model: Path, inputs: Inputs, out: Path, keep_float: list[str]) -> Path:
    """Write to ``out`` the int8 version of the ONNX model at ``model``, its activation ranges
    measured on ``inputs``, the nodes ``keep_float`` left in float. ONNX Runtime keeps the
    model's metadata."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    runs = iter(inputs)
    first = next(runs, None)
    if first is None:
        raise MalformedInput(f"nothing in the calibration scenes to calibrate {model.name} on")

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.inputs = itertools.chain([first], runs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.inputs, None)

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Reader(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            reduce_range=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=keep_float,
        )
    return out


def _load(model: Path, what: str) -> onnx.ModelProto:
    if not model.is_file():
        raise MissingResource(f"{what} model not found: {model}")
    return onnx.load(str(model))


def quantize_detector(model: Path, scenes: Sequence[Path], out: Path, progress: bool = True) -> Path:
    """The int8 version of the exported detector ``model`` at ``out``, calibrated on ``scenes``."""
    source = _load(model, "detector")
    imgsz = metadata_imgsz({prop.key: prop.value for prop in source.metadata_props})
    return quantize_model(model, detector_inputs(scenes, imgsz, progress), out, detector_float_nodes(source))


def quantize_identifier(model: Path, scenes: Sequence[Path], out: Path, progress: bool = True) -> Path:
    """The int8 version of the exported identifier ``model`` at ``out``, calibrated on the
    face-up cards of ``scenes`` (rendered, with their labels)."""
    keep_float = identifier_float_nodes(_load(model, "identifier"))
    return quantize_model(model, identifier_inputs(scenes, progress), out, keep_float)
