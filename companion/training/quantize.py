"""The int8 detector: ONNX Runtime's static quantization of the exported detector, calibrated on
rendered scenes.

Every convolution of the backbone and the neck, and the hidden ones of the head, run in int8; the
head's last convolutions and its decoding (box distributions, angles, class scores) stay in
float, where rounding would move the corners and the confidences. Weights are quantized per
channel to 7 bits (``reduce_range``): on CPUs without VNNI, ONNX Runtime's int8 products of 8-bit
weights can saturate, so 7 bits give the same boxes on every x86 CPU.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
import onnx

from companion.errors import MalformedInput, MissingResource
from companion.vision.detector import letterbox, metadata_imgsz


def head_prefix(model: onnx.ModelProto) -> str:
    """The name prefix (``/model.N/``) of the ultralytics module that writes the model's output."""
    output = model.graph.output[0].name
    writer = next(node for node in model.graph.node if output in node.output)
    parts = writer.name.split("/")
    if len(parts) < 3 or not parts[1].startswith("model."):
        raise MalformedInput(f"not an exported ultralytics detector: its output comes from {writer.name!r}")
    return f"/{parts[1]}/"


def float_nodes(model: onnx.ModelProto) -> list[str]:
    """The nodes left in float: all of the head but the convolutions of its hidden blocks
    (``.../cv2.0.0/conv/Conv``; the distribution-to-distance one, ``dfl/conv``, stays float)."""
    prefix = head_prefix(model)

    def hidden(node: onnx.NodeProto) -> bool:
        return node.op_type == "Conv" and node.name.endswith("/conv/Conv") and "/dfl/" not in node.name

    return [node.name for node in model.graph.node if node.name.startswith(prefix) and not hidden(node)]


def network_inputs(images: Sequence[Path], imgsz: int, progress: bool) -> Iterator[dict[str, np.ndarray]]:
    """Each image as the detector's input (its longer side ``imgsz``, padded to the stride)."""
    from tqdm import tqdm

    for path in tqdm(images, desc="calibrating", unit="img", disable=not progress):
        frame = cv2.imread(str(path))
        if frame is None:
            raise MalformedInput(f"cannot read calibration image {path}")
        yield {"images": letterbox(frame, imgsz, square=False)[0]}


def int8_beside(model: Path) -> Path:
    """Where the int8 version of the detector at ``model`` goes: ``detector.onnx`` ->
    ``detector-int8.onnx`` (the name the product runs by default)."""
    return model.with_name(f"{model.stem}-int8{model.suffix}")


def calibration_scenes(data: Path, count: int) -> list[Path]:
    """The first ``count`` training scenes of the rendered dataset at ``data``."""
    if count < 1:
        raise MalformedInput(f"calibration needs at least one scene, not {count}")
    scenes = sorted((data / "images" / "train").glob("*.jpg"))[:count]
    if not scenes:
        raise MalformedInput(f"no training scenes in {data / 'images' / 'train'}")
    return scenes


def quantize_detector(model: Path, images: Sequence[Path], out: Path, progress: bool = True) -> Path:
    """Write to ``out`` the int8 version of the exported detector ``model``, its activation ranges
    measured on ``images`` (rendered training scenes). ONNX Runtime keeps the model's metadata."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not model.is_file():
        raise MissingResource(f"detector model not found: {model}")
    source = onnx.load(str(model))
    imgsz = metadata_imgsz({prop.key: prop.value for prop in source.metadata_props})

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.inputs = network_inputs(images, imgsz, progress)

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
            nodes_to_exclude=float_nodes(source),
        )
    return out
