"""``companion train detector``: train the card detector from a rendered dataset and export it;
``companion train int8``: the int8 versions of both models; ``companion train identifier``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

CALIBRATION_SCENES = 64
"""Training scenes that calibrate the int8 models."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("train", help="train a model (needs the training extras)")
    models = parser.add_subparsers(dest="model", required=True, metavar="MODEL")
    detector = models.add_parser(
        "detector", help="YOLO-OBB card detector from `companion dataset render` data"
    )
    detector.add_argument("--data", type=Path, help="dataset folder (with data.yaml)")
    detector.add_argument("--epochs", type=int, default=100)
    detector.add_argument(
        "--imgsz",
        type=int,
        help="training size (default 512), and the longer side of frames at run time "
        "(default: the size the checkpoint was trained at)",
    )
    detector.add_argument("--batch", type=int, default=8)
    detector.add_argument("--device", default="cpu", help="cpu, or a CUDA device such as 0")
    detector.add_argument("--workers", type=int, default=1, help="data-loading processes")
    detector.add_argument("--project", type=Path, default=Path("runs/detector"), help="where runs are kept")
    detector.add_argument("--name", default="train", help="run name under --project")
    detector.add_argument("--resume", action="store_true", help="continue the run --project/--name")
    detector.add_argument(
        "--weights",
        type=Path,
        help="start a new run from this checkpoint, or from an exported detector (such as "
        "models/detector.onnx: its weights are read back out of it)",
    )
    detector.add_argument(
        "--lr0", type=float, help="fine-tune from this learning rate (AdamW, decaying to 1%% of it)"
    )
    detector.add_argument(
        "--bf16",
        action="store_true",
        help="run the network in bfloat16 on the CPU (faster where it has AVX512-BF16 or AMX)",
    )
    detector.add_argument(
        "--frozen-stages",
        type=int,
        help="backbone stages (with the stem) kept at their ImageNet weights: 0 trains them all, "
        "slower per batch (default 3: up to stride 8)",
    )
    detector.add_argument(
        "--hours",
        type=float,
        help="stop after this long, the epochs and the learning-rate schedule fitted to it "
        "(after the first epoch; --epochs is then only the first estimate)",
    )
    detector.add_argument(
        "--cache", action="store_true", help="keep the decoded training images in memory (faster)"
    )
    detector.add_argument(
        "--checkpoint-minutes", type=float, default=10.0, help="also save last.pt this often within an epoch"
    )
    detector.add_argument(
        "--export",
        type=Path,
        default=None,
        help="export the best checkpoint to this ONNX file (default models/detector.onnx), and, "
        "with --data, its int8 version beside it (detector-int8.onnx, the one the product runs)",
    )
    detector.add_argument(
        "--export-only", type=Path, metavar="CHECKPOINT", help="skip training: export this checkpoint"
    )
    detector.add_argument("--json", action="store_true")
    detector.set_defaults(run=run_detector)
    int8 = models.add_parser(
        "int8",
        help="the int8 models the product runs, faster on a CPU: quantize the exported detector "
        "and identifier, calibrated on the training scenes of a rendered dataset",
    )
    int8.add_argument("--data", type=Path, required=True, help="dataset folder (its images/train calibrate)")
    int8.add_argument(
        "--models",
        type=Path,
        help="folder of detector.onnx and identifier.onnx (either or both); their int8 versions "
        "go beside them (default models/)",
    )
    int8.add_argument(
        "--count",
        type=int,
        default=CALIBRATION_SCENES,
        help=f"calibration scenes (default {CALIBRATION_SCENES})",
    )
    int8.add_argument("--json", action="store_true")
    int8.set_defaults(run=run_int8)
    identifier = models.add_parser(
        "identifier", help="card identifier on augmented crops of ../shared/decks, and the shipped decks"
    )
    identifier.add_argument("--out", type=Path, default=Path("runs/identifier"), help="log, head, cache")
    identifier.add_argument(
        "--models", type=Path, help="where identifier.onnx and decks/ go (default models/)"
    )
    identifier.add_argument("--per-card", type=int, default=128, help="augmented crops per card and style")
    identifier.add_argument(
        "--scene-per-card",
        type=int,
        default=24,
        help="crops per card and style cut from rendered table scenes (0: none)",
    )
    identifier.add_argument("--epochs", type=int, default=30)
    identifier.add_argument("--seed", type=int, default=0)
    identifier.set_defaults(run=run_identifier)


