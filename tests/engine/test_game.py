"""The live game: check / can / act, corrections and undo."""

import pytest

from companion.cards import Card
from companion.engine import Event, Game, replay
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


def test_a_check_may_set_aside_issues_by_their_code(game):
    """Only the issues named are set aside: a play out of turn is still refused."""
    event = Event("play", seat=0, card=Card.parse("5C"))
    with pytest.raises(IllegalAction, match="seat 1 was to play"):
        game.check(event, ignore={"bad-card"})
    game.check(event, ignore={"out-of-turn"})
    game.apply(event, ignore={"out-of-turn"})
    assert game.record.events[-1] == event
    assert [issue.code for issue in game.state.issues] == ["out-of-turn"]


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


def test_declarations_check_before_they_append():
    game = Game({"preset": "brisca-2", "options": {"mano_negra": "any", "virar": True, "arrastre": True}})
    game.turn_trump("5O")
    assert game.can_redeal(0, ["4C", "5E", "6C"]) and not game.can_redeal(0, ["1C", "5E", "6C"])
    assert not game.can_claim(0, ["1O", "3O", "12O"])  # cards are still being drawn
    assert game.can_arrastre(0) and not game.can_arrastre(1)
    with pytest.raises(IllegalAction, match="not mano negra"):
        game.check_declare(1, ["1O", "3O", "11O"])
    game.declare(1, ["1O", "3O", "12O"])
    assert game.state.winners == (1,) and game.state.ended_by == "mano-negra"
    open_game = Game("brisca-descubierta")
    open_game.turn_trump("5O")
    assert open_game.can_show_hand(0, ["1C", "2C", "3C"]) and not open_game.can_show_hand(0, ["1C", "5O"])
    open_game.show_hand(0, ["1C", "2C", "3C"])
    assert not open_game.can_play(0, "4C") and open_game.can_play(0, "2C")
