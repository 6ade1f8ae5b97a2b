"""Briscola a chiamata: every bidding path, the call, the hidden partner and each scoring outcome."""

import pytest

from companion.cards import Card, Rank, Suit
from companion.engine import Event, GameRecord, random_game, replay
from companion.engine.families.chiamata import obligated_card

from .helpers import codes, play_out, record, state

CHIAMATA = "chiamata-5"
BUIA = {"preset": CHIAMATA, "options": {"buia": True}}
A_PUNTI = {"preset": CHIAMATA, "options": {"a_punti": True}}
#: Seat 1 wins the bidding with the 3 after seat 0 bid the As.
WON_BY_1 = "bid 0 1; bid 1 3; pass 2; pass 3; pass 4; pass 0"


@pytest.mark.parametrize(
    ("rules", "events", "expected", "winner", "target"),  # target: of the best bid standing
    [
        # outbidding: a lower rank beats a higher one; the bidding goes round until one is left
        (CHIAMATA, WON_BY_1, [], 1, 61),
        (CHIAMATA, "bid 0 12; bid 1 7; bid 2 4; pass 3; pass 4; pass 0; pass 1", [], 2, 61),
        (CHIAMATA, "bid 0 3; bid 1 1", [(1, "bad-bid")], None, 61),  # the As is higher than the 3
        (CHIAMATA, "bid 0 3; bid 1 3", [(1, "bad-bid")], None, 61),
        (CHIAMATA, "bid 0 8", [(0, "bad-bid")], None, None),  # no 8 in 40 cards
        # the 2 outbids every rank at 61; after it only higher targets
        (CHIAMATA, "bid 0 4; bid 1 2; pass 2; pass 3; pass 4; pass 0", [], 1, 61),
        (CHIAMATA, "bid 0 2; bid 1 2@62; pass 2; pass 3; pass 4; pass 0", [], 1, 62),
        (CHIAMATA, "bid 0 2; bid 1 2@61", [(1, "bad-bid")], None, 61),  # the plain 2 is 61
        (CHIAMATA, "bid 0 2@70; bid 1 2@70", [(1, "bad-bid")], None, 70),
        (CHIAMATA, "bid 0 2@65; bid 1 4", [(1, "bad-bid")], None, 65),  # a rank without a target
        (CHIAMATA, "bid 0 2@121", [(0, "bad-bid")], None, None),
        # an obligated call: the lowest card the bidder lacks, at a higher target
        (CHIAMATA, "bid 0 2; bid 1 4@64; pass 2; pass 3; pass 4; pass 0", [], 1, 64),
        (CHIAMATA, "bid 0 2@66; bid 1 4@66", [(1, "bad-bid")], None, 66),
        (CHIAMATA, "bid 0 4@61", [(0, "bad-bid")], None, None),  # an obligated call is above 61
        # turns
        (CHIAMATA, "bid 1 3", [(0, "bid-out-of-turn")], None, 61),
        (
            CHIAMATA,
            "bid 0 3; pass 1; bid 2 2; pass 3; pass 4; bid 0 2@62; bid 1 2@63",
            [(6, "bid-after-pass")],
            None,
            62,
        ),
        (CHIAMATA, WON_BY_1 + "; bid 2 2", [(6, "bid-closed")], 1, 61),
        # everybody passes: no game
        (CHIAMATA, "pass 0; pass 1; pass 2; pass 3; pass 4", [], None, None),
        # a punti: only points, each above the last
        (A_PUNTI, "bid 0 @61; bid 1 @75; pass 2; pass 3; pass 4; pass 0", [], 1, 75),
        (A_PUNTI, "bid 0 3", [(0, "bad-bid")], None, None),
        (A_PUNTI, "bid 0 @70; bid 1 @70", [(1, "bad-bid")], None, 70),
        (A_PUNTI, "bid 0 @60", [(0, "bad-bid")], None, None),
    ],
)
def test_bidding(rules, events, expected, winner, target):
    game = state(rules, events)
    assert codes(game) == expected
    assert (game.contract.declarer, game.contract.target) == (winner, target)


def test_everybody_passing_ends_the_game_without_a_contract():
    game = state(CHIAMATA, "pass 0; pass 1; pass 2; pass 3; pass 4")
    assert game.complete and game.ended_by == "all-passed" and game.winners == ()
    assert game.contract.made is None and game.contract.scores == ()


@pytest.mark.parametrize(
    ("bid", "stakes"),
    [("2", 1), ("2@62", 1), ("2@70", 1), ("2@71", 2), ("2@80", 2), ("2@81", 3), ("2@120", 6)],
)
def test_calls_to_the_2_raise_the_stakes_every_ten_points(bid, stakes):
    game = state(CHIAMATA, f"bid 0 {bid}; pass 1; pass 2; pass 3; pass 4")
    assert game.contract.declarer == 0 and game.contract.multiplier == stakes


