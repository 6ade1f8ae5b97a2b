"""A trainable detector checkpoint rebuilt from an exported ONNX file.

Only ``models/detector.onnx`` ships; training checkpoints stay on the machine that made them. To go on
training the shipped detector elsewhere, its weights are read back out of the ONNX file. The export
folds each batch normalisation into the convolution before it, so the folded weights go into the
convolution and the normalisation is set to pass its input through, shifted by the folded bias.
Training then normalises with batch statistics, so each normalisation is recalibrated to the
statistics of its convolution's output on real inputs: the same network in evaluation, and at
home in training.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from copy import deepcopy
from pathlib import Path
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np

from companion.errors import MalformedInput, MissingResource
from companion.vision.detector import letterbox

if TYPE_CHECKING:
    import onnx
    import torch
    from torch import nn

    Pair = tuple[nn.Conv2d, nn.BatchNorm2d]

LITE0_NORMS = {
    "_conv_stem": "_bn0",
    "_expand_conv": "_bn0",
    "_depthwise_conv": "_bn1",
    "_project_conv": "_bn2",
}
"""The batch normalisation after each convolution of an EfficientNet-Lite0 block, by name."""


def _conv_path(node: onnx.NodeProto) -> str:
    """The module path of an exported convolution: from its weight's name where the export kept
    it (``model.7.cv1.conv.weight``), else from the node's scope
    (``/model.0/_blocks.1/_depthwise_conv/Conv``)."""
    weight = str(node.input[1])
    if weight.startswith("model."):
        return weight.removesuffix(".weight")
    return ".".join(str(node.name).strip("/").split("/")[:-1])


def _norm_after(modules: dict[str, nn.Module], path: str) -> nn.BatchNorm2d | None:
    """The batch normalisation that follows the convolution at ``path``, or None."""
    parent_path, leaf = path.rsplit(".", 1)
    parent = modules[parent_path]
    if leaf == "conv" and hasattr(parent, "bn"):  # ultralytics' Conv: conv, bn, act
        return cast("nn.BatchNorm2d", parent.bn)
    if leaf in LITE0_NORMS:
        return cast("nn.BatchNorm2d", getattr(parent, LITE0_NORMS[leaf]))
    return None


def load_folded(model: nn.Module, onnx_path: Path) -> list[Pair]:
    """Copy the exported convolutions into ``model`` (an ultralytics OBB model of the same layout),
    each normalisation passing its input through plus the folded bias; returns the (convolution,
    normalisation) pairs."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:  # the export keeps some weights in constants, and equal ones only once
        if node.op_type == "Constant":
            value = next((a.t for a in node.attribute if a.name == "value"), None)
            if value is not None:
                weights[node.output[0]] = numpy_helper.to_array(value)
        elif node.op_type == "Identity" and node.input[0] in weights:
            weights[node.output[0]] = weights[node.input[0]]
    modules = dict(model.named_modules())
    pairs: list[Pair] = []
    seen: set[str] = set()
    for node in (n for n in graph.node if n.op_type == "Conv"):
        path = _conv_path(node)
        conv = cast("nn.Conv2d | None", modules.get(path))
        weight = torch.from_numpy(weights[node.input[1]].copy())
        if conv is None or conv.weight.shape != weight.shape:
            raise MalformedInput(f"{onnx_path} is not a detector of this layout (at {path})")
        bias = torch.from_numpy(weights[node.input[2]].copy()) if len(node.input) > 2 else None
        norm = _norm_after(modules, path)
        with torch.no_grad():
            conv.weight.copy_(weight)
            if norm is not None:
                mean, var = _statistics(norm)
                norm.weight.fill_(1.0)
                norm.bias.copy_(_bias_of(bias, path, onnx_path))
                mean.zero_()
                var.fill_(1.0 - norm.eps)
                pairs.append((conv, norm))
            elif bias is not None:
                _bias_of(conv.bias, path, onnx_path).copy_(bias)
        seen.add(path)
    convs = {name for name, m in model.named_modules() if isinstance(m, torch.nn.Conv2d)}
    if convs - seen:
        raise MalformedInput(f"{onnx_path} lacks {len(convs - seen)} of the layout's convolutions")
    return pairs


def _statistics(norm: nn.BatchNorm2d) -> tuple[torch.Tensor, torch.Tensor]:
    """A normalisation's running mean and variance (the detector's layers always keep them)."""
    if norm.running_mean is None or norm.running_var is None:
        raise MalformedInput("the detector's normalisations keep no running statistics")
    return norm.running_mean, norm.running_var


def _bias_of(bias: torch.Tensor | None, path: str, onnx_path: Path) -> torch.Tensor:
    """``bias``, which the layout has at ``path``; a clear error where it has none."""
    if bias is None:
        raise MalformedInput(f"{onnx_path} is not a detector of this layout (no bias at {path})")
    return bias


def recalibrate(model: nn.Module, pairs: list[Pair], inputs: Iterable[np.ndarray]) -> None:
    """Give each normalisation the mean and variance of its convolution's output over ``inputs``
    (network input tensors), scaled and shifted so that the model computes exactly what it did."""
    import torch

    sums: dict[int, list[torch.Tensor]] = {id(conv): [] for conv, _ in pairs}

    def record(conv: nn.Module, _inputs: object, output: torch.Tensor) -> None:
        sums[id(conv)].append(
            torch.stack([output.double().mean((0, 2, 3)), (output.double() ** 2).mean((0, 2, 3))])
        )

    hooks = [conv.register_forward_hook(record) for conv, _ in pairs]
    try:
        with torch.no_grad():
            for tensor in inputs:
                model(torch.from_numpy(tensor))
    finally:
        for hook in hooks:
            hook.remove()
    with torch.no_grad():
        for conv, norm in pairs:
            if not sums[id(conv)]:
                raise MalformedInput("no images to recalibrate the detector's normalisations on")
            mean, squares = torch.stack(sums[id(conv)]).mean(0)
            var = (squares - mean**2).clamp_min(0.0)
            running_mean, running_var = _statistics(norm)
            norm.bias.add_(mean.float())
            running_mean.copy_(mean.float())
            running_var.copy_(var.float())
            norm.weight.copy_(torch.sqrt(var + norm.eps).float())


def checkpoint_from_onnx(onnx_path: Path, out: Path, images: list[Path], imgsz: int) -> Path:
    """Write to ``out`` an ultralytics checkpoint holding the weights of the exported detector
    ``onnx_path``, its normalisations recalibrated on ``images`` (frames, letterboxed to ``imgsz``)."""
    import torch

    from companion.training.detector import untrained_network

    if not onnx_path.is_file():
        raise MissingResource(f"no exported detector at {onnx_path}")
    model = untrained_network()
    pairs = load_folded(model, onnx_path)
    frames = (cv2.imread(str(p)) for p in images)
    recalibrate(model, pairs, (letterbox(f, imgsz)[0] for f in frames if f is not None))
    out.parent.mkdir(parents=True, exist_ok=True)
    checkpoint = {
        "date": datetime.datetime.now().isoformat(),
        "epoch": -1,
        "best_fitness": None,
        "model": None,
        "ema": deepcopy(model).half(),
        "updates": 0,
        "optimizer": None,
        "train_args": {"task": "obb", "imgsz": imgsz},
    }
    torch.save(checkpoint, out)
    return out
