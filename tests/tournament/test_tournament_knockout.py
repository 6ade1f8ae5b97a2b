import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import names, play_out

from companion.errors import IllegalAction
from companion.tournament import Result, champion, new_tournament, next_round, record_result, withdraw
from companion.tournament.knockout import bracket_size, first_round, seed_order


@settings(derandomize=True)
@given(st.integers(min_value=1, max_value=7))
def test_seed_order_keeps_top_seeds_apart(power):
    size = 2**power
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    pairs = [order[i : i + 2] for i in range(0, size, 2)]
    assert all(a + b == size + 1 for a, b in pairs)
    assert order.index(1) < size // 2 <= order.index(2)  # 1 and 2 meet only in the final


@settings(derandomize=True)
@given(st.integers(min_value=2, max_value=40))
def test_byes_go_to_the_top_seeds(count):
    players = [f"S{i:02d}" for i in range(1, count + 1)]
    slots = first_round(players)
    assert len(slots) == bracket_size(count) // 2
    byes = sorted(home or away for home, away in slots if home is None or away is None)
    assert byes == players[: bracket_size(count) - count]
    assert all(home is not None or away is not None for home, away in slots)


@pytest.mark.parametrize("count", [2, 3, 5, 8, 11])
def test_a_knockout_halves_the_field_each_round_until_one_champion(count):
    tournament = play_out(new_tournament("Copa", "knockout", names(count)), seed=count)
    size = bracket_size(count)
    assert [len(r) for r in tournament.rounds] == [size >> n for n in range(1, len(tournament.rounds) + 1)]
    final = tournament.rounds[-1][0]
    winner = champion(tournament)
    assert winner == tournament.results[final.key].winner(final)
    losers = {
        p.home if tournament.results[p.key].winner(p) == p.away else p.away for p in tournament.pairings()
    }
    assert winner not in losers
    assert len(losers - {None}) == count - 1  # everyone else lost exactly once


def test_a_withdrawn_finalist_hands_the_title_over_by_walkover():
    tournament = next_round(new_tournament("Copa", "knockout", names(4), target=2))
    for pairing in tournament.rounds[0]:
        tournament = record_result(tournament, 1, pairing.table, Result(2, 0))
    tournament = withdraw(next_round(tournament), "P01")
    final = tournament.rounds[1][0]
    assert tournament.results[final.key].how == "walkover"
    assert champion(tournament) == "P02"


def test_a_knockout_match_cannot_be_drawn_nor_reopened():
    tournament = next_round(new_tournament("Copa", "knockout", names(4), target=2))
    with pytest.raises(IllegalAction, match="needs a winner: P01 1-1 P04"):
        record_result(tournament, 1, 1, Result(1, 1))
    for pairing in tournament.rounds[0]:
        tournament = record_result(tournament, 1, pairing.table, Result(0, 2))
    tournament = next_round(tournament)
    with pytest.raises(IllegalAction, match="round 1 is closed"):
        record_result(tournament, 1, 1, Result(2, 0))


def test_a_final_whose_finalists_both_withdrew_has_no_champion():
    tournament = next_round(new_tournament("Copa", "knockout", names(4), target=2))
    for pairing in tournament.rounds[0]:
        tournament = record_result(tournament, 1, pairing.table, Result(2, 0))
    tournament = withdraw(withdraw(tournament, "P01"), "P02")
    tournament = next_round(tournament)
    (final,) = tournament.rounds[-1]
    assert tournament.results[final.key] == Result(0, 0, how="walkover", awarded=None)
    assert champion(tournament) is None
