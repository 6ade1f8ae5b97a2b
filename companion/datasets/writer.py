"""Write rendered scenes as an ultralytics OBB dataset, with data.yaml and a dataset card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from companion.datasets.decks import load_deck_images
from companion.datasets.palette import Split
from companion.datasets.scene import CLASS_NAMES, Label, render_scene
from companion.errors import MalformedInput


@dataclass(frozen=True)
class RenderJob:
    """Everything one worker needs to render image ``index`` of a dataset."""

    index: int
    seed: int
    split: Split
    styles: tuple[str, ...]
    max_side: int | None


def obb_line(label: Label, width: int, height: int) -> str:
    """One ultralytics OBB label line: class and four corners normalised to the image size."""
    points = np.clip(label.corners / np.array([width, height], np.float32), 0.0, 1.0)
    return " ".join([str(label.cls), *(f"{v:.6f}" for v in points.ravel())])


def render_job(job: RenderJob) -> tuple[RenderJob, np.ndarray, list[Label]]:
    rng = np.random.default_rng([job.seed, job.index])
    decks = [load_deck_images(style) for style in job.styles]
    scene = render_scene(rng, decks, split=job.split, max_side=job.max_side)
    return job, scene.image, scene.labels


def plan(
    count: int, seed: int, val_fraction: float, styles: tuple[str, ...], max_side: int | None
) -> list[RenderJob]:
    """The jobs of a dataset: the first ``val_fraction`` of the indices render validation scenes."""
    if count < 1:
        raise MalformedInput(f"count must be at least 1, got {count}")
    if not 0 <= val_fraction < 1:
        raise MalformedInput(f"val fraction must be in [0, 1), got {val_fraction}")
    n_val = round(count * val_fraction)
    return [RenderJob(i, seed, "val" if i < n_val else "train", styles, max_side) for i in range(count)]


def _results(jobs: list[RenderJob], workers: int) -> Iterator[tuple[RenderJob, np.ndarray, list[Label]]]:
    if workers <= 1:
        yield from map(render_job, jobs)
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(render_job, jobs, chunksize=4)


def write_dataset(
    out: Path, jobs: list[RenderJob], workers: int = 1, progress: bool = True
) -> dict[str, object]:
    """Render ``jobs`` into ``out`` (images/, labels/, tags.json, data.yaml); returns counts."""
    from tqdm import tqdm

    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    tags: dict[str, list[list[str]]] = {}
    counts = {
        "images": {"train": 0, "val": 0},
        "cards": {"train": 0, "val": 0},
        "backs": {"train": 0, "val": 0},
    }
    for job, image, labels in tqdm(
        _results(jobs, workers), total=len(jobs), disable=not progress, unit="img"
    ):
        stem = f"{job.index:06d}"
        cv2.imwrite(str(out / "images" / job.split / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        h, w = image.shape[:2]
        text = "".join(obb_line(label, w, h) + "\n" for label in labels)
        (out / "labels" / job.split / f"{stem}.txt").write_text(text)
        tags[f"{job.split}/{stem}"] = [list(label.tags) for label in labels]
        counts["images"][job.split] += 1
        counts["cards"][job.split] += sum(label.cls == 0 for label in labels)
        counts["backs"][job.split] += sum(label.cls == 1 for label in labels)
    (out / "tags.json").write_text(json.dumps(tags, indent=0, sort_keys=True))
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES))
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    return counts
