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


def label_path(image: Path) -> Path:
    """A rendered scene's label file: ``DIR/images/SPLIT/NAME.jpg`` -> ``DIR/labels/SPLIT/NAME.txt``."""
    return image.parents[2] / "labels" / image.parent.name / f"{image.stem}.txt"


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


def _write_notes(out: Path, tags: dict[str, list[list[str]]], visible: dict[str, list[float]]) -> None:
    """What the label lines cannot hold: each line's tags, and how much of its card is in view."""
    (out / "tags.json").write_text(json.dumps(tags, indent=0, sort_keys=True))
    (out / "visible.json").write_text(json.dumps(visible, indent=0, sort_keys=True))


def write_dataset(
    out: Path, jobs: list[RenderJob], workers: int = 1, progress: bool = True
) -> dict[str, object]:
    """Render ``jobs`` into ``out`` (images/, labels/, tags.json, visible.json, data.yaml); returns
    counts."""
    from tqdm import tqdm

    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES))
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    tags: dict[str, list[list[str]]] = {}
    visible: dict[str, list[float]] = {}
    counts = {
        "images": {"train": 0, "val": 0},
        "cards": {"train": 0, "val": 0},
        "backs": {"train": 0, "val": 0},
    }
    for job, image, labels in tqdm(
        _results(jobs, workers), total=len(jobs), disable=not progress, unit="img"
    ):
        stem = f"{job.index:06d}"
        h, w = image.shape[:2]
        text = "".join(obb_line(label, w, h) + "\n" for label in labels)
        image_path = out / "images" / job.split / f"{stem}.jpg"
        label_path(image_path).write_text(text)  # first: no image without its label
        cv2.imwrite(str(image_path), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        tags[f"{job.split}/{stem}"] = [list(label.tags) for label in labels]
        visible[f"{job.split}/{stem}"] = [round(label.visible, 3) for label in labels]
        counts["images"][job.split] += 1
        counts["cards"][job.split] += sum(label.cls == 0 for label in labels)
        counts["backs"][job.split] += sum(label.cls == 1 for label in labels)
        if len(tags) % 100 == 0:  # a stopped render keeps the notes of what it wrote
            _write_notes(out, tags, visible)
    _write_notes(out, tags, visible)
    return counts


DATASET_CARD = """# Rendered card-table dataset

Rendered by `companion dataset render` (brisca-companion), seed {seed}, {total} images
({train} train, {val} val); face-up cards: {cards_train} train, {cards_val} val; backs:
{backs_train} train, {backs_val} val. Deck styles: {styles}. Longest image side capped at {max_side}.

Labels: ultralytics OBB (`class x1 y1 ... x4 y4`, normalised), class 0 `card` (face up),
1 `back`; the four physical corners of every card at least {min_visible:.0%} visible, also
where it is partly hidden. `tags.json` tags each label line: `trump` (face up under the stock),
`trick` (played to the table), `hand` (a hand or arm lies over part of it); `visible.json`
gives the fraction of each label line's card that is in view.

## What varies, and how (every draw comes from a seeded generator: image i uses seed [{seed}, i])
- Camera: frame sizes {sizes} (30% portrait); tilt 0-35 degrees off vertical (more often small),
  any azimuth, field of view 50-75 degrees.
- Card size: 5-16% of the longer frame side (15% of scenes 16-24%); aspect of the artwork.
- Table: felt, wood (grain, planks), plastic (speckle), plain, checked, gingham, dotted (also
  on gingham) and printed-pattern cloths with weave and wrinkles; pattern scale tied to card size.
- Cards: artwork of the styles above with rounded corners, paper tint, visible cardboard edge,
  drop shadow along one light direction; backs from the decks or invented (checks, stripes,
  diamonds, lattice, with or without an oval emblem).
- Layout: the stock (1-15 backs) crosswise over the face-up trump card (30-65% of its length out);
  0-4 trick cards overlapping; 0-3 messy stacks of backs; loose cards; sometimes a spread of
  cards; sometimes a phone, note, coaster or coins; in 30% of training images (never in
  validation ones) the printed table-corner markers near corners of the view, unlabelled.
- Hands: 0-2 hands (palm, four fingers, thumb, arm, sleeve) about three card widths long,
  mostly over or reaching for a face-up card, with their soft shadow.
- Light and sensor: warm to cool tint, brightness 0.6-1.25, linear falloff and vignette, a
  person's shade (30%), 0-2 glare spots, Gaussian or motion blur, Gaussian noise (sigma 1-8),
  JPEG quality 35-95.

## Held out for validation
Validation images draw cloth, object and sleeve colours only from hue bands {val_hues} of 12
(train never does), skin brightness {val_skin} (train never does), and light warmth
{val_warmth} (train never does).
"""


def write_card(out: Path, jobs: list[RenderJob], counts: dict[str, dict[str, int]]) -> None:
    """Write ``DATASET.md``: what the dataset holds and what was varied, and how."""
    from companion.datasets.camera import VAL_WARMTH
    from companion.datasets.hands import VAL_SKIN_VALUES
    from companion.datasets.palette import VAL_HUE_BANDS
    from companion.datasets.scene import FRAME_SIZES, MIN_VISIBLE

    first = jobs[0]
    text = DATASET_CARD.format(
        seed=first.seed,
        total=len(jobs),
        train=counts["images"]["train"],
        val=counts["images"]["val"],
        cards_train=counts["cards"]["train"],
        cards_val=counts["cards"]["val"],
        backs_train=counts["backs"]["train"],
        backs_val=counts["backs"]["val"],
        styles=", ".join(first.styles),
        max_side=first.max_side or "none",
        min_visible=MIN_VISIBLE,
        sizes=", ".join(f"{w}x{h}" for w, h in FRAME_SIZES),
        val_hues=list(VAL_HUE_BANDS),
        val_skin=VAL_SKIN_VALUES,
        val_warmth=VAL_WARMTH,
    )
    (out / "DATASET.md").write_text(text)
