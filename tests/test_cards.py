import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import (
    TRICK_ORDER,
    UNKNOWN,
    Card,
    Rank,
    Suit,
    beats,
    deck,
    trick_winner,
)
from companion.errors import MalformedInput

ALL = deck(48)


@pytest.mark.parametrize("card", ALL, ids=str)
def test_parse_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1o", "1O"), (" 12B ", "12B"), ("10c", "10C"), ("7e", "7E")],
)
def test_parse_is_case_insensitive_and_canonical(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(("italian", "spanish"), [("8O", "10O"), ("9C", "11C"), ("10E", "12E"), ("7B", "7B")])
def test_italian_numbering_maps_courts(italian, spanish):
    assert Card.parse(italian, italian=True) == Card.parse(spanish)


@pytest.mark.parametrize("bad", ["", "0O", "13O", "1X", "O1", "11", "12BB", "11C "[:2]])
def test_parse_rejects_non_cards(bad):
    with pytest.raises(MalformedInput, match="not a card"):
        Card.parse(bad)


def test_italian_numbering_has_no_11_or_12():
    with pytest.raises(MalformedInput):
        Card.parse("11O", italian=True)


@pytest.mark.parametrize(("size", "absent"), [(48, set()), (40, {8, 9}), (36, {2, 8, 9}), (32, {2, 4, 8, 9})])
def test_decks(size, absent):
    cards = deck(size)
    assert len(cards) == size == len(set(cards))
    assert {int(c.rank) for c in cards} == set(range(1, 13)) - absent
    assert sum(c.points for c in cards) == 120


def test_no_such_deck():
    with pytest.raises(MalformedInput, match="no deck of 52"):
        deck(52)


def test_trick_order_and_points():
    assert [int(r) for r in TRICK_ORDER] == [2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 3, 1]
    assert {int(c.rank): c.points for c in deck(48) if c.suit is Suit.OROS} == {
        1: 11,
        2: 0,
        3: 10,
        4: 0,
        5: 0,
        6: 0,
        7: 0,
        8: 0,
        9: 0,
        10: 2,
        11: 3,
        12: 4,
    }


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        (["7C", "4C"], "O", 0),  # zero-point cards of one suit: 7 beats 4
        (["4C", "7C"], "O", 1),
        (["1C", "2O"], "O", 1),  # any trump beats the suit led
        (["2O", "1C"], "O", 0),  # a trump led is not beaten by another suit
        (["5C", "1E"], "O", 0),  # a card of another suit never wins
        (["3B", "1B", "12B"], "O", 1),
        (["12E", "3E", "2O", "4O"], "O", 3),
        (["10C", "11C"], None, 1),  # no trump at all
    ],
)
def test_trick_winner(cards, trump, winner):
    parsed = [Card.parse(c) for c in cards]
    assert trick_winner(parsed, Suit(trump) if trump else None) == winner


@given(st.sampled_from(ALL), st.sampled_from(ALL), st.sampled_from(list(Suit)))
def test_exactly_one_of_two_distinct_cards_wins(a, b, trump):
    if a != b:
        assert trick_winner([a, b], trump) in (0, 1)
        assert not (beats(a, b, trump) and beats(b, a, trump))


def test_unknown_card():
    assert str(UNKNOWN) == "??"
    assert Card(Rank.AS, Suit.OROS) != UNKNOWN
