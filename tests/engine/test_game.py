"""The live game: check / can / act, corrections and undo."""

import pytest

from companion.engine import Game, replay
from companion.errors import IllegalAction, MalformedInput


@pytest.fixture
def game():
    game = Game("brisca-2", ["Ana", "Luis"], first=1)
    game.turn_trump("3O")
    return game


def test_actions_check_then_append(game):
    assert game.can_play(1, "5C") and not game.can_play(0, "5C")
    with pytest.raises(IllegalAction, match="seat 1 was to play"):
        game.check_play(0, "5C")
    with pytest.raises(IllegalAction):
        game.play(0, "5C")
    assert len(game.record.events) == 1  # a refused action leaves no trace
    event = game.play(1, "5C")
    assert event.to_dict() == {"type": "play", "seat": 1, "card": "5C"}
    assert game.state.current == ((1, event.card),) and game.state.to_play == 0
    assert not game.can_play(0, "5C") and not game.can_turn_trump("4O")


def test_swap_actions(game):
    assert game.can_swap(1, "7O") and not game.can_swap(1, "2O") and not game.can_swap(1, "7C")
    game.swap(1, "7O")
    assert str(game.state.face_up) == "7O" and game.can_swap(0, "2O")
    with pytest.raises(IllegalAction, match="not in a hand"):
        game.check_swap(0, "7O")
    low = Game("brisca-2")
    low.turn_trump("4O")
    with pytest.raises(IllegalAction, match="cannot take the face-up 4O"):
        low.check_swap(0, "7O")


def test_corrections_append_and_undo_voids_the_latest(game):
    game.play(1, "5C")
    game.play(0, "6C")
    game.amend(2, card="4C")
    assert game.state.tricks[0].winner == 1
    undo = game.undo()
    assert undo.to_dict() == {"type": "void", "ref": 3, "source": "operator"}
    assert game.state.tricks[0].winner == 0
    assert len(game.record.events) == 5  # nothing was rewritten
    assert replay(game.record) == game.state
    with pytest.raises(IllegalAction, match="event 9"):
        game.void(9)
    with pytest.raises(MalformedInput, match="colour"):
        game.amend(1, colour="red")


def test_a_stored_game_continues():
    game = Game("brisca-2")
    game.turn_trump("1B")
    again = Game.from_record(game.record)
    assert again.play(0, "2B").seat == 0 and again.state.current
