"""Seeded random legal games of each family always conserve cards and points."""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import deck
from companion.engine import GameRecord, random_game, replay, score

FAMILIES = [
    "chiamata-5",
    {"preset": "chiamata-5", "options": {"buia": True}},
    {"preset": "chiamata-5", "options": {"a_punti": True}},
    "chile-4",
    "chile-remate-3",
]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("rules", FAMILIES, ids=str)
@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_random_games_conserve_cards_and_points(rules, seed):
    game = random_game(rules, seed)
    state = replay(game)
    assert state.complete and state.valid, state.issues
    contract = state.contract
    played = Counter(card for trick in state.tricks for _, card in trick.plays)
    played.update(contract.discards if contract else ())
    assert played == Counter(deck(state.rules.deck)) and len(state.tricks) == state.rules.tricks
    if state.rules.auction == "remate":
        assert sum(state.points) == 130 + (40 if contract.declared is not None else 0)
        assert sum(contract.scores) == contract.target and contract.last_trick == state.tricks[-1].winner
    else:
        assert sum(state.points) == 120
    if contract is not None:
        assert contract.side_points == sum(state.points[seat] for seat in contract.side)
        assert contract.made == (contract.side_points >= contract.target)
        others = set(range(state.rules.seats)) - set(contract.side)
        assert set(state.winners) == (set(contract.side) if contract.made else others)
    if state.rules.auction == "chiamata":
        stakes = contract.multiplier
        assert sum(contract.scores) == 0 and max(map(abs, contract.scores)) in (2 * stakes, 4 * stakes)
    assert GameRecord.from_dict(game.to_dict()) == game
    json.dumps(score(game))


def _contracts(rules, seeds=200):
    return [replay(random_game(rules, seed)).contract for seed in range(seeds)]


def test_the_simulator_takes_every_bidding_path():
    contracts = _contracts("chiamata-5")
    assert any(c.solo for c in contracts) and any(c.partner == c.declarer for c in contracts)
    assert any(
        c.bid.rank is not None and int(c.bid.rank) == 2 and c.multiplier > 1 for c in contracts if c.bid
    )
    obligated = [c for c in contracts if c.bid and c.bid.points and c.bid.rank and int(c.bid.rank) != 2]
    assert obligated and any(c.revealed is not None and c.partner != c.declarer for c in contracts)
    remate = _contracts("chile-remate-3", 60)
    assert any(c.declared is not None for c in remate) and {c.made for c in remate} == {True, False}
