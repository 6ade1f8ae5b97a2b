"""Training the card detector: ultralytics YOLO-OBB on ImageNet-trained EfficientNet-Lite0 stages,
and its export to ONNX.

This is the only module that touches ultralytics; run-time inference lives in
:mod:`companion.vision.detector` and needs only ONNX Runtime.
"""

from __future__ import annotations

import os
import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from companion.errors import MalformedInput, MissingResource
from companion.training.lite0 import STAGES, register_with_ultralytics, stage_ends

if TYPE_CHECKING:
    from torch import nn

MODEL_YAML = Path(__file__).with_name("detector-lite0-obb.yaml")
"""The detector's layout: EfficientNet-Lite0 stages (ImageNet weights) under a YOLOv8-style OBB
neck and head, two classes."""

FROZEN_STAGES = 3
"""By default the stem and the backbone's first three stages (up to stride 8) keep their ImageNet
weights: generic edges and textures are learnt there already, and back-propagation costs the most."""


CALIBRATION_IMAGES = 32
"""Training images whose statistics a detector read back from ONNX is recalibrated on."""


def frozen_layers(stages: int) -> tuple[str, ...]:
    """The backbone layers kept at their ImageNet weights when its first ``stages`` stages are
    frozen (with the stem); none for 0."""
    if not 0 <= stages <= len(STAGES):
        raise MalformedInput(f"the backbone has {len(STAGES)} stages: cannot freeze {stages}")
    if stages == 0:
        return ()
    return ("0._conv_stem", "0._bn0", *(f"0._blocks.{i}" for i in range(stage_ends(stages)[-1] + 1)))


@dataclass(frozen=True)
class TrainSettings:
    """How to train: ``epochs`` over the data, square ``imgsz`` inputs, checkpoints every
    ``checkpoint_minutes`` (and after each epoch) in ``project/name/weights``.

    ``lr0`` fine-tunes a trained detector from that learning rate (:func:`_schedule`); ``bf16``
    runs the network's forward pass in bfloat16 on a CPU (:func:`_bfloat16_forward`);
    ``frozen_stages`` of the backbone keep their ImageNet weights (:func:`frozen_layers`);
    ``hours`` ends the run after that long, its number of epochs and its learning-rate schedule
    fitted to it after the first epoch; ``cache`` keeps the decoded images in memory."""

    epochs: int = 100
    imgsz: int = 512
    batch: int = 8
    device: str = "cpu"
    workers: int = 1
    project: Path = Path("runs/detector")
    name: str = "train"
    checkpoint_minutes: float = 10.0
    seed: int = 0
    lr0: float | None = None
    bf16: bool = False
    frozen_stages: int = FROZEN_STAGES
    hours: float | None = None
    cache: bool = False


def _offline() -> None:
    """Ultralytics must never reach the network: no weight, font or settings downloads; and it
    must know the detector's backbone layer."""
    os.environ["YOLO_OFFLINE"] = "1"
    register_with_ultralytics()


def _checkpoint_every(minutes: float) -> dict:
    """Callbacks that also save ``last.pt`` within an epoch, so a slow shared CPU loses little work.

    Such a checkpoint records its epoch as unfinished, so that resuming runs that epoch again from
    its start, on the weights trained so far (ultralytics resumes after the epoch recorded).
    """
    state = {"saved": time.monotonic()}

    def on_train_batch_end(trainer) -> None:
        if time.monotonic() - state["saved"] >= minutes * 60:
            fitness, trainer.fitness = trainer.fitness, None  # not validated: keep best.pt as it is
            epoch, trainer.epoch = trainer.epoch, trainer.epoch - 1
            try:
                trainer.save_model()
            finally:
                trainer.fitness, trainer.epoch = fitness, epoch
            state["saved"] = time.monotonic()

    def on_fit_epoch_end(trainer) -> None:
        state["saved"] = time.monotonic()  # the finished epoch has just been saved

    return {"on_train_batch_end": on_train_batch_end, "on_fit_epoch_end": on_fit_epoch_end}


def _bfloat16_forward(trainer) -> None:
    """Make the network's forward pass in training run in bfloat16 on the CPU, and its loss in
    float32 on the outputs (ultralytics offers bfloat16 only on CUDA). On a CPU with AVX512-BF16 or
    AMX a batch then takes about 0.6 of the time; gradients still reach float32 weights."""
    import torch

    model = trainer.model
    loss = model.loss

    def mixed_loss(batch: dict, preds=None):
        if preds is None:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                preds = model.forward(batch["img"])
            preds = _as_float32(preds)
        return loss(batch, preds)

    model.loss = mixed_loss