def test_solo_interrupts_the_bidding_and_plays_without_trumps():
    game = state(CHIAMATA, "bid 0 3; solo 1; pass 2; call 1 3O; 0 1O; 1 5C; 2 3O; 3 12C; 4 2C")
    assert codes(game) == [(2, "bid-closed"), (3, "bad-call")]
    contract = game.contract
    assert contract.solo and contract.declarer == 1 and contract.target == 61 and contract.called is None
    assert game.trump_suit is None
    # without trumps the suit led commands: the As of oros wins, the copas do not count
    assert game.tricks[0].winner == 0 and game.tricks[0].points == 11 + 10 + 4


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (WON_BY_1 + "; call 1 3O", []),
        (WON_BY_1 + "; call 1 1O", [(6, "bad-call")]),  # not the rank bid
        (WON_BY_1 + "; call 2 3O", [(6, "bad-call")]),  # not the winner
        (WON_BY_1 + "; call 1 3O/E", [(6, "bad-call")]),  # the called card's suit is trumps
        ("bid 0 3; call 0 3O", [(1, "call-early")]),
        (WON_BY_1 + "; call 1 3O; call 1 3C", [(7, "call-again")]),
        (WON_BY_1 + "; 0 5C", [(6, "no-call")]),
        ("bid 0 3; 0 5C", [(1, "bidding")]),
        ("trump 3O", [(0, "no-trump-card")]),
        (WON_BY_1 + "; swap 1 7O", [(6, "no-face-up")]),
        (WON_BY_1 + "; talon 1 1O 1C", [(6, "not-in-rules")]),
    ],
)
def test_the_call(events, expected):
    assert codes(state(CHIAMATA, events)) == expected


def test_the_called_card_names_trumps_and_play_begins():
    game = state(CHIAMATA, WON_BY_1 + "; call 1 3O; 0 5C; 1 2O")
    assert game.trump_suit == Suit.OROS and game.tricks == () and game.to_play == 2
    assert game.contract.called == Card(Rank.TRES, Suit.OROS) and game.contract.side == (1,)


def test_buia_names_trumps_after_a_first_trick_played_without_them():
    first_trick = "0 1C; 1 3O; 2 12C; 3 2C; 4 4C"
    early = state(BUIA, WON_BY_1 + "; call 1 3O")
    assert codes(early) == [(6, "call-early")]
    blind = state(BUIA, f"{WON_BY_1}; {first_trick}; 0 5E")
    assert blind.tricks[0].winner == 0 and blind.trump_suit is None  # the 3 of oros did not trump
    assert codes(blind) == [(11, "no-call")]
    called = state(BUIA, f"{WON_BY_1}; {first_trick}; call 1 3O; 0 5E")
    assert codes(called) == [] and called.trump_suit == Suit.OROS
    # the called 3O fell in the first trick: its player, seat 1, is the caller itself
    assert called.contract.partner == 1 and called.contract.revealed == 11


def test_a_punti_calls_any_card_and_may_name_another_trump_suit():
    won = "bid 0 @61; bid 1 @75; pass 2; pass 3; pass 4; pass 0"
    game = state(A_PUNTI, won + "; call 1 7C/E")
    assert codes(game) == [] and game.trump_suit == Suit.ESPADAS
    assert game.contract.called == Card(Rank.SIETE, Suit.COPAS) and game.contract.multiplier == 2


@pytest.mark.parametrize(
    ("events", "expected", "partner", "revealed"),
    [
        ("call 1 3O; reveal 3 3O", [], 3, 7),
        ("call 1 3O; 0 5C; 1 4C; 2 3O", [], 2, 9),  # revealed by playing it
        ("call 1 3O; reveal 3 1O", [(7, "bad-reveal")], None, None),  # not the called card
        ("reveal 3 3O", [(6, "bad-reveal")], None, None),  # nothing called yet
        ("call 1 3O; reveal 3 3O; 0 5C; 1 4C; 2 3O", [(10, "bad-card")], 3, 7),  # seat 3 holds it
        ("call 1 3O; reveal 1 3O", [], 1, 7),  # the caller called its own card: alone
    ],
)
def test_the_partner_is_revealed(events, expected, partner, revealed):
    game = state(CHIAMATA, f"{WON_BY_1}; {events}")
    assert codes(game) == expected
    assert (game.contract.partner, game.contract.revealed) == (partner, revealed)


#: Seat 0 holds eight oros, seat 3 the 2 and 4 of oros: with oros trumps they win every trick.
HANDS = [
    "1O 3O 12O 11O 10O 7O 6O 5O",
    "1C 3C 12C 11C 10C 7C 6C 5C",
    "1E 3E 12E 11E 10E 7E 6E 5E",
    "2O 4O 2C 4C 2E 4E 2B 4B",
    "1B 3B 12B 11B 10B 7B 6B 5B",
]


