import pytest

from companion.cards import Suit
from companion.engine import PRESETS, rules_for
from companion.errors import MalformedInput, UnknownName


@pytest.mark.parametrize(
    ("preset", "seats", "deck", "teams", "rounds"),
    [
        ("brisca-2", 2, 40, ((0,), (1,)), 17),
        ("brisca-3", 3, 36, ((0,), (1,), (2,)), 9),
        ("brisca-4", 4, 40, ((0, 2), (1, 3)), 7),
        ("brisca-6", 6, 48, ((0, 2, 4), (1, 3, 5)), 5),
        ("brisca-2x2", 4, 40, ((0, 2), (1, 3)), 7),
    ],
)
def test_classic_presets(preset, seats, deck, teams, rounds):
    rules = rules_for(preset)
    assert (rules.seats, rules.deck, rules.teams, rules.draw_rounds) == (seats, deck, teams, rounds)
    assert rules.tricks * rules.seats == deck


def test_options_change_a_preset_and_round_trip():
    spec = {"preset": "brisca-4", "options": {"tie_break": "draw", "follow_suit": True, "trump_suit": "c"}}
    rules = rules_for(spec)
    assert (rules.tie_break, rules.follow_suit, rules.trump_suit) == ("draw", True, Suit.COPAS)
    assert rules.to_spec() == {"preset": "brisca-4", "options": {**spec["options"], "trump_suit": "C"}}
    assert rules_for(rules.to_spec()) == rules
    assert rules_for("brisca-4").to_spec() == "brisca-4"


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ("brisca-9", UnknownName, "brisca-9"),
        ({"preset": "brisca-2", "options": {"no_such": True}}, UnknownName, "no_such"),
        ({"preset": "brisca-2", "options": {"tie_break": "coin"}}, MalformedInput, "coin"),
        ({"preset": "brisca-2", "options": {"arrastre": "yes"}}, MalformedInput, "yes"),
        ({"preset": "brisca-2", "options": {"deck": 41}}, MalformedInput, "41"),
        ({"preset": "brisca-3", "options": {"deck": 40}}, MalformedInput, "40-card"),
        ({"options": {}}, MalformedInput, "preset"),
        (42, MalformedInput, "42"),
    ],
)
def test_bad_rules_name_the_value(spec, error, words):
    with pytest.raises(error, match=words):
        rules_for(spec)


def test_every_preset_is_registered_under_its_name():
    assert all(rules.name == name for name, rules in PRESETS.items())
    assert {"brisca-2", "brisca-3", "brisca-4", "brisca-6"} <= set(PRESETS)
