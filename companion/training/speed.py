"""Detector speed: ultralytics' own predictor, ONNX Runtime and OpenVINO, on the same frame.

``python -m companion.training.speed CHECKPOINT.pt MODEL.onnx [--threads N] [--runs R]``
prints milliseconds per 1280x720 frame for each (median of ``runs``, after a warm-up).
OpenVINO is measured when installed (``pip install -e '.[speed]'``): it runs the same ONNX
file behind the same letterboxing and decoding as :class:`Detector`.
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


class OpenVinoSession:
    """The part of an ONNX Runtime session :class:`Detector` uses, run by OpenVINO instead."""

    def __init__(self, onnx: Path, threads: int) -> None:
        import onnxruntime as ort
        import openvino

        self._described = ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
        self._model = openvino.Core().compile_model(
            str(onnx),
            "CPU",
            {
                "INFERENCE_NUM_THREADS": threads,
                "PERFORMANCE_HINT": "LATENCY",
                "INFERENCE_PRECISION_HINT": "f32",
            },
        )

    def get_inputs(self):
        return self._described.get_inputs()

    def get_modelmeta(self):
        return self._described.get_modelmeta()

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        return [self._model(list(feeds.values()))[0]]


def compare(checkpoint: Path, onnx: Path, threads: int = 1, runs: int = 20) -> dict[str, float | None]:
    """Median ms per frame: ultralytics predictor (PyTorch), :class:`Detector` on ONNX Runtime, and
    on OpenVINO when it is installed (else ``None``)."""
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
    try:
        on_openvino = Detector(OpenVinoSession(onnx, threads))
    except ImportError:
        on_openvino = None
    return {
        "threads": threads,
        "ultralytics_pytorch_ms": median_ms(
            lambda: model.predict(frame, imgsz=detector.imgsz, verbose=False), runs
        ),
        "onnxruntime_ms": median_ms(lambda: detector.detect(frame), runs),
        "openvino_ms": median_ms(lambda: on_openvino.detect(frame), runs) if on_openvino else None,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("onnx", type=Path)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(compare(args.checkpoint, args.onnx, args.threads, args.runs)))
