"""Cards found one by one inside blobs of touching or overlapping cards, and hands left alone."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.table import peel
from companion.table.peel import REMEMBERED, Peeler, peel_cards

cv2.setNumThreads(1)
CARD = (31.0, 48.0)  # a card's sides in px at the proposer's 0.5 px/mm


def card(centre: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints((centre, CARD, angle))


def blob(*cards: np.ndarray) -> np.ndarray:
    mask = np.zeros((300, 300), np.uint8)
    for corners in cards:
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    return mask


def centre_error(found: list[tuple[np.ndarray, float]], truth: list[np.ndarray]) -> float:
    """The largest distance from a true card's centre to the nearest found card's centre."""
    centres = [corners.mean(axis=0) for corners, _ in found]
    return max(min(np.linalg.norm(c - t.mean(axis=0)) for c in centres) for t in truth)


@pytest.mark.parametrize(
    "cards",
    [
        [card((150, 150), 0), card((175, 150), 90)],  # the trump card half under the stock
        [card((150, 150), 20), card((175, 165), 50)],  # two cards of a trick overlapping
        [card((150, 150), 0), card((165, 180), 10)],
        [card((140, 140), 70), card((160, 170), 15), card((185, 140), 40)],
    ],
    ids=["trump-beside-stock", "trick-overlap", "corner-over-corner", "three"],
)
def test_touching_and_overlapping_cards_are_found_one_by_one(cards: list[np.ndarray]) -> None:
    found = peel_cards(blob(*cards), CARD)
    assert len(found) == len(cards)
    assert centre_error(found, cards) < 5.0  # px, 10 mm on the table
    assert all(cover >= 0.9 for _, cover in found)


def test_a_card_showing_less_than_half_of_itself_beside_another_is_found_only_when_asked() -> None:
    """Two cards 13 px apart across their short sides: whichever is found second shows 0.42 of
    itself beyond the first, too little against the empty table (a stray piece beside a card is no
    card), enough on a pile where the next card was tossed over it."""
    cards = [card((150, 150), 90), card((150, 163), 92)]
    assert len(peel_cards(blob(*cards), CARD)) == 1
    found = peel_cards(blob(*cards), CARD, least_new=0.35)
    assert len(found) == 2 and centre_error(found, cards) < 3.0
    assert len(Peeler(CARD, least_new=0.35)(blob(*cards))) == 2


def test_an_arm_and_a_palm_are_no_cards() -> None:
    mask = np.zeros((300, 300), np.uint8)
    cv2.line(mask, (150, 120), (150, 299), 255, 45)
    cv2.ellipse(mask, (150, 120), (27, 37), 0, 0, 360, 255, -1)
    assert peel_cards(mask, CARD) == []


def test_a_shape_with_no_straight_edges_gives_nothing() -> None:
    mask = np.zeros((300, 300), np.uint8)
    cv2.circle(mask, (150, 150), 40, 255, -1)
    assert peel_cards(mask, CARD) == []


def test_a_peeler_peels_a_blob_once_and_gives_its_cards_again_while_it_stays() -> None:
    calls = []
    peeler = Peeler(CARD)
    trick = blob(card((150, 150), 20), card((175, 165), 50))
    moved = blob(card((150, 150), 20), card((178, 165), 50))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(peel, "peel_cards", lambda mask, *args: calls.append(mask) or peel_cards(mask, *args))
        first, again, other = peeler(trick), peeler(trick.copy()), peeler(moved)
    assert len(calls) == 2 and calls[1] is moved
    assert _same(first, peel_cards(trick, CARD)) and _same(again, first)
    assert not _same(other, first)


def test_a_peeler_forgets_the_oldest_blobs_beyond_what_it_remembers() -> None:
    peeler = Peeler(CARD)
    blobs = [blob(card((100 + x, 150), 0), card((125 + x, 150), 90)) for x in range(REMEMBERED + 1)]
    calls = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(peel, "peel_cards", lambda mask, *args: calls.append(mask) or [])
        for mask in [*blobs, blobs[-1], blobs[0]]:
            peeler(mask)
    assert len(calls) == REMEMBERED + 2 and calls[-1] is blobs[0]


def _same(a: list[tuple[np.ndarray, float]], b: list[tuple[np.ndarray, float]]) -> bool:
    same = len(a) == len(b)
    return same and all(np.array_equal(p, q) and c == d for (p, c), (q, d) in zip(a, b, strict=same))