@pytest.mark.parametrize(
    ("bid", "call", "made", "scores"),
    [
        ("2@85", "2O", True, (6, -3, -3, 3, -3)),  # with the partner, triple stakes
        ("4", "4B", False, (-2, 1, 1, -1, 1)),  # bastos trumps: seat 4 holds eight of them
        ("5", "5O", True, (4, -1, -1, -1, -1)),  # seat 0 called its own card: alone, +4
    ],
)
def test_scoring_outcomes_of_a_stacked_deal(bid, call, made, scores):
    game = play_out(CHIAMATA, f"bid 0 {bid}; pass 1; pass 2; pass 3; pass 4; call 0 {call}", HANDS)
    assert game.complete and game.valid, game.issues
    contract = game.contract
    assert contract.made is made and contract.scores == scores and sum(scores) == 0
    side_points = sum(trick.points for trick in game.tricks if trick.winner in contract.side)
    assert contract.side_points == side_points and game.winners == (
        contract.side if made else tuple(s for s in range(5) if s not in contract.side)
    )


def test_a_stacked_solo_without_trumps():
    game = play_out(CHIAMATA, "solo 0", HANDS)
    # without trumps, seat 0 leads oros and nobody else holds a better oros: seat 0 takes every trick
    assert game.valid and game.contract.made and game.contract.scores == (4, -1, -1, -1, -1)
    assert game.points[0] == 120 and game.trump_suit is None


def test_obligated_calls_are_checked_against_the_hand_once_it_is_known():
    # seat 3 holds the 2 and 4 of oros: its lowest missing oros is the 5
    assert obligated_card(frozenset(map(Card.parse, HANDS[3].split())), Suit.OROS) == Card(
        Rank.CINCO, Suit.OROS
    )
    good = play_out(CHIAMATA, "bid 0 2; pass 1; pass 2; bid 3 5@66; pass 4; pass 0; call 3 5O", HANDS)
    assert codes(good) == [] and good.contract.partner == 0
    bad = play_out(CHIAMATA, "bid 0 2; pass 1; pass 2; bid 3 6@66; pass 4; pass 0; call 3 6O", HANDS)
    assert codes(bad) == [(None, "bad-obligated-call")]
    no_two = play_out(
        CHIAMATA, "bid 0 2; bid 1 2@63; pass 2; pass 3; bid 4 5@66; pass 0; pass 1; call 4 5C", HANDS
    )
    assert codes(no_two) == [(None, "bad-obligated-call")]


@pytest.mark.parametrize("rules", [CHIAMATA, BUIA, A_PUNTI])
@pytest.mark.parametrize(
    ("kind", "made"), [(kind, made) for kind in ("pair", "alone", "solo") for made in (True, False)]
)
def test_each_scoring_outcome_of_random_games(rules, kind, made):
    """Caller 2, partner 1, opponents 1 each way; alone or solo 4 against 1 each; times the stakes."""
    for seed in range(400):
        game = replay(random_game(rules, seed))
        contract = game.contract
        found = "solo" if contract.solo else "alone" if contract.partner == contract.declarer else "pair"
        if (found, contract.made) == (kind, made):
            break
    else:
        pytest.fail(f"no random {rules} game is a {kind} contract with made={made}")
    sign = contract.multiplier if made else -contract.multiplier
    caller, partner = (4, None) if kind != "pair" else (2, 1)
    expected = [
        sign * caller if seat == contract.declarer else sign * partner if seat == contract.partner else -sign
        for seat in range(5)
    ]
    assert list(contract.scores) == expected and sum(contract.scores) == 0
    assert (contract.side_points >= contract.target) is made


def test_a_record_with_the_bidding_round_trips_through_json():
    game = random_game(BUIA, 3)
    assert GameRecord.from_dict(game.to_dict()) == game


def test_bids_are_corrected_like_any_event():
    auction = record(CHIAMATA, WON_BY_1)
    raised = replay(auction.append(Event("amend", ref=1, rank=Rank.DOS, points=75)))
    assert raised.contract.declarer == 1 and (raised.contract.target, raised.contract.multiplier) == (75, 2)
    reopened = replay(auction.append(Event("void", ref=5)))  # seat 0 did not pass after all
    assert reopened.contract.declarer is None and reopened.valid


@pytest.mark.parametrize("rules", ["brisca-2", "chile-4"])
def test_bidding_events_outside_the_bidding_families_are_reported(rules):
    assert codes(state(rules, "bid 0 3; pass 1; call 0 /O")) == [
        (0, "not-in-rules"),
        (1, "not-in-rules"),
        (2, "not-in-rules"),
    ]
