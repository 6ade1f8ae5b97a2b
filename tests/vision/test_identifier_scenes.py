"""Identification measured on rendered table scenes of a made-up deck, whose truth is known."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import pytest
from identifier_cards import SMALL_DECK, card_image, write_deck

from companion.cli import main
from companion.datasets.decks import load_deck_images
from companion.training.scene_identification import GROUPS, WHOLE, SceneCard, measure, scene_cards
from companion.vision.decks import teach
from companion.vision.identifier import CROP_HEIGHT, CROP_WIDTH, Identifier

cv2.setNumThreads(1)

CARDS = SMALL_DECK[:8]


@pytest.fixture(scope="module")
def artwork(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shared") / "decks"
    write_deck(root / "made-up", CARDS)
    (root / "made-up" / "deck.json").write_text(json.dumps({"title": "made-up"}))
    return root


FLAT = {"1O": (0, 200, 230), "3C": (40, 40, 220), "7E": (200, 80, 20), "12B": (40, 170, 40)}
"""One plain colour (BGR) per card: the truth of a crop shows in its colour."""


def test_scene_cards_are_cut_out_with_their_true_identity(tmp_path: Path) -> None:
    folder = tmp_path / "flat"
    folder.mkdir()
    (folder / "deck.json").write_text(json.dumps({"title": "flat"}))
    for name, colour in FLAT.items():
        cv2.imwrite(str(folder / f"{name}.png"), np.full((156, 100, 3), colour, np.uint8))
    cards = list(islice(scene_cards(load_deck_images("flat", tmp_path), seed=3), 12))
    assert cards[-1].scene >= 1 and all(c.crop.shape == (CROP_HEIGHT, CROP_WIDTH, 3) for c in cards)
    assert all(0.25 <= c.visible <= 1 for c in cards)
    whole = [c for c in cards if c.visible >= WHOLE]
    assert whole
    for card in whole:  # a wholly visible card's crop has its own colour, whatever the light
        middle = card.crop[32:96, 20:60].reshape(-1, 3).mean(0)
        chroma = {n: np.float32(c) / sum(c) for n, c in FLAT.items()}
        closest = min(chroma, key=lambda n: np.abs(middle / middle.sum() - chroma[n]).sum())
        assert closest == str(card.card)


def test_measure_counts_each_group_and_its_confusions(tmp_path: Path) -> None:
    identifier = Identifier.from_file()
    folder = tmp_path / "cards"
    write_deck(folder, CARDS)
    references = teach("made-up", folder, identifier, into=tmp_path / "decks")[0]
    upright = {
        c: cv2.resize(card_image(c), (CROP_WIDTH, CROP_HEIGHT), interpolation=cv2.INTER_AREA) for c in CARDS
    }
    blank = np.full((CROP_HEIGHT, CROP_WIDTH, 3), 245, np.uint8)
    cards = [
        SceneCard(upright[CARDS[0]], CARDS[0], 1.0, (), 0),
        SceneCard(upright[CARDS[1]][::-1, ::-1].copy(), CARDS[1], 0.7, ("trick", "hand"), 0),
        SceneCard(upright[CARDS[2]], CARDS[3], 0.3, ("trump",), 1),  # labelled wrong on purpose
        SceneCard(blank, CARDS[4], 0.99, (), 1),
    ]
    report = measure(identifier, references, cards)
    assert set(report) == set(GROUPS)
    assert {g: report[g]["cards"] for g in GROUPS} == {
        "all": 4,
        "whole": 2,
        "mostly": 1,
        "hidden": 1,
        "trump": 1,
        "hand": 1,
    }
    assert report["mostly"]["top1"] == 1.0
    assert report["hidden"] == {"cards": 1, "top1": 0.0, "confusions": {f"{CARDS[3]}->{CARDS[2]}": 1}}
    assert report["all"]["top1"] == pytest.approx(1 - sum(report["all"]["confusions"].values()) / 4)


def test_eval_identifier_on_scenes_of_a_taught_deck(
    artwork: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    assert main(["deck", "teach", "made-up", str(artwork / "made-up"), "--json"]) == 0
    capsys.readouterr()
    args = ["eval", "identifier", "--scene-cards", "10", "--deck", "made-up", "--artwork", str(artwork)]
    assert main([*args, "--seed", "7", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["made-up"]
    assert report["all"]["cards"] == 10 and report["scenes"] >= 2
    assert report["whole"]["cards"] + report["mostly"]["cards"] + report["hidden"]["cards"] == 10
    assert report["whole"]["top1"] >= 0.75  # made-up cards, wholly in view: mostly read right
    assert main([*args, "--seed", "7"]) == 0
    assert capsys.readouterr().out.startswith(f"made-up: {report['scenes']} scenes; top-1 all ")
    assert main([*args[:3], "0", *args[4:]]) == 2
