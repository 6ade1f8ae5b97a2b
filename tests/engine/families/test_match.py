"""Matches of the bidding families add up contract scores, and every winning seat wins the game."""

import pytest

from companion.engine import replay_match
from companion.engine.simulate import random_match


@pytest.mark.parametrize("rules", ["chiamata-5", "chile-remate-3"])
def test_a_match_adds_up_each_games_contract_scores(rules):
    match = replay_match(random_match(rules, 5))
    assert match.complete and match.valid
    for seat in range(match.rules.seats):
        assert match.points[seat] == sum(game.contract.scores[seat] for game in match.games)
        assert match.games_won[seat] == sum(seat in game.winners for game in match.games)
    assert match.winners and max(match.games_won) == match.match.target
