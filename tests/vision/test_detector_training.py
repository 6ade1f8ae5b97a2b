"""Smoke training of the detector on a handful of renders, its ONNX export, and our decoding of it
against ultralytics' own ONNX predictor."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.detector import Detector, DetectorSettings


@pytest.fixture
def tiny_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "shared" / "decks" / "flat"
    folder.mkdir(parents=True)
    (folder / "deck.json").write_text(json.dumps({"name": "flat", "license": "test"}))
    for name, colour in (("1O", (40, 200, 230)), ("2C", (230, 60, 60)), ("back", (120, 40, 20))):
        cv2.imwrite(str(folder / f"{name}.png"), np.full((156, 100, 3), colour, np.uint8))
    monkeypatch.setenv("COMPANION_SHARED", str(tmp_path / "shared"))
    out = tmp_path / "data"
    args = [
        "dataset",
        "render",
        "--count",
        "6",
        "--out",
        str(out),
        "--max-side",
        "256",
        "--val-fraction",
        "0.34",
    ]
    assert main([*args, "--json"]) == 0
    return out


@pytest.mark.slow
def test_smoke_train_export_and_decode_like_ultralytics(tiny_dataset: Path, tmp_path: Path, capsys) -> None:
    import torch

    torch.set_num_threads(1)
    capsys.readouterr()
    onnx = tmp_path / "detector.onnx"
    args = [
        "train",
        "detector",
        "--data",
        str(tiny_dataset),
        "--epochs",
        "1",
        "--imgsz",
        "64",
        "--batch",
        "2",
        "--workers",
        "0",
        "--project",
        str(tmp_path / "runs"),
        "--name",
        "smoke",
        "--export",
        str(onnx),
        "--json",
    ]
    assert main(args) == 0
    log = capsys.readouterr()
    result = json.loads(log.out.strip().splitlines()[-1])
    assert "Freezing layer 'model.0._blocks.4." in log.out + log.err  # three stages by default
    assert result["onnx"] == str(onnx) and onnx.stat().st_size > 100_000
    assert result["int8"] == str(tmp_path / "detector-int8.onnx")  # calibrated on the --data scenes
    assert Detector.from_file(Path(result["int8"])).imgsz == 64
    assert (tmp_path / "runs" / "smoke" / "weights" / "last.pt").is_file()

    from ultralytics import YOLO

    frame = cv2.imread(str(next((tiny_dataset / "images" / "val").glob("*.jpg"))))
    ours = Detector.from_file(onnx, DetectorSettings(conf=0.0, max_det=300)).detect(frame)
    theirs = YOLO(str(onnx), task="obb").predict(frame, imgsz=64, conf=0.0, iou=0.5, verbose=False)[0].obb
    best = int(theirs.conf.argmax())
    assert ours[0].detection_confidence == pytest.approx(float(theirs.conf[best]), abs=1e-4)
    corners = theirs.xyxyxyxy[best].numpy()
    assert np.sort(ours[0].corners, axis=0) == pytest.approx(np.sort(corners, axis=0), abs=0.5)

    capsys.readouterr()
    again = [
        *args[:-5],
        "--name",
        "again",
        "--weights",
        str(onnx),  # read back out of the exported file
        "--lr0",
        "0.0005",
        "--bf16",
        "--frozen-stages",
        "2",
        "--hours",
        "0.01",
        "--cache",
    ]
    assert main([*again, "--export", str(tmp_path / "again.onnx"), "--json"]) == 0
    log = capsys.readouterr()
    assert "Transferred 517/517" in log.out + log.err  # the new run starts from every exported weight
    assert "Starting training for 0.01 hours" in log.out + log.err  # its length set by the clock
    assert "Caching images" in log.out + log.err
    assert "AdamW(lr=0.0005" in log.out + log.err  # fine-tuned from the rate given
    frozen = log.out + log.err
    assert "Freezing layer 'model.0._blocks.2." in frozen and "'model.0._blocks.3." not in frozen

    exported = tmp_path / "exported.onnx"
    checkpoint = tmp_path / "runs" / "again" / "weights" / "last.pt"
    assert main(["train", "detector", "--export-only", str(checkpoint), "--export", str(exported)]) == 0
    assert Detector.from_file(exported).imgsz == 64  # the size the checkpoint was trained at


@pytest.mark.slow
def test_resume_without_a_run_is_a_clear_error(tmp_path: Path, capsys) -> None:
    args = ["train", "detector", "--resume", "--project", str(tmp_path), "--name", "none"]
    assert main(args) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_frozen_layers_are_the_stem_and_whole_stages() -> None:
    from companion.training.detector import frozen_layers

    assert frozen_layers(0) == ()
    assert frozen_layers(1) == ("0._conv_stem", "0._bn0", "0._blocks.0")
    assert frozen_layers(3)[-1] == "0._blocks.4"  # stages of 1, 2 and 2 blocks


@pytest.mark.parametrize("stages", ["-1", "7"])
def test_freezing_more_stages_than_the_backbone_has_is_a_clear_error(tmp_path: Path, capsys, stages) -> None:
    assert main(["train", "detector", "--data", str(tmp_path), "--frozen-stages", stages]) == 2
    error = capsys.readouterr().err
    assert "6 stages" in error and error.count("\n") == 1


def test_a_run_of_no_hours_is_a_clear_error(tmp_path: Path, capsys) -> None:
    assert main(["train", "detector", "--data", str(tmp_path), "--hours", "0"]) == 2
    error = capsys.readouterr().err
    assert "--hours" in error and error.count("\n") == 1


def test_bfloat16_on_a_gpu_is_a_clear_error(tmp_path: Path, capsys) -> None:
    args = ["train", "detector", "--data", str(tmp_path), "--bf16", "--device", "0"]
    assert main(args) == 2
    error = capsys.readouterr().err
    assert "--bf16" in error and error.count("\n") == 1


def test_the_bfloat16_forward_pass_hands_float32_outputs_to_the_loss() -> None:
    import torch

    from companion.training.detector import _bfloat16_forward

    class Network(torch.nn.Module):
        """Ultralytics' model interface: ``forward`` on images, ``loss`` on a batch."""

        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3)
            self.given: dict = {}

        def forward(self, images: torch.Tensor) -> dict:
            out = self.conv(images)
            return {"boxes": out, "feats": [out, out]}

        def loss(self, batch: dict, preds: dict | None = None) -> torch.Tensor:
            self.given = preds if preds is not None else self.forward(batch["img"])
            return (self.given["boxes"] ** 2).mean()

    network = Network()
    seen = []
    network.conv.register_forward_hook(lambda module, args, out: seen.append(out.dtype))
    _bfloat16_forward(type("Trainer", (), {"model": network})())
    loss = network.loss({"img": torch.rand(2, 3, 8, 8)})
    assert seen == [torch.bfloat16]
    assert network.given["boxes"].dtype == torch.float32
    assert [f.dtype for f in network.given["feats"]] == [torch.float32, torch.float32]
    loss.backward()
    assert network.conv.weight.dtype == network.conv.weight.grad.dtype == torch.float32
    assert float(network.conv.weight.grad.abs().sum()) > 0


