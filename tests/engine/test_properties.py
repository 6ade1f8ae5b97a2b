"""Property tests over seeded random legal games of every preset."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import deck
from companion.engine import PRESETS, Event, GameRecord, random_game, replay

seeds = st.integers(min_value=0, max_value=2**32 - 1)
QUICK = settings(max_examples=20, deadline=None)
#: Presets without an auction; the bidding families have their own properties (tests/engine/families).
PLAIN = sorted(name for name, rules in PRESETS.items() if rules.auction == "none")


def _summary(state):
    return (state.tricks, state.current, state.points, state.winners, state.complete, state.face_up)


@pytest.mark.parametrize("preset", PLAIN)
@QUICK
@given(seed=seeds)
def test_random_games_play_every_card_once_for_120_points(preset, seed):
    game = random_game(preset, seed)
    state = replay(game)
    assert state.complete and state.valid, state.issues
    played = Counter(card for trick in state.tricks for _, card in trick.plays)
    assert played == Counter(deck(state.rules.deck))
    assert sum(state.points) == 120 and len(state.tricks) == state.rules.tricks
    assert state.winners or state.rules.tie_break == "draw" or state.points.count(max(state.points)) > 1


OPTIONS = [
    {"follow_suit": True},
    {"arrastre": True},
    {"claims": True},
    {"cazar_tres": True},
    {"mano_negra": "any"},
    {"virar": True},
    {"goal": "under-12"},
    {"trump_suit": "E"},
    {"swap_until": "last-turn", "swap_mid_trick": True},
    {"swap_until": "last-draw", "swap_needs_trick": True, "swap_two": False},
    {"follow_suit": True, "arrastre": True, "claims": True, "cazar_tres": True, "tie_break": "more-cards"},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@settings(max_examples=8, deadline=None)
@given(preset=st.sampled_from(PLAIN), seed=seeds)
def test_random_games_under_every_option_are_legal(options, preset, seed):
    state = replay(random_game({"preset": preset, "options": options}, seed))
    assert state.complete and state.valid, state.issues
    if state.ended_by is None:
        played = Counter(card for trick in state.tricks for _, card in trick.plays)
        assert played == Counter(deck(state.rules.deck)) and sum(state.points) == 120
    else:
        assert len(set(state.played)) == sum(len(trick.plays) for trick in state.tricks) + len(state.current)


@QUICK
@given(preset=st.sampled_from(sorted(PRESETS)), seed=seeds)
def test_a_record_replays_the_same_after_json(preset, seed):
    game = random_game(preset, seed)
    again = GameRecord.from_dict(game.to_dict())
    assert again == game and replay(again) == replay(game)


def _without(game, index):
    return GameRecord(game.rules, game.players, game.first, game.events[:index] + game.events[index + 1 :])


@QUICK
@given(seed=seeds, data=st.data())
def test_void_behaves_like_deleting_the_event(seed, data):
    game = random_game("brisca-2", seed)
    index = data.draw(st.integers(0, len(game.events) - 1))
    voided = replay(game.append(Event("void", ref=index)))
    edited = replay(_without(game, index))
    assert _summary(voided) == _summary(edited)
    assert [i.code for i in voided.issues] == [i.code for i in edited.issues]


@QUICK
@given(seed=seeds, data=st.data())
def test_amend_behaves_like_replacing_the_event(seed, data):
    game = random_game("brisca-2", seed)
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    index = data.draw(st.sampled_from(plays))
    card = data.draw(st.sampled_from(deck(40)))
    seat = data.draw(st.integers(0, 1))
    amended = replay(game.append(Event("amend", ref=index, seat=seat, card=card)))
    events = list(game.events)
    events[index] = Event("play", seat=seat, card=card)
    edited = replay(GameRecord(game.rules, game.players, game.first, tuple(events)))
    assert _summary(amended) == _summary(edited) and amended.issues == edited.issues
