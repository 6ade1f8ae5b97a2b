"""chile-remate-3: the auction, the talon, the discards, named trumps, the 40 and the last trick."""

import pytest

from companion.cards import Card, Suit

from .helpers import codes, play_out, state

REMATE = "chile-remate-3"
#: Seat 1 wins the auction at 110.
WON_BY_1 = "bid 0 @100; bid 1 @110; pass 2; pass 0"
READY = WON_BY_1 + "; talon 1 12C 11C; discard 1 12C 11C; call 1 /O"


@pytest.mark.parametrize(
    ("events", "expected", "winner", "bid"),
    [
        (WON_BY_1, [], 1, 110),
        ("bid 0 @100; pass 1; pass 2", [], 0, 100),
        ("bid 0 @100; bid 1 @120; bid 2 @170; pass 0; pass 1", [], 2, 170),
        ("bid 0 @95", [(0, "bad-bid")], None, None),  # bids start at 100
        ("bid 0 @105", [(0, "bad-bid")], None, None),  # in tens
        ("bid 0 @180", [(0, "bad-bid")], None, None),  # 170 is every point there is
        ("bid 0 @110; bid 1 @100", [(1, "bad-bid")], None, 110),
        ("bid 0 3", [(0, "bad-bid")], None, None),  # points, not a rank
        ("bid 0 @100; bid 2 @110", [(1, "bid-out-of-turn")], None, 110),
        ("bid 0 @100; solo 1", [(1, "not-in-rules")], None, 100),
        ("pass 0; pass 1; pass 2", [], None, None),
    ],
)
def test_the_auction(events, expected, winner, bid):
    game = state(REMATE, events)
    assert codes(game) == expected
    assert (game.contract.declarer, game.contract.target) == (winner, bid)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (READY, []),
        (WON_BY_1 + "; 0 5C", [(4, "no-talon")]),
        (WON_BY_1 + "; talon 1 12C 11C; 0 5C", [(5, "no-discard")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 12C 11C; 0 5C", [(6, "no-call")]),
        ("bid 0 @100; talon 0 12C 11C", [(1, "bad-talon")]),  # the auction is still open
        (WON_BY_1 + "; talon 1 12C", [(4, "bad-talon")]),
        (WON_BY_1 + "; talon 2 12C 11C", [(4, "bad-talon")]),
        (WON_BY_1 + "; talon 1 12C 11C; talon 1 1O 3O", [(5, "bad-talon")]),
        (WON_BY_1 + "; discard 1 12C 11C", [(4, "bad-discard")]),  # before the talon
        (WON_BY_1 + "; talon 1 12C 11C; discard 0 1O 3O", [(5, "bad-discard")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 1O", [(5, "bad-discard")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 1O 3O; discard 1 5O 6O", [(6, "bad-discard")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 12C 2O", [(5, "bad-discard")]),  # no 2 in 32 cards
        (READY + "; call 1 /E", [(7, "bad-call")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 12C 11C; call 1 1O", [(6, "bad-call")]),
        (WON_BY_1 + "; talon 1 12C 11C; discard 1 12C 11C; call 0 /O", [(6, "bad-call")]),
        ("trump 3O", [(0, "no-trump-card")]),
        (READY + "; reveal 1 1O", [(7, "not-in-rules")]),
    ],
)
def test_talon_discards_and_trumps(events, expected):
    assert codes(state(REMATE, events)) == expected


def test_the_talon_is_shown_and_taken_and_the_discards_score_for_the_bidder():
    game = state(REMATE, READY)
    contract = game.contract
    assert [str(card) for card in contract.talon] == ["12C", "11C"] == [str(c) for c in contract.discards]
    assert game.points == (0, 4 + 3, 0) and game.trump_suit == Suit.OROS and game.to_play == 0
    shown = state(REMATE, WON_BY_1 + "; talon 1 1O 3O").unseen
    assert not {Card.parse("1O"), Card.parse("3O")} & shown and len(shown) == 30
    # the talon's cards are known in the bidder's hand; discards are out of play
    assert codes(state(REMATE, WON_BY_1 + "; talon 1 1O 3O; discard 1 12C 11C; call 1 /O; 0 1O")) == [
        (7, "bad-card")
    ]
    assert codes(state(REMATE, READY + "; 0 12C")) == [(7, "bad-card")]


@pytest.mark.parametrize(
    ("events", "expected", "declared"),
    [
        ("declare 2 11O 12O", [], 2),
        ("declare 2 11E 12E", [(7, "bad-declare")], None),  # not trumps
        ("declare 2 10O 12O", [(7, "bad-declare")], None),
        ("declare 2 11O 12O; declare 0 11O 12O", [(8, "bad-declare")], 2),
        ("0 11O; 1 5C; 2 6C; declare 2 11O 12O", [(10, "bad-declare")], None),  # 11O was played
    ],
)
def test_the_declaration_of_caballo_and_rey_of_trumps(events, expected, declared):
    game = state(REMATE, f"{READY}; {events}")
    assert codes(game) == expected and game.contract.declared == declared
    assert (game.points[2] >= 40) is (declared == 2)
    early = state(REMATE, WON_BY_1 + "; talon 1 12C 11C; declare 2 11O 12O")
    assert codes(early) == [(5, "bad-declare")]  # before trumps were named
    discarded = state(REMATE, WON_BY_1 + "; talon 1 12C 11C; discard 1 11O 1C; call 1 /O; declare 1 11O 12O")
    assert codes(discarded) == [(7, "bad-declare")]


HANDS = [
    "5C 6C 7C 10C 1E 3E 12E 11E 10E 7E",
    "1C 3C 1O 3O 12O 11O 10O 7O 6O 5O",  # every trump: seat 1 takes every trick
    "6E 5E 1B 3B 12B 11B 10B 7B 6B 5B",
]


def test_a_bidder_who_reaches_the_bid_scores_it_with_the_40_and_the_last_trick():
    prefix = READY + "; declare 1 11O 12O"
    game = play_out(REMATE, prefix, HANDS)
    assert game.complete and game.valid, game.issues
    contract = game.contract
    assert game.points == (0, 170, 0) and sum(game.points) == 170
    assert contract.declared == 1 and contract.last_trick == game.tricks[-1].winner == 1
    assert contract.made and contract.scores == (0, 110, 0) and game.winners == (1,)


def test_a_bidder_who_falls_short_gives_half_the_bid_to_each_other_seat():
    prefix = "bid 0 @100; pass 1; pass 2; talon 0 12C 11C; discard 0 12C 11C; call 0 /O; declare 1 11O 12O"
    game = play_out(REMATE, prefix, HANDS)
    assert game.complete and game.valid, game.issues
    contract = game.contract
    last = game.tricks[-1].winner
    assert sum(game.points) == 170 and game.points[1] >= 40 + (10 if last == 1 else 0)
    assert contract.side_points == game.points[0] < 100
    assert not contract.made and contract.scores == (0, 50, 50) and game.winners == (1, 2)


def test_without_the_declaration_the_game_hands_out_130_points():
    game = play_out(REMATE, READY, HANDS)
    assert game.valid and sum(game.points) == 130 and game.contract.declared is None
