from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import names, play_out

from companion.tournament import new_tournament, standings
from companion.tournament.swiss import pair_round


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(min_value=3, max_value=16), st.integers(min_value=0, max_value=10_000))
def test_swiss_never_repeats_a_match_and_gives_a_bye_at_most_once(count, seed):
    tournament = play_out(new_tournament("Suizo", "swiss", names(count)), seed=seed)
    played = [frozenset(p.sides) for p in tournament.pairings() if p.away is not None]
    assert len(played) == len(set(played))
    byes = Counter(p.home for p in tournament.pairings() if p.away is None)
    assert all(n == 1 for n in byes.values())
    assert sum(byes.values()) == (len(tournament.rounds) if count % 2 else 0)
    for round_ in tournament.rounds:
        seated = [name for p in round_ for name in p.sides]
        assert len(seated) == len(set(seated)) == count


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    ranked = ["A", "B", "C", "D", "E"]
    pairs = pair_round(ranked, lambda _: 0.0, lambda a, b: False, lambda name: name == "E")
    assert ("D", None) in pairs


def test_score_groups_pair_top_half_against_bottom_half():
    ranked = ["A", "B", "C", "D", "E", "F"]
    score = {"A": 2, "B": 2, "C": 2, "D": 2, "E": 0, "F": 0}.__getitem__
    pairs = pair_round(ranked, score, lambda a, b: False, lambda name: False)
    assert pairs == [("A", "C"), ("B", "D"), ("E", "F")]


def test_a_rematch_floats_the_pair_apart():
    met = {frozenset("AB")}
    pairs = pair_round(["A", "B", "C", "D"], lambda _: 0.0, lambda a, b: frozenset((a, b)) in met, bool)
    assert frozenset("AB") not in {frozenset(p) for p in pairs}


def test_a_rematch_only_when_nothing_else_is_left():
    assert pair_round(["A", "B"], lambda _: 0.0, lambda a, b: True, lambda name: False) == [("A", "B")]
    met = {frozenset("AB"), frozenset("CD"), frozenset("AC"), frozenset("BD")}
    pairs = pair_round(["A", "B", "C", "D"], lambda _: 0.0, lambda a, b: frozenset((a, b)) in met, bool)
    assert {frozenset(p) for p in pairs} == {frozenset("AD"), frozenset("BC")}


def test_withdrawn_entrants_are_not_paired_again():
    tournament = play_out(
        new_tournament("Suizo", "swiss", names(7), swiss_rounds=4), seed=7, withdraw_at={2: "P03"}
    )
    later = [p for p in tournament.pairings() if p.round >= 2 and "P03" in p.sides]
    assert later == []
    assert next(line for line in standings(tournament) if line.name == "P03").withdrawn


def test_after_withdrawals_the_last_two_may_meet_again():
    tournament = play_out(new_tournament("Suizo", "swiss", names(3)), seed=0, withdraw_at={2: "P03"})
    (first, _bye), (second,) = tournament.rounds
    assert set(first.sides) == set(second.sides) == {"P01", "P02"}
