"""Teaching and listing decks, with made-up artwork in a temporary data folder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from identifier_cards import SMALL_DECK, card_image, write_deck

from companion.cli import main
from companion.errors import MalformedInput, MissingResource, UnknownName
from companion.vision.decks import (
    DeckReferences,
    ViewRange,
    augment,
    list_decks,
    load_deck,
    read_card_images,
    teach,
    whitening,
)
from companion.vision.identifier import Identifier

cv2.setNumThreads(1)

SHIPPED = {"fournier-1878": 40, "naipes-libres": 48, "napoletane": 40, "bergamasche": 40}


@pytest.fixture(scope="module")
def identifier() -> Identifier:
    return Identifier.from_file()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    return tmp_path


def test_shipped_decks_are_listed_with_their_card_counts() -> None:
    shipped = {d.name: len(d.cards) for d in list_decks() if d.origin == "shipped"}
    assert shipped == SHIPPED


def test_a_taught_deck_is_listed_and_recognised(data: Path, identifier: Identifier) -> None:
    images = write_deck(data / "cards", SMALL_DECK)
    references, seconds = teach("home-deck", data / "cards", identifier)
    assert references.cards == SMALL_DECK
    assert 0 < seconds < 120
    listed = {d.name: d for d in list_decks()}
    assert listed["home-deck"].origin == "taught"
    assert len(listed["home-deck"].cards) == len(SMALL_DECK)
    rng = np.random.default_rng(3)
    cards = [card for card in SMALL_DECK for _ in range(3)]
    crops = np.stack([augment(images[card], rng) for card in cards])
    read = [ranked[0][0] for ranked in identifier.rank(crops, load_deck("home-deck"))]
    assert np.mean([r == c for r, c in zip(read, cards, strict=True)]) >= 0.95


def test_a_card_drawn_small_or_soft_yields_a_crop_with_less_detail() -> None:
    image = card_image(SMALL_DECK[0])
    sharp = ViewRange(heights=(280, 280), blur=0.31)

    def detail(views: ViewRange) -> float:
        rng = np.random.default_rng(5)
        crops = [cv2.cvtColor(augment(image, rng, views), cv2.COLOR_BGR2GRAY) for _ in range(12)]
        return float(np.mean([cv2.Laplacian(c, cv2.CV_32F).var() for c in crops]))

    assert detail(ViewRange(heights=(40, 40), blur=0.31)) < 0.5 * detail(sharp)
    assert detail(ViewRange(heights=(280, 280), blur=3.0)) < detail(sharp)


def test_teaching_writes_only_references(data: Path, identifier: Identifier) -> None:
    write_deck(data / "cards", SMALL_DECK[:4])
    teach("tiny", data / "cards", identifier)
    assert [p.name for p in (data / "data" / "decks").iterdir()] == ["tiny.npz"]


@pytest.mark.parametrize(
    ("name", "error"),
    [("fournier-1878", MalformedInput), ("Bad Name", MalformedInput), ("", MalformedInput)],
)
def test_teach_refuses_bad_or_shipped_names(
    data: Path, identifier: Identifier, name: str, error: type
) -> None:
    write_deck(data / "cards", SMALL_DECK[:2])
    with pytest.raises(error, match="deck"):
        teach(name, data / "cards", identifier)


def test_reading_a_folder_without_cards_fails_clearly(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no cards here")
    with pytest.raises(MalformedInput, match="no card images"):
        read_card_images(tmp_path)
    with pytest.raises(MissingResource, match="absent"):
        read_card_images(tmp_path / "absent")


def test_an_unreadable_card_image_is_named(tmp_path: Path) -> None:
    (tmp_path / "7O.png").write_bytes(b"not a png")
    with pytest.raises(MalformedInput, match=r"7O\.png"):
        read_card_images(tmp_path)


def test_unknown_deck_lists_the_known_ones(data: Path) -> None:
    with pytest.raises(UnknownName, match=r"'nope'.*fournier-1878"):
        load_deck("nope")


def test_deck_commands(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_deck(data / "cards", SMALL_DECK[:4])
    assert main(["deck", "teach", "cli-deck", str(data / "cards"), "--json"]) == 0
    taught = json.loads(capsys.readouterr().out)
    assert taught["deck"] == "cli-deck" and taught["cards"] == 4 and taught["seconds"] > 0
    assert main(["deck", "list", "--json"]) == 0
    listed = {d["deck"]: d for d in json.loads(capsys.readouterr().out)}
    assert listed["cli-deck"]["origin"] == "taught" and listed["cli-deck"]["cards"] == 4
    assert set(SHIPPED) <= set(listed)
    assert main(["deck", "teach", "x", str(data / "absent")]) == 2
    assert "absent" in capsys.readouterr().err


def test_whitening_makes_the_views_spread_alike_in_every_direction() -> None:
    rng = np.random.default_rng(0)
    means = rng.normal(0, 5, (6, 2, 1, 8))
    views = means + rng.normal(0, 1, (6, 2, 400, 8)) * np.geomspace(0.05, 3, 8)  # stretched spread
    white = whitening(views, shrink=0.0)
    spread = ((views - views.mean(axis=2, keepdims=True)) @ white).reshape(-1, 8)
    np.testing.assert_allclose(spread.T @ spread / len(spread), np.eye(8), atol=1e-3)
    shrunk = ((views - views.mean(axis=2, keepdims=True)) @ whitening(views, shrink=0.5)).reshape(-1, 8)
    assert shrunk.var(axis=0).max() < 2 and shrunk.var(axis=0).min() < 0.1  # weak directions stay weak


def test_references_from_an_older_version_ask_to_teach_again(tmp_path: Path) -> None:
    old = tmp_path / "old.npz"
    np.savez(old, cards=np.array(["1O"]), embeddings=np.zeros((2, 4)), owners=np.zeros(2), meta="{}")
    with pytest.raises(MalformedInput, match="older version: teach it again"):
        DeckReferences.load(old, "taught")


def test_an_unreadable_taught_deck_is_left_out_and_named(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = data / "data" / "decks" / "old-deck.npz"
    stale.parent.mkdir(parents=True)
    np.savez(stale, cards=np.array(["1O"]), embeddings=np.zeros((2, 4)), owners=np.zeros(2), meta="{}")
    assert {d.name for d in list_decks()} == set(SHIPPED)
    assert main(["deck", "list", "--json"]) == 0
    listed = {d["deck"]: d for d in json.loads(capsys.readouterr().out)}
    assert "teach it again" in listed["old-deck"]["unreadable"]
    assert set(SHIPPED) <= set(listed)
    assert main(["deck", "list"]) == 0
    assert "old-deck" in capsys.readouterr().out
