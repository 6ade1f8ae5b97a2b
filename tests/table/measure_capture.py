"""Measure capture on a generated 1280x720 video: decode rate, and how fresh ``latest`` keeps frames.

nice -n 10 .venv/bin/python tests/table/measure_capture.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from companion.capture import Capture, Mode

FPS = 15
FRAMES = 150


def write_video(path: Path) -> None:
    rng = np.random.default_rng(0)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (1280, 720))
    texture = cv2.GaussianBlur(rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8), (0, 0), 3)
    for i in range(FRAMES):
        writer.write(np.roll(texture, i * 4, axis=1))
    writer.release()


def main() -> None:
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as folder:
        video = Path(folder) / "table.mp4"
        write_video(video)
        started, cpu_started = time.perf_counter(), time.process_time()
        with Capture(video, Mode.FAST) as capture:
            count = sum(1 for _ in capture.frames())
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        print(
            f"fast: {count} frames of 1280x720 in {wall:.2f} s = {count / wall:.0f} frames/s, "
            f"{1000 * cpu / count:.1f} ms CPU each"
        )
        started = time.perf_counter()
        with Capture(video, Mode.LATEST) as capture:
            ages = []
            for frame in capture.frames():
                ages.append(time.perf_counter() - started - frame.t)
                time.sleep(0.2)  # a consumer that manages 5 frames/s
            dropped = capture.dropped
        print(
            f"latest, consumer at 5 frames/s: took {len(ages)} of {count}, dropped {dropped}, "
            f"frame age when taken: median {1000 * np.median(ages):.0f} ms, "
            f"max {1000 * np.max(ages):.0f} ms; "
            f"{time.perf_counter() - started:.1f} s for a {FRAMES / FPS:.1f} s video"
        )


if __name__ == "__main__":
    main()
