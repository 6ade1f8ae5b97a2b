"""The pure legality rules, row by row."""

from dataclasses import replace

import pytest

from companion.cards import Card, Suit
from companion.engine import rules_for
from companion.engine.moves import (
    claim_cards,
    hunted_ace,
    legal_cards,
    redeal_allowed,
    revoke_cards,
    swap_target_problem,
    swap_timing_problem,
)

OROS = Suit.OROS
BASE = rules_for("brisca-2")
FOLLOW = replace(BASE, follow_suit=True)


def cards(text):
    return [Card.parse(word) for word in text.split()]


@pytest.mark.parametrize(
    ("rules", "trick", "card", "arrastre", "others", "owed"),
    [
        (BASE, "1C", "4E", False, "5C 2O", ""),  # no obligation at all
        (FOLLOW, "1C", "4C", False, "5C 2O", ""),  # followed
        (FOLLOW, "1C", "2O", False, "5C 3O 7E", "5C"),  # trumped while holding the suit
        (FOLLOW, "1C", "7E", False, "5C 3O 6E", "5C 3O"),  # neither followed nor trumped
        (FOLLOW, "", "7E", False, "5C 3O", ""),  # the leader owes nothing
        (BASE, "1O", "3O", True, "12O 2O 1C", ""),  # arrastre: the 3 is the best trump
        (BASE, "1O", "12O", True, "3O 2O 1C", "3O"),
        (BASE, "1O", "1C", True, "2O 3C", "2O"),  # any trump before another suit
        (BASE, "1O", "4C", True, "3E 2B", "3E"),  # then the best card of another suit
    ],
)
def test_revoke_cards(rules, trick, card, arrastre, others, owed):
    got = revoke_cards(rules, cards(trick), Card.parse(card), OROS, arrastre, cards(others))
    assert got == frozenset(cards(owed))


def test_legal_cards_under_follow_suit_and_cazar_el_tres():
    assert legal_cards(FOLLOW, cards("5C 2O 7E"), cards("1C"), OROS, False, set(), False) == cards("5C")
    assert legal_cards(FOLLOW, cards("2O 7E"), cards("1C"), OROS, False, set(), False) == cards("2O")
    cazar = replace(FOLLOW, cazar_tres=True)
    out = set(cards("3O 1O 7E"))
    assert legal_cards(cazar, cards("1O 7E"), cards("4O"), OROS, False, out, False) == cards("7E")
    assert legal_cards(cazar, cards("1O 7E"), cards("4O"), OROS, False, out, True) == cards("1O")
    assert hunted_ace(cazar, OROS, set(), False) is None  # the 3 was played
    assert hunted_ace(BASE, OROS, out, False) is None


@pytest.mark.parametrize(
    ("rules", "put", "face_up", "problem"),
    [
        (BASE, "7O", "1O", None),
        (BASE, "7O", "10O", None),
        (BASE, "7O", "6O", "cannot take"),
        (BASE, "2O", "7O", None),
        (BASE, "2O", "4O", None),
        (BASE, "2O", "12O", "cannot take"),
        (BASE, "7C", "1O", "only the 7 or the 2"),
        (BASE, "5O", "1O", "only the 7 or the 2"),
        (replace(BASE, swap_seven=False), "7O", "1O", "cannot take"),
        (rules_for("brisca-6"), "7O", "9O", None),
    ],
)
def test_swap_targets(rules, put, face_up, problem):
    got = swap_target_problem(rules, Card.parse(put), Card.parse(face_up), OROS)
    assert got is None if problem is None else problem in got


@pytest.mark.parametrize(
    ("until", "completed", "mid", "drawer", "seat", "allowed"),
    [
        ("drawn", 0, False, None, 0, True),
        ("drawn", 0, True, None, 0, False),
        ("drawn", 16, False, None, 0, True),
        ("drawn", 17, False, 1, 0, True),
        ("drawn", 17, False, 1, 1, False),
        ("last-draw", 16, False, None, 0, True),
        ("last-draw", 17, False, 1, 0, False),
        ("last-turn", 15, False, None, 0, True),
        ("last-turn", 16, False, None, 0, False),
    ],
)
def test_swap_timing(until, completed, mid, drawer, seat, allowed):
    rules = replace(BASE, swap_until=until)
    assert (swap_timing_problem(rules, seat, completed, mid, drawer) is None) == allowed


@pytest.mark.parametrize(
    ("trumps", "left", "needed"),
    [
        ("1O 3O 12O 2O", 3, "1O 3O 12O"),
        ("4O 11O 2O", 2, "11O 4O"),
        ("4O 11O", 3, None),  # not enough trumps left to take three tricks
        ("1O 3O 12O", 4, None),  # still drawing
    ],
)
def test_claim_cards(trumps, left, needed):
    got = claim_cards(BASE, cards(trumps), left)
    assert got == (frozenset(cards(needed)) if needed else None)


@pytest.mark.parametrize(
    ("hand", "allowed"),
    [("4C 5E 6C", True), ("4C 5E 10C", False), ("4C 5E 6O", False), ("4C 5E", False)],
)
def test_redeal_needs_three_blank_cards(hand, allowed):
    assert redeal_allowed(BASE, cards(hand), OROS) is allowed