def _as_float32(value):
    """Tensors (in dicts, lists and tuples) cast to float32."""
    if isinstance(value, dict):
        return {k: _as_float32(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_as_float32(v) for v in value)
    return value.float() if hasattr(value, "float") else value


def _schedule(lr0: float | None) -> dict:
    """Ultralytics' optimizer and rate arguments: its own choice after a one-epoch warm-up (the
    backbone starts trained: a short warm-up is enough), or, to fine-tune, AdamW from ``lr0`` down
    to 1% of it after a fifth of an epoch (ultralytics ignores ``lr0`` unless told the optimizer)."""
    if lr0 is None:
        return {"warmup_epochs": 1.0}
    return {"optimizer": "AdamW", "lr0": lr0, "lrf": 0.01, "warmup_epochs": 0.2}


def _mixed_precision(device: str) -> bool | str:
    """Ultralytics' ``amp`` for ``device``: none on a CPU (``--bf16`` is ours), bfloat16 on a GPU
    that has it (no loss scaling, and no check that downloads a model first), else float16."""
    if device == "cpu":
        return False
    import torch

    return "bf16" if torch.cuda.is_bf16_supported(including_emulation=False) else True


def untrained_network() -> nn.Module:
    """The detector's layout as a network in evaluation mode, float32, with no trained weights
    beyond the backbone's ImageNet ones (ultralytics' OBB model)."""
    _offline()
    from ultralytics import YOLO

    return cast("nn.Module", YOLO(str(MODEL_YAML), task="obb").model).float().eval()


def _why_not_resumable(checkpoint: Path) -> str | None:
    """Why ultralytics cannot resume the run of ``checkpoint``, or None if it can."""
    import torch

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    if state.get("optimizer") is None:  # ultralytics strips it when a run ends
        return f"the run of {checkpoint} has finished"
    if state.get("epoch", -1) < 0:
        return f"{checkpoint} was saved within its run's first epoch, which cannot be resumed"
    return None


def _with_callbacks(model, settings: TrainSettings):
    """The YOLO model with our checkpointing (and, if asked, the bfloat16 forward pass) added."""
    for event, callback in _checkpoint_every(settings.checkpoint_minutes).items():
        model.add_callback(event, callback)
    if settings.bf16:
        model.add_callback("on_train_start", _bfloat16_forward)
    return model


def train_detector(
    data: Path, settings: TrainSettings, resume: bool = False, weights: Path | None = None
) -> Path:
    """Train (or, with ``resume``, continue the run in ``project/name``); returns ``best.pt``.

    ``weights`` starts a new run from a checkpoint instead of from scratch.
    """
    if settings.hours is not None and settings.hours <= 0:
        raise MalformedInput(f"--hours must be positive, got {settings.hours}")
    if settings.bf16 and settings.device != "cpu":
        raise MalformedInput("--bf16 is for training on a CPU; a GPU trains in mixed precision already")
    frozen = frozen_layers(settings.frozen_stages)
    _offline()
    from ultralytics import YOLO

    run = settings.project.resolve() / settings.name
    last = run / "weights" / "last.pt"
    if resume:
        if not last.is_file():
            raise MissingResource(f"nothing to resume: no checkpoint at {last}")
        why_not = _why_not_resumable(last)
        if why_not:
            raise MalformedInput(f"{why_not}: start a new run from it with --weights {last}")
        model = _with_callbacks(YOLO(str(last)), settings)
        model.train(resume=True)
    else:
        data_yaml = data / "data.yaml" if data.is_dir() else data
        if not data_yaml.is_file():
            raise MissingResource(f"no dataset description at {data_yaml}")
        if weights is not None and weights.suffix == ".onnx":
            weights = _from_onnx(weights, data_yaml.parent, run, settings.imgsz)
        model = _with_callbacks(YOLO(str(weights) if weights else str(MODEL_YAML), task="obb"), settings)
        model.train(
            data=str(data_yaml),
            epochs=settings.epochs,
            imgsz=settings.imgsz,
            batch=settings.batch,
            device=settings.device,
            workers=settings.workers,
            project=str(settings.project.resolve()),
            name=settings.name,
            exist_ok=True,
            pretrained=weights is not None,  # ultralytics drops a checkpoint's weights otherwise
            plots=False,
            amp=_mixed_precision(settings.device),
            time=settings.hours,
            cache="ram" if settings.cache else False,
            seed=settings.seed,
            deterministic=True,
            degrees=0.0,  # renders already turn cards every way
            flipud=0.5,
            fliplr=0.5,
            mosaic=0.0,  # a mosaic shrinks cards that are already 5-24% of the frame
            patience=1000,
            freeze=list(frozen),
            **_schedule(settings.lr0),
        )
    best = run / "weights" / "best.pt"
    return best if best.is_file() else last


def _from_onnx(onnx_path: Path, data: Path, run: Path, imgsz: int) -> Path:
    """A checkpoint of the exported detector ``onnx_path`` (:mod:`companion.training.from_onnx`),
    recalibrated on the first training images of ``data``, written into the run's folder."""
    from companion.training.from_onnx import checkpoint_from_onnx

    images = sorted((data / "images" / "train").glob("*.jpg"))[:CALIBRATION_IMAGES]
    return checkpoint_from_onnx(onnx_path, run / "from-onnx.pt", images, imgsz)


def export_onnx(weights: Path, out: Path, imgsz: int | None = None) -> Path:
    """Export a trained checkpoint to ONNX (opset 17) at ``out``.

    The input shape is dynamic: the runtime detector scales a frame's longer side to ``imgsz``
    (by default the size the checkpoint was trained at) and pads the shorter one only to a
    multiple of 32, so a 16:9 camera costs about 56% of a square input.
    """
    _offline()
    from ultralytics import YOLO

    if not weights.is_file():
        raise MissingResource(f"no checkpoint at {weights}")
    with warnings.catch_warnings():  # torch deprecates the classic exporter ultralytics still uses
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", FutureWarning)
        model = YOLO(str(weights))
        size = imgsz or model.overrides.get("imgsz") or TrainSettings.imgsz
        exported = model.export(format="onnx", imgsz=size, opset=17, simplify=False, dynamic=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    if Path(exported).resolve() != out.resolve():
        shutil.copyfile(Path(exported), out)
    return out
