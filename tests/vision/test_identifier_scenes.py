"""Identification measured on rendered table scenes of a made-up deck, whose truth is known."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import pytest
from identifier_cards import SMALL_DECK, card_image, write_deck

from companion.cards import Card
from companion.cli import main
from companion.datasets.decks import load_deck_images
from companion.datasets.scene import WHOLE
from companion.training.identifier import CARDS as CARDS_48
from companion.training.identifier import scene_crops
from companion.training.scene_identification import GROUPS, SceneCard, measure, scene_cards
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


@pytest.fixture(scope="module")
def flat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A decks folder holding the deck ``flat``: one plain colour per card."""
    root = tmp_path_factory.mktemp("flat-decks")
    folder = root / "flat"
    folder.mkdir()
    (folder / "deck.json").write_text(json.dumps({"title": "flat"}))
    for name, colour in FLAT.items():
        cv2.imwrite(str(folder / f"{name}.png"), np.full((156, 100, 3), colour, np.uint8))
    return root


def colour_of(crop: np.ndarray) -> str:
    """The card of :data:`FLAT` whose colour the middle of ``crop`` has, whatever the light."""
    middle = crop[32:96, 20:60].reshape(-1, 3).mean(0)
    chroma = {n: np.float32(c) / sum(c) for n, c in FLAT.items()}
    return min(chroma, key=lambda n: np.abs(middle / middle.sum() - chroma[n]).sum())


def test_scene_cards_are_cut_out_with_their_true_identity(flat: Path) -> None:
    cards = list(islice(scene_cards(load_deck_images("flat", flat), seed=3), 12))
    assert cards[-1].scene >= 1 and all(c.crops.shape[1:] == (CROP_HEIGHT, CROP_WIDTH, 3) for c in cards)
    assert all(0.25 <= c.visible <= 1 for c in cards)
    whole = [c for c in cards if c.visible >= WHOLE]
    assert whole
    assert all(colour_of(card.crops[0]) == str(card.card) for card in whole)


def test_jittered_corners_cut_the_same_cards_a_little_off(flat: Path) -> None:
    artwork = load_deck_images("flat", flat)
    exact = list(islice(scene_cards(artwork, seed=5), 6))
    jittered = list(islice(scene_cards(artwork, seed=5, jitter=0.05), 6))
    assert [(c.card, c.visible, c.scene) for c in exact] == [(c.card, c.visible, c.scene) for c in jittered]
    moved = [np.abs(a.crops[0].astype(int) - b.crops[0]).mean() for a, b in zip(exact, jittered, strict=True)]
    assert all(0 < m < 60 for m in moved)


def test_training_scene_crops_are_mostly_visible_cards_of_every_style(flat: Path) -> None:
    crops = scene_crops(("flat",), flat, per_card=3, seed=0)
    assert crops.images.shape == (12, CROP_HEIGHT, CROP_WIDTH, 3)
    assert {CARDS_48[i] for i in crops.labels} <= {Card.parse(n) for n in FLAT}
    seen = [colour_of(crop) for crop in crops.images]
    right = sum(s == str(CARDS_48[i]) for s, i in zip(seen, crops.labels, strict=True))
    assert right >= 10  # a hand may cover the middle of a card 60% in view


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
        SceneCard(upright[CARDS[0]][None], CARDS[0], 1.0, (), 0),
        SceneCard(upright[CARDS[1]][None, ::-1, ::-1].copy(), CARDS[1], 0.7, ("trick", "hand"), 0),
        SceneCard(upright[CARDS[2]][None], CARDS[3], 0.3, ("trump",), 1),  # labelled wrong on purpose
        SceneCard(blank[None], CARDS[4], 0.99, (), 1),
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
