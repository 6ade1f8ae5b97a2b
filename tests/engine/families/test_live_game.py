"""The live game's bidding actions: check raises with the reason, can answers, the action appends."""

import pytest

from companion.engine import Game, random_game, replay
from companion.errors import IllegalAction, MalformedInput


def test_a_chiamata_auction_and_call_played_live():
    game = Game("chiamata-5")
    assert game.can_bid(0, rank=3) and not game.can_bid(1, rank=3)
    with pytest.raises(IllegalAction, match="seat 0 was to speak"):
        game.check_bid(1, rank=3)
    game.bid(0, rank=3)
    assert not game.can_bid(1, rank=1)  # the As does not outbid the 3
    game.bid(1, rank=2, points=72)
    for seat in (2, 3, 4, 0):
        game.pass_bid(seat)
    assert not game.can_play(0, "5C") and not game.can_call(1, "3O")  # the bid was the 2
    assert game.call(1, "2E").to_dict() == {"type": "call", "seat": 1, "card": "2E"}
    assert game.state.contract.multiplier == 2 and game.state.to_play == 0
    assert game.can_reveal(3, "2E") and not game.can_reveal(3, "1E")
    game.reveal(3, "2E")
    assert game.state.contract.partner == 3 and not game.can_play(0, "2E")  # seat 3 holds it
    with pytest.raises(MalformedInput):
        game.bid(2, rank=13)


def test_solo_live():
    game = Game("chiamata-5")
    game.bid(0, rank=1)
    assert game.can_solo(1) and not game.can_solo(2)
    game.solo(1)
    assert game.state.contract.solo and game.state.to_play == 0 and not game.can_pass_bid(2)


def test_a_remate_auction_talon_discards_and_trumps_played_live():
    game = Game("chile-remate-3")
    game.bid(0, points=100)
    assert not game.can_bid(1, points=105) and game.can_bid(1, points=110)
    game.pass_bid(1)
    game.pass_bid(2)
    assert not game.can_take_talon(1, ["1O", "3O"]) and game.can_take_talon(0, ["1O", "3O"])
    game.take_talon(0, ["1O", "3O"])
    assert not game.can_discard(0, ["1O"]) and game.can_discard(0, ["1O", "5C"])
    game.discard(0, ["1O", "5C"])
    assert not game.can_call(0, card="1C") and not game.can_call(1, suit="O") and game.can_call(0, suit="O")
    game.call(0, suit="O")
    assert game.state.points == (11, 0, 0) and game.can_declare(2, ["11O", "12O"])
    assert not game.can_play(0, "1O")  # discarded


@pytest.mark.parametrize("rules", ["chiamata-5", "chile-4", "chile-remate-3"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_of_a_random_game_is_accepted_live(rules, seed):
    record = random_game(rules, seed)
    game = Game(rules, record.players, record.first)
    for event in record.events:
        game.apply(event)  # checked: raises IllegalAction if the rules refuse it
    assert game.state == replay(record) and game.state.complete
