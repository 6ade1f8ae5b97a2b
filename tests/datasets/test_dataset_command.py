"""``companion dataset render`` on a handful of images, and the real decks when present."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.datasets.decks import available_styles, load_deck_images
from companion.datasets.scene import Label
from companion.datasets.writer import obb_line, plan
from companion.errors import MalformedInput, UnknownName
from companion.paths import shared_dir


def test_render_command_writes_an_ultralytics_dataset(decks_folder: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "data"
    args = [
        "dataset",
        "render",
        "--count",
        "5",
        "--out",
        str(out),
        "--seed",
        "3",
        "--val-fraction",
        "0.4",
        "--max-side",
        "320",
        "--json",
    ]
    assert main(args) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["images"] == {"train": 3, "val": 2}
    assert sorted(p.name for p in (out / "images" / "val").iterdir()) == ["000000.jpg", "000001.jpg"]
    assert "names:\n  0: card\n  1: back" in (out / "data.yaml").read_text()
    assert "Held out for validation" in (out / "DATASET.md").read_text()
    tags = json.loads((out / "tags.json").read_text())
    visible = json.loads((out / "visible.json").read_text())
    for split, stems in (("train", ["000002", "000003", "000004"]), ("val", ["000000", "000001"])):
        for stem in stems:
            lines = (out / "labels" / split / f"{stem}.txt").read_text().splitlines()
            assert len(lines) == len(tags[f"{split}/{stem}"]) == len(visible[f"{split}/{stem}"])
            assert all(0.25 <= v <= 1 for v in visible[f"{split}/{stem}"])
            for line in lines:
                values = line.split()
                assert values[0] in ("0", "1") and len(values) == 9
                assert all(0 <= float(v) <= 1 for v in values[1:])
    assert counts["cards"]["train"] + counts["cards"]["val"] > 0

    again = tmp_path / "again"
    assert main([*args[:5], str(again), *args[6:]]) == 0
    first = (out / "images" / "train" / "000003.jpg").read_bytes()
    assert (again / "images" / "train" / "000003.jpg").read_bytes() == first  # deterministic per seed


def test_unknown_deck_style_is_a_clear_error(decks_folder: Path, tmp_path: Path, capsys) -> None:
    code = main(["dataset", "render", "--decks", "nope", "--count", "1", "--out", str(tmp_path / "x")])
    assert code == 2
    assert "no deck style 'nope'" in capsys.readouterr().err


def test_plan_rejects_bad_counts() -> None:
    with pytest.raises(MalformedInput, match="0"):
        plan(0, 1, 0.1, ("flat",), None)
    with pytest.raises(MalformedInput, match=r"1\.5"):
        plan(3, 1, 1.5, ("flat",), None)


def test_obb_line_normalises_corners() -> None:
    label = Label(1, np.array([[0, 0], [50, 0], [50, 100], [0, 100]], np.float32))
    assert (
        obb_line(label, 100, 200)
        == "1 0.000000 0.000000 0.500000 0.000000 0.500000 0.500000 0.000000 0.500000"
    )


def test_unknown_style_raises(decks_folder: Path) -> None:
    with pytest.raises(UnknownName, match="nope"):
        load_deck_images("nope")


@pytest.mark.skipif(not (shared_dir() / "decks").is_dir(), reason="needs the deck artwork in ../shared")
def test_every_shared_style_loads_with_rounded_corners() -> None:
    styles = available_styles()
    assert len(styles) >= 6
    for style in styles:
        deck = load_deck_images(style)
        assert len(deck.faces) >= 40
        for image in deck.faces.values():
            assert (
                image.shape[2] == 4
                and image[0, 0, 3] == 0
                and image[image.shape[0] // 2, image.shape[1] // 2, 3] == 255
            )
