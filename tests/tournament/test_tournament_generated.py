"""Every format on generated tournaments: odd and even counts, byes, withdrawals at any round."""

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import names, play_out

from companion.tournament import champion, new_tournament, standings, total_rounds


@st.composite
def tournaments(draw):
    fmt = draw(st.sampled_from(["league", "knockout", "swiss"]))
    count = draw(st.integers(min_value=2, max_value=12))
    withdrawals = draw(
        st.dictionaries(
            st.integers(min_value=1, max_value=6), st.integers(min_value=1, max_value=count), max_size=3
        )
    )
    withdraw_at = {
        round_: f"P{entrant:02d}"
        for round_, entrant in withdrawals.items()
        if round_ > 1 or count > 2  # a tournament starts with two entrants at least
    }
    double = fmt == "league" and draw(st.booleans())
    return new_tournament("T", fmt, names(count), double=double), withdraw_at, draw(st.integers(0, 10_000))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(tournaments())
def test_generated_tournaments_run_to_the_end_consistently(case):
    start, withdraw_at, seed = case
    tournament = play_out(start, seed, withdraw_at)
    assert len(tournament.rounds) == total_rounds(tournament)
    for pairing in tournament.pairings():
        result = tournament.results[pairing.key]
        gone = [side for side in pairing.sides if tournament.withdrawn.get(side, 99) < pairing.round]
        if gone:
            assert result.how in ("walkover", "bye") and result.awarded not in gone
        seated = [name for p in tournament.rounds[pairing.round - 1] for name in p.sides]
        assert len(seated) == len(set(seated))  # nobody twice in a round
    table = standings(tournament)
    assert sorted(line.name for line in table) == sorted(e.name for e in tournament.entrants)
    assert [line.rank for line in table] == sorted(line.rank for line in table) and table[0].rank == 1
    keys = [(line.match_wins, line.games_won, line.point_difference) for line in table]
    assert keys == sorted(keys, reverse=True)  # the tie-breakers, in order
    swiss_byes = sum(line.byes for line in table) if tournament.format == "swiss" else 0
    assert sum(line.won for line in table) - swiss_byes == sum(line.lost for line in table)
    winner = champion(tournament)
    if tournament.format == "knockout":
        assert (
            winner is None
            or winner not in tournament.withdrawn
            or tournament.withdrawn[winner] > len(tournament.rounds)
        )
    else:
        assert winner == table[0].name
