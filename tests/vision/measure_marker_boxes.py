"""Measure how many of a detector's boxes lie on the printed table-corner markers: every 30th frame
of the bundled sample game, the detector alone, then the boxes ``off_markers`` leaves out.

.venv/bin/python tests/vision/measure_marker_boxes.py [MODEL.onnx ...]   # default models/detector-int8.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from companion.paths import PROJECT_ROOT
from companion.table.markers import find_markers, off_markers
from companion.vision.detector import SHIPPED_MODEL
from companion.vision.reader import load_detector

SAMPLE = PROJECT_ROOT / "datasets" / "samples" / "brisca-2-fournier-1878" / "game.mp4"
EVERY = 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, default=[PROJECT_ROOT / "models" / SHIPPED_MODEL])
    for model in parser.parse_args().models:
        detector = load_detector(model)
        video = cv2.VideoCapture(str(SAMPLE))
        frames = boxes = on_markers = index = 0
        ok, frame = video.read()
        while ok:
            if index % EVERY == 0:
                readings = detector.detect(frame)
                frames += 1
                boxes += len(readings)
                on_markers += len(readings) - len(off_markers(readings, find_markers(frame)))
            index += 1
            ok, frame = video.read()
        print(f"{model}: {frames} frames, {boxes} boxes, {on_markers} on a marker")


if __name__ == "__main__":
    main()