def run_detector(args: argparse.Namespace) -> int:
    from companion.errors import MalformedInput
    from companion.paths import models_dir
    from companion.training.detector import TrainSettings, export_onnx, train_detector
    from companion.training.quantize import calibration_scenes, int8_beside, quantize_detector

    out = args.export or models_dir() / "detector.onnx"
    if args.export_only:
        best = args.export_only
    else:
        if args.data is None and not args.resume:
            raise MalformedInput("train detector needs --data DIR (or --resume), got neither")
        settings = TrainSettings(
            epochs=args.epochs,
            imgsz=args.imgsz or TrainSettings.imgsz,
            batch=args.batch,
            device=args.device,
            workers=args.workers,
            project=args.project,
            name=args.name,
            checkpoint_minutes=args.checkpoint_minutes,
            lr0=args.lr0,
            bf16=args.bf16,
            frozen_stages=TrainSettings.frozen_stages if args.frozen_stages is None else args.frozen_stages,
            hours=args.hours,
            cache=args.cache,
        )
        best = train_detector(args.data or Path(), settings, resume=args.resume, weights=args.weights)
    onnx = export_onnx(best, out, imgsz=args.imgsz)
    result = {"checkpoint": str(best), "onnx": str(onnx), "onnx_bytes": onnx.stat().st_size}
    if args.data is not None:  # the int8 version, which the product runs, calibrated on the same scenes
        scenes = calibration_scenes(args.data, CALIBRATION_SCENES)
        result["int8"] = str(quantize_detector(onnx, scenes, int8_beside(onnx), progress=not args.json))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"exported {best} to {onnx} ({result['onnx_bytes']} bytes)")
        int8 = f"companion train int8 --data DIR --models {onnx.parent}"
        print(
            f"and its int8 version to {result['int8']}" if "int8" in result else f"its int8 version: {int8}"
        )
    return 0


def run_int8(args: argparse.Namespace) -> int:
    from companion.errors import MissingResource
    from companion.paths import models_dir
    from companion.training.quantize import (
        calibration_scenes,
        int8_beside,
        quantize_detector,
        quantize_identifier,
    )

    scenes = calibration_scenes(args.data, args.count)
    models = args.models or models_dir()
    found = [name for name in ("detector", "identifier") if (models / f"{name}.onnx").is_file()]
    if not found:
        raise MissingResource(f"no detector.onnx or identifier.onnx in {models}")
    result: dict[str, object] = {"scenes": len(scenes)}
    quantizers = {"detector": quantize_detector, "identifier": quantize_identifier}
    for name in found:
        model = models / f"{name}.onnx"
        out = quantizers[name](model, scenes, int8_beside(model), progress=not args.json)
        result[name] = str(out)
        if not args.json:
            print(f"quantized {model} to {out} ({out.stat().st_size} bytes)")
    if args.json:
        print(json.dumps(result))
    return 0


def run_identifier(args: argparse.Namespace) -> int:
    from companion.paths import models_dir, shared_dir
    from companion.training.identifier import train_identifier

    result = train_identifier(
        shared_dir() / "decks",
        args.out,
        args.models or models_dir(),
        per_card=args.per_card,
        scene_per_card=args.scene_per_card,
        epochs=args.epochs,
        seed=args.seed,
    )
    print(json.dumps(result))
    return 0
