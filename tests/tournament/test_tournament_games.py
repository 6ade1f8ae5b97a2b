"""Match results and player statistics computed from real (seeded, simulated) game records."""

import pytest

from companion.engine import random_game, replay
from companion.errors import MalformedInput
from companion.tournament import Entrant
from companion.tournament.games import match_result, player_stats, seat_player

SEEDS = range(300)


def test_statistics_add_up_over_many_games():
    records = [random_game("brisca-2", seed, ["Ana", "Luis"]) for seed in SEEDS[:60]]
    stats = {line.name: line for line in player_stats(records)}
    states = [replay(record) for record in records]
    assert stats["Ana"].games == stats["Luis"].games == 60
    assert stats["Ana"].points + stats["Luis"].points == 120 * 60
    assert stats["Ana"].tricks + stats["Luis"].tricks == 20 * 60
    assert stats["Ana"].wins == sum(state.winners == (0,) for state in states)
    assert stats["Ana"].wins + stats["Luis"].wins + stats["Ana"].draws == 60
    swaps = sum(event.type == "swap" for record in records for event in record.events)
    assert stats["Ana"].swaps + stats["Luis"].swaps == swaps
    assert stats["Ana"].points_per_trick == pytest.approx(stats["Ana"].points / stats["Ana"].tricks)


def test_a_level_game_is_counted_as_decided_by_the_last_trick():
    tied = next(
        record
        for seed in SEEDS
        if (record := random_game("brisca-2", seed, ["Ana", "Luis"])) and replay(record).points == (60, 60)
    )
    state = replay(tied)
    winner = tied.players[state.tricks[-1].winner]
    stats = {line.name: line for line in player_stats([tied])}
    assert stats["Ana"].last_trick_ties == stats["Luis"].last_trick_ties == 1
    assert stats[winner].last_trick_ties_won == 1 and stats[winner].wins == 1


def test_pairs_are_found_on_their_seats_in_four_player_games():
    record = random_game("brisca-4", 7, ["Ana", "Luis", "Eva", "Rosa"])
    state = replay(record)
    primos, vecinas = Entrant.of("Primos", ["Ana", "Eva"]), Entrant.of("Vecinas", ["Luis", "Rosa"])
    result = match_result(vecinas, primos, [(41, record)])
    assert result.home_points == state.points[1] + state.points[3]
    assert result.home_points + result.away_points == 120
    assert (result.home_games, result.away_games) == (
        int(state.winners == (1, 3)),
        int(state.winners == (0, 2)),
    )
    assert result.games == (41,) and result.how == "played"
    with pytest.raises(MalformedInput, match=r"'Otros' .* did not play"):
        match_result(primos, Entrant.of("Otros", ["Luis", "Ana"]), [(41, record)])


def test_two_players_on_four_hands_hold_a_side_each():
    record = random_game("brisca-2x2", 2, ["Ana", "Luis"])
    assert [seat_player(record, seat) for seat in range(4)] == ["Ana", "Luis", "Ana", "Luis"]
    stats = {line.name: line for line in player_stats([record])}
    assert stats["Ana"].points + stats["Luis"].points == 120 and stats["Ana"].games == 1


def test_an_unfinished_game_is_no_result():
    record = random_game("brisca-2", 1, ["Ana", "Luis"])
    cut = type(record)(record.rules, record.players, record.first, record.events[:5])
    with pytest.raises(MalformedInput, match="not finished"):
        match_result(Entrant.of("Ana"), Entrant.of("Luis"), [(1, cut)])
    assert player_stats([cut]) == []
