"""Detector speed: ultralytics' own predictor against our ONNX Runtime path, on the same frame.

``python -m companion.training.speed CHECKPOINT.pt MODEL.onnx [--threads N] [--runs R]``
prints milliseconds per 1280x720 frame for each (median of ``runs``, after a warm-up).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def median_ms(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm-up: first call allocates
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def compare(checkpoint: Path, onnx: Path, threads: int = 1, runs: int = 20) -> dict[str, float]:
    """Median ms per frame: ultralytics predictor (PyTorch) and :class:`Detector` (ONNX Runtime)."""
    os.environ["YOLO_OFFLINE"] = "1"
    import cv2
    import torch
    from ultralytics import YOLO

    from companion.datasets.surfaces import render_table
    from companion.vision.detector import Detector

    torch.set_num_threads(threads)
    cv2.setNumThreads(threads)
    frame = render_table(np.random.default_rng(0), (1280, 720), "gingham", unit=100)
    model = YOLO(str(checkpoint))
    detector = Detector.from_file(onnx, threads=threads)
    return {
        "threads": threads,
        "ultralytics_pytorch_ms": median_ms(
            lambda: model.predict(frame, imgsz=detector.imgsz, verbose=False), runs
        ),
        "onnxruntime_ms": median_ms(lambda: detector.detect(frame), runs),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("onnx", type=Path)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(compare(args.checkpoint, args.onnx, args.threads, args.runs)))
