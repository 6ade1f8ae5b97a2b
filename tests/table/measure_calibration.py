"""Measure calibration from the corner markers on generated tables: found, error on the table, ms.

    nice -n 10 .venv/bin/python tests/table/measure_calibration.py --scenes 100

The error is the distance on the table between where the profile puts each true
card corner and where it truly lies (a 900 mm table seen about 560 px wide).
"""

from __future__ import annotations

import argparse
import json
import time

import cv2
import numpy as np
from table_scenes import SIZE_MM, render

from companion.errors import RecognitionFailure
from companion.table.profile import profile_from_markers


def measure(scenes: int, tilt: float, noise: float) -> dict[str, float]:
    errors: list[float] = []
    times: list[float] = []
    cpu_times: list[float] = []
    found = 0
    for seed in range(scenes):
        scene = render(seed, cards=4, tilt=tilt, noise=noise)
        started, cpu_started = time.perf_counter(), time.thread_time()
        try:
            profile = profile_from_markers(scene.frame, size_mm=SIZE_MM)
        except RecognitionFailure:
            continue
        times.append(time.perf_counter() - started)
        cpu_times.append(time.thread_time() - cpu_started)
        found += 1
        for card_px, card_mm in zip(scene.cards_px, scene.cards_mm, strict=True):
            errors.extend(np.linalg.norm(profile.to_table(card_px) - card_mm, axis=1))
    return {
        "found": round(found / scenes, 4),
        "error_mm_mean": round(float(np.mean(errors)), 3),
        "error_mm_p95": round(float(np.percentile(errors, 95)), 3),
        "error_mm_max": round(float(np.max(errors)), 3),
        "ms_median": round(1000 * float(np.median(times)), 2),
        "cpu_ms_median": round(1000 * float(np.median(cpu_times)), 2),  # this thread's own CPU time
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    conditions = {"straight above": (0.0, 0.0), "tilted 6%": (0.06, 3.0), "tilted 12%, noise 3": (0.12, 3.0)}
    results = {name: measure(args.scenes, tilt, noise) for name, (tilt, noise) in conditions.items()}
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
