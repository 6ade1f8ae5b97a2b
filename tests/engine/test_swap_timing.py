"""Swaps at each boundary of each timing option (brisca-2: draws after tricks 1..17)."""

from dataclasses import replace

import pytest

from companion.cards import Card, Rank
from companion.engine import Event, GameRecord, replay, rules_for

from .helpers import find_game, upto_trick


def _late_seven(state):
    seven = Card(Rank.SIETE, state.trump_suit)
    played_at = next(t.n for t in state.tricks if seven in [card for _, card in t.plays])
    return not state.swaps and state.trump_card.points > 0 and played_at > 18


@pytest.fixture(scope="module")
def game():
    return find_game("brisca-2", _late_seven)


@pytest.mark.parametrize(
    ("until", "tricks", "who", "problem"),
    [
        ("drawn", 16, "leader", None),
        ("drawn", 17, "leader", None),  # during the last drawing turn, before the face-up card is taken
        ("drawn", 17, "drawer", "draws the face-up card itself"),
        ("last-draw", 16, "leader", None),
        ("last-draw", 17, "leader", "last drawing turn"),
        ("last-turn", 15, "leader", None),
        ("last-turn", 16, "leader", "after trick 16"),
    ],
)
def test_swap_deadline(game, until, tricks, who, problem):
    rules = replace(rules_for("brisca-2"), swap_until=until)
    cut = upto_trick(game, tricks)
    leader = replay(cut).leader
    seat = leader if who == "leader" else 1 - leader
    seven = Card(Rank.SIETE, replay(cut).trump_suit)
    state = replay(
        GameRecord(rules, cut.players, cut.first, (*cut.events, Event("swap", seat=seat, card=seven)))
    )
    messages = [issue.message for issue in state.issues]
    if problem is None:
        assert messages == [] and state.face_up == seven and state.swaps[0].seat == seat
    else:
        assert len(messages) == 1 and problem in messages[0]


def test_the_last_drawer_takes_the_card_put_under(game):
    cut = upto_trick(game, 17)
    before = replay(cut)
    seven = Card(Rank.SIETE, before.trump_suit)
    events = (*cut.events, Event("swap", seat=before.leader, card=seven))
    play = Event("play", seat=before.leader, card=seven)
    after_play = replay(GameRecord(cut.rules, cut.players, cut.first, (*events, play)))
    (issue,) = after_play.issues
    assert f"in the hand of seat {1 - before.leader}" in issue.message
    assert after_play.face_up is None


def test_no_swap_once_the_face_up_card_is_drawn(game):
    cut = upto_trick(game, 17)
    state = replay(cut)
    nxt = next(e for e in game.events[len(cut.events) :] if e.type == "play")
    seven = Card(Rank.SIETE, state.trump_suit)
    late = (*cut.events, nxt, Event("swap", seat=1 - nxt.seat, card=seven))
    assert [i.code for i in replay(GameRecord(cut.rules, cut.players, cut.first, late)).issues] == [
        "no-face-up"
    ]
