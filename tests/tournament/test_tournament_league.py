from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import names, play_out

from companion.errors import IllegalAction
from companion.tournament import new_tournament, next_round, standings, total_rounds
from companion.tournament.league import round_robin


@settings(derandomize=True)
@given(st.integers(min_value=2, max_value=15), st.booleans())
def test_round_robin_meets_everyone_once_per_leg(count, double):
    players = [f"P{i}" for i in range(count)]
    rounds = round_robin(players, double=double)
    legs = 2 if double else 1
    assert len(rounds) == (count - 1 if count % 2 == 0 else count) * legs
    meetings = Counter(frozenset(pair) for round_ in rounds for pair in round_ if pair[1] is not None)
    assert set(meetings) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(meetings.values()) == {legs}
    for round_ in rounds:
        seated = [name for pair in round_ for name in pair if name is not None]
        assert sorted(seated) == sorted(players)  # each plays (or rests) exactly once a round
    byes = Counter(pair[0] for round_ in rounds for pair in round_ if pair[1] is None)
    assert byes == (Counter(dict.fromkeys(players, legs)) if count % 2 else Counter())


@settings(derandomize=True)
@given(st.integers(min_value=3, max_value=12))
def test_home_and_away_are_balanced_and_swapped_in_the_return_leg(count):
    players = [f"P{i}" for i in range(count)]
    rounds = round_robin(players, double=True)
    half = len(rounds) // 2
    first = [(a, b) for r in rounds[:half] for a, b in r if b is not None]
    second = [(a, b) for r in rounds[half:] for a, b in r if b is not None]
    assert sorted(second) == sorted((b, a) for a, b in first)
    homes = Counter(a for a, _ in first)
    assert max(homes[p] for p in players) - min(homes[p] for p in players) <= 2


@pytest.mark.parametrize("count", [2, 5, 6, 7])
def test_a_league_runs_to_its_end_with_every_match_played(count):
    tournament = play_out(new_tournament("Liga", "league", names(count)), seed=count)
    assert len(tournament.rounds) == total_rounds(tournament)
    table = standings(tournament)
    assert all(line.played == count - 1 for line in table)
    assert sum(line.byes for line in table) == (count if count % 2 else 0)
    assert sum(line.won for line in table) == sum(line.lost for line in table)


def test_a_withdrawal_turns_the_remaining_matches_into_walkovers():
    tournament = play_out(new_tournament("Liga", "league", names(5)), seed=3, withdraw_at={3: "P02"})
    walkovers = [(p, r) for p in tournament.pairings() if (r := tournament.results[p.key]).how == "walkover"]
    assert walkovers
    assert all("P02" in p.sides and r.awarded != "P02" and p.round >= 3 for p, r in walkovers)
    line = next(line for line in standings(tournament) if line.name == "P02")
    assert line.withdrawn
    assert line.played == 4  # every match counts: those played before withdrawing and the walkovers
    assert line.lost >= 2


def test_next_round_waits_for_results():
    tournament = next_round(new_tournament("Liga", "league", names(4)))
    with pytest.raises(IllegalAction, match="round 1 table 1"):
        next_round(tournament)
