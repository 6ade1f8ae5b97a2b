"""Golden records: what the engine must decide for each corner of the rules."""

import pytest

from companion.cards import Card
from companion.engine import replay

from .helpers import record


def codes(state):
    return [(issue.event, issue.code) for issue in state.issues]


@pytest.mark.parametrize(
    ("events", "winner", "points", "reason"),
    [
        ("trump 3O; 0 4C; 1 7C", 1, 0, "highest card of the suit led"),  # zero-point cards: 7 beats 4
        ("trump 3O; 0 1C; 1 2O", 1, 11, "trump beats the suit led"),  # the lowest trump beats an As led
        ("trump 3O; 0 2C; 1 1E", 0, 11, "nobody followed"),  # another suit never wins
        ("trump 3O; 0 4O; 1 5O", 1, 0, "highest trump"),
        ("trump 3O; 0 3C; 1 12C", 0, 14, "highest card of the suit led"),  # 3 beats Rey
        ("trump 3O; 0 12O; 1 1C", 0, 15, "highest trump"),  # a trump led and not followed
    ],
)
def test_trick_winner_points_and_reason(events, winner, points, reason):
    state = replay(record("brisca-2", events))
    (trick,) = state.tricks
    assert (trick.winner, trick.points, trick.leader) == (winner, points, 0)
    assert reason in trick.reason
    assert state.points[winner] == points and state.leader == winner and state.to_play == winner
    assert state.valid


def test_three_players_use_36_cards_and_the_winner_leads():
    state = replay(record("brisca-3", "trump 5B; 1 1O; 2 3O; 0 12B; 0 4C", first=1))
    assert state.tricks[0].plays == ((1, Card.parse("1O")), (2, Card.parse("3O")), (0, Card.parse("12B")))
    assert (state.tricks[0].winner, state.points) == (0, (25, 0, 0))
    assert state.current == ((0, Card.parse("4C")),) and state.to_play == 1 and state.valid
    assert replay(record("brisca-3", "trump 5B; 0 2O")).issues[0].code == "bad-card"  # no 2s in 36 cards


def test_six_players_score_as_two_teams_of_three():
    state = replay(record("brisca-6", "trump 8B; 0 1O; 1 3O; 2 9O; 3 12O; 4 8O; 5 2B"))
    assert state.tricks[0].winner == 5
    assert state.team_points == (0, 25) and state.points[5] == 25 and state.valid


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ("trump 3O; 1 5C", [(1, "out-of-turn")]),
        ("trump 3O; 0 5C; 1 5C", [(2, "bad-card")]),  # seen twice
        ("trump 3O; 0 3O", [(1, "bad-card")]),  # still face up under the stock
        ("trump 3O; 0 9C", [(1, "bad-card")]),  # not in a 40-card deck
        ("0 5C; trump 3O", [(0, "no-trump"), (1, "trump-late")]),
        ("trump 3O; trump 4O", [(1, "trump-again")]),
        ("trump 3O; 2 5C", [(1, "no-such-seat")]),
    ],
)
def test_inconsistencies_become_issues_naming_the_event(events, expected):
    assert codes(replay(record("brisca-2", events))) == expected


def test_swap_with_the_seven_and_the_two():
    state = replay(record("brisca-2", "trump 1O; 0 4C; 1 5C; swap 1 7O; 1 6C; 0 7C; swap 1 2O"))
    assert [(s.seat, str(s.put), str(s.took)) for s in state.swaps] == [(1, "7O", "1O"), (1, "2O", "7O")]
    assert state.valid and state.face_up == Card.parse("2O")
    state = replay(record("brisca-2", "trump 12O; swap 0 7O; swap 1 2O"))
    assert state.face_up == Card.parse("2O") and state.valid
    assert Card.parse("12O") not in state.unseen and Card.parse("7O") not in state.unseen


def test_a_card_taken_in_a_swap_is_known_in_the_hand_that_took_it_until_played():
    state = replay(record("brisca-2", "trump 1O; 0 4C; 1 5C; swap 1 7O"))
    assert state.holder(Card.parse("1O")) == 1 and state.holder(Card.parse("7O")) is None
    played = replay(record("brisca-2", "trump 1O; 0 4C; 1 5C; swap 1 7O; 1 1O"))
    assert played.holder(Card.parse("1O")) is None


@pytest.mark.parametrize(
    ("rules", "events"),
    [
        ("brisca-2", "trump 4O; swap 0 7O"),  # the 7 takes only cards with points
        ("brisca-2", "trump 1O; swap 0 2O"),  # the 2 takes only 7, 6, 5, 4
        ("brisca-2", "trump 1O; swap 0 7C"),  # not a trump
        ("brisca-3", "trump 4O; swap 0 2O"),  # no 2 in a 36-card deck
        ({"preset": "brisca-2", "options": {"swap_two": False}}, "trump 4O; swap 0 2O"),
        ("brisca-2", "trump 1O; 0 5C; swap 1 7O"),  # in the middle of a trick
        ({"preset": "brisca-2", "options": {"swap_needs_trick": True}}, "trump 1O; swap 0 7O"),
    ],
)
def test_bad_swaps(rules, events):
    state = replay(record(rules, events))
    assert [issue.code for issue in state.issues] == ["bad-swap"]
    assert state.face_up == Card.parse(events.split(";")[-1].split()[-1])  # it happened: the log says so


def test_swap_options_allow_it_mid_trick_and_after_a_won_trick():
    mid = {"preset": "brisca-2", "options": {"swap_mid_trick": True}}
    assert replay(record(mid, "trump 1O; 0 5C; swap 1 7O")).valid
    won = {"preset": "brisca-2", "options": {"swap_needs_trick": True}}
    assert replay(record(won, "trump 1O; 0 5C; 1 4C; swap 0 7O")).valid
    assert not replay(record(won, "trump 1O; 0 5C; 1 4C; swap 1 7O")).valid


def test_void_and_amend_correct_without_rewriting():
    state = replay(record("brisca-2", "trump 3O; 0 5C; 1 5C; amend 2 card=4C"))
    assert state.valid and str(state.tricks[0].plays[1][1]) == "4C"
    state = replay(record("brisca-2", "trump 3O; 0 5C; 1 6C; void 2; 1 7C"))
    assert state.valid and state.tricks[0].winner == 1 and str(state.tricks[0].plays[1][1]) == "7C"
    state = replay(record("brisca-2", "trump 3O; 0 5C; amend 1 card=6C; void 2"))
    assert str(state.current[0][1]) == "5C"  # voiding the amendment restores the original
    assert codes(replay(record("brisca-2", "trump 3O; void 5; void 1; void 2"))) == [
        (k, "bad-ref") for k in (1, 2, 3)
    ]