def test_a_checkpoint_saved_within_an_epoch_leaves_that_epoch_to_run_again(monkeypatch) -> None:
    from companion.training import detector

    clock = [0.0]
    monkeypatch.setattr(detector.time, "monotonic", lambda: clock[0])
    callbacks = detector._checkpoint_every(minutes=10)

    class Trainer:
        epoch, fitness, saved = 3, 0.8, []

        def save_model(self) -> None:
            self.saved.append((self.epoch, self.fitness))

    trainer = Trainer()
    clock[0] = 599
    callbacks["on_train_batch_end"](trainer)
    assert trainer.saved == []
    clock[0] = 600
    callbacks["on_train_batch_end"](trainer)
    assert trainer.saved == [(2, None)]  # epoch 3 unfinished; best.pt untouched (no fitness)
    assert (trainer.epoch, trainer.fitness) == (3, 0.8)
    clock[0] = 1150
    callbacks["on_fit_epoch_end"](trainer)  # the epoch's own checkpoint
    clock[0] = 1700
    callbacks["on_train_batch_end"](trainer)
    assert len(trainer.saved) == 1  # ten minutes count from the epoch's end


@pytest.mark.parametrize(
    ("state", "why"),
    [({"epoch": -1, "optimizer": {}}, "first epoch"), ({"epoch": -1, "optimizer": None}, "has finished")],
)
def test_a_run_that_cannot_be_resumed_is_a_clear_error(tmp_path: Path, capsys, state: dict, why: str) -> None:
    import torch

    last = tmp_path / "run" / "weights" / "last.pt"
    last.parent.mkdir(parents=True)
    torch.save(state, last)
    assert main(["train", "detector", "--resume", "--project", str(tmp_path), "--name", "run"]) == 2
    error = capsys.readouterr().err
    assert why in error and f"--weights {last}" in error and error.count("\n") == 1


@pytest.mark.slow
def test_a_detector_read_back_from_onnx_computes_what_the_onnx_file_does(
    tiny_dataset: Path, tmp_path: Path
) -> None:
    import onnxruntime
    import torch
    from ultralytics import YOLO

    from companion.training.detector import TrainSettings, export_onnx, train_detector
    from companion.training.from_onnx import checkpoint_from_onnx
    from companion.vision.detector import letterbox

    torch.set_num_threads(1)
    settings = TrainSettings(epochs=1, imgsz=64, batch=2, workers=0, project=tmp_path / "runs", name="one")
    onnx = export_onnx(train_detector(tiny_dataset, settings), tmp_path / "one.onnx")
    images = sorted((tiny_dataset / "images" / "train").glob("*.jpg"))
    rebuilt = checkpoint_from_onnx(onnx, tmp_path / "rebuilt.pt", images, 64)

    network = YOLO(str(rebuilt), task="obb").model.float().eval()
    session = onnxruntime.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
    for path in sorted((tiny_dataset / "images" / "val").glob("*.jpg")):
        tensor = letterbox(cv2.imread(str(path)), 64)[0]
        expected = session.run(None, {session.get_inputs()[0].name: tensor})[0]
        with torch.no_grad():
            got = network(torch.from_numpy(tensor))[0].numpy()
        assert got.shape == expected.shape
        assert np.abs(got - expected).max() < 0.02 * np.abs(expected).max()  # weights kept in float16

    # Training normalises with the batch's statistics: on the images it was recalibrated on, the
    # backbone computes in training what it computes in evaluation.
    backbone = network.model[0]
    batch = torch.from_numpy(np.concatenate([letterbox(cv2.imread(str(p)), 64)[0] for p in images]))
    with torch.no_grad():
        evaluated = backbone.eval()(batch)
        trained = backbone.train()(batch)
    for e, t in zip(evaluated, trained, strict=True):
        assert (t - e).abs().max() < 0.05 * e.abs().max()


def test_an_onnx_file_of_another_layout_is_a_clear_error(tmp_path: Path) -> None:
    from companion.errors import MalformedInput
    from companion.paths import models_dir
    from companion.training.from_onnx import checkpoint_from_onnx

    identifier = models_dir() / "identifier.onnx"
    with pytest.raises(MalformedInput, match="not a detector of this layout"):
        checkpoint_from_onnx(identifier, tmp_path / "x.pt", [], 64)
