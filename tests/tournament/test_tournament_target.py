"""A tournament's games per match is enforced: every result recorded fits the match's target."""

import pytest
from tournament_helpers import names

from companion.engine import random_game, replay
from companion.errors import IllegalAction, MalformedInput
from companion.store import Store
from companion.tournament import Result, new_tournament, next_round, record_result
from companion.tournament.rounds import fits_target
from companion.tournament.stored import create, result_from_games


@pytest.mark.parametrize(
    ("home", "away", "target", "fits"),
    [
        (1, 0, 1, True),
        (0, 0, 1, True),  # one drawn game
        (2, 1, 1, False),
        (3, 1, 3, True),
        (1, 3, 3, True),
        (2, 2, 3, True),  # a draw below the target
        (3, 3, 3, False),
        (4, 2, 3, False),
        (2, 0, 3, False),  # nobody reached 3: not over, and not level
    ],
)
def test_a_result_fits_when_the_winner_stopped_at_the_target(home, away, target, fits):
    assert fits_target(Result(home, away), target) is fits


def test_a_result_that_does_not_fit_is_refused_naming_the_values():
    tournament = next_round(new_tournament("Liga", "league", names(2), target=3))
    with pytest.raises(MalformedInput) as refused:
        record_result(tournament, 1, 1, Result(4, 1))
    assert str(refused.value).startswith(
        "round 1, table 1: P01 4-1 P02 does not fit a match played to 3 games"
    )
    assert "\n" not in str(refused.value)
    assert record_result(tournament, 1, 1, Result(3, 1)).results[(1, 1)] == Result(3, 1)


def test_a_knockout_still_needs_a_winner_before_the_target_is_checked():
    tournament = next_round(new_tournament("Copa", "knockout", names(2), target=2))
    with pytest.raises(IllegalAction, match="needs a winner"):
        record_result(tournament, 1, 1, Result(1, 1))
    with pytest.raises(MalformedInput, match="played to 2 games"):
        record_result(tournament, 1, 1, Result(1, 0))


def test_scored_games_beyond_the_target_are_refused(tmp_path):
    with Store.open(f"sqlite:///{tmp_path / 'club.db'}", evidence_dir=tmp_path) as store:
        tournament = create(store, next_round(new_tournament("Liga", "league", names(2))))
        decided = [s for s in range(60) if replay(random_game("brisca-2", s, ["P01", "P02"])).winners]
        ids = [store.import_record(random_game("brisca-2", s, ["P01", "P02"]).to_dict()) for s in decided]
        home_wins = [i for i, s in zip(ids, decided, strict=True) if _winner(s) == "P01"][:2]
        with pytest.raises(MalformedInput, match="P01 2-0 P02 does not fit a match played to 1 game"):
            result_from_games(store, tournament, 1, 1, home_wins)
        assert result_from_games(store, tournament, 1, 1, home_wins[:1]).results[(1, 1)].home_games == 1


def _winner(seed: int) -> str:
    record = random_game("brisca-2", seed, ["P01", "P02"])
    (seat,) = replay(record).winners
    return record.players[seat]
