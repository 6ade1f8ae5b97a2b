"""Naming the cards of successive frames: a card lying as it lay keeps its reading; a card that
came, moved or changed is read again, and every name is the identifier's own."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.pipeline.naming import StillCardNamer
from companion.vision.decks import load_deck
from companion.vision.identifier import Identifier, rectify
from companion.vision.readings import Face, Reading

cv2.setNumThreads(1)


def _card(seed: int) -> np.ndarray:
    """A white card with a few coloured shapes, different for each seed."""
    rng = np.random.default_rng(seed)
    card = np.full((155, 100, 3), 245, np.uint8)
    for _ in range(4):
        centre = (int(rng.integers(20, 80)), int(rng.integers(20, 135)))
        cv2.circle(card, centre, int(rng.integers(8, 18)), rng.integers(0, 200, 3).tolist(), -1)
    return card


def _quad(x: float, y: float) -> np.ndarray:
    return np.float32([[x, y], [x + 100, y], [x + 100, y + 155], [x, y + 155]])


def _frame(cards: list[tuple[np.ndarray, np.ndarray]], noise: int) -> np.ndarray:
    frame = np.clip(np.random.default_rng(noise).normal((60, 120, 50), 4, (400, 600, 3)), 0, 255)
    frame = frame.astype(np.uint8)
    for image, quad in cards:
        x, y = quad[0].astype(int)
        frame[y : y + 155, x : x + 100] = image
    return frame


@pytest.fixture(scope="module")
def namer_parts() -> tuple[Identifier, object]:
    return Identifier.from_file(), load_deck("fournier-1878")


def _readings(*quads: np.ndarray) -> list[Reading]:
    return [Reading(q, Face.UP, 0.9) for q in quads] + [Reading(_quad(450, 200), Face.DOWN, 0.8)]


def test_still_cards_are_read_once_and_keep_the_identifiers_names(namer_parts) -> None:
    identifier, references = namer_parts
    namer = StillCardNamer(identifier, references)
    a, b = _quad(50, 40), _quad(250, 60)
    cards = [(_card(1), a), (_card(2), b)]
    first = namer.name(_frame(cards, noise=0), _readings(a, b))
    again = namer.name(_frame(cards, noise=1), _readings(a + 0.5, b))  # sensor noise, a jittery quad
    assert (namer.reads, namer.kept) == (2, 2)
    assert [r.alternatives for r in again] == [r.alternatives for r in first]
    assert [r.strangeness for r in again] == [r.strangeness for r in first] and first[0].strangeness > 0
    direct = identifier.rank(np.stack([rectify(_frame(cards, noise=0), q) for q in (a, b)]), references)
    assert [list(r.alternatives) for r in first[:2]] == direct
    assert first[2].face is Face.DOWN and first[2].card is None


def test_a_card_that_changed_or_moved_is_read_again(namer_parts) -> None:
    namer = StillCardNamer(*namer_parts)
    a, b = _quad(50, 40), _quad(250, 60)
    namer.name(_frame([(_card(1), a), (_card(2), b)], noise=0), _readings(a, b))
    namer.name(_frame([(_card(1), a), (_card(3), b)], noise=0), _readings(a, b))  # another card at b
    assert (namer.reads, namer.kept) == (3, 1)
    moved = a + np.float32([12, 0])
    namer.name(_frame([(_card(1), moved), (_card(3), b)], noise=0), _readings(moved, b))
    assert (namer.reads, namer.kept) == (4, 2)
