"""60-60 ties under each tie-break, and the goals of the variants."""

from dataclasses import replace

import pytest

from companion.engine import GameRecord, replay, rules_for

from .helpers import find_game


@pytest.fixture(scope="module")
def tie():
    return find_game("brisca-2", lambda state: state.points == (60, 60))


def _cards_won(state, seat):
    return sum(len(trick.plays) for trick in state.tricks if trick.winner == seat)


@pytest.mark.parametrize("tie_break", ["last-trick", "more-cards", "draw"])
def test_sixty_sixty(tie, tie_break):
    rules = replace(rules_for("brisca-2"), tie_break=tie_break)
    state = replay(GameRecord(rules, tie.players, tie.first, tie.events))
    assert state.points == (60, 60) and state.complete and state.valid
    more = max((0, 1), key=lambda seat: _cards_won(state, seat))
    expected = {
        "last-trick": (state.tricks[-1].winner,),
        "more-cards": () if _cards_won(state, 0) == 20 else (more,),
        "draw": (),
    }[tie_break]
    assert state.winners == expected


def test_goal_fewest_points_reverses_the_winner():
    game = find_game("brisca-2", lambda state: state.points[0] > 60)
    assert replay(game).winners == (0,)
    reverse = replay(GameRecord(rules_for("brisca-al-reves"), game.players, game.first, game.events))
    assert reverse.winners == (1,) and reverse.points == replay(game).points


def test_teams_win_together():
    game = find_game("brisca-4", lambda state: state.team_points[1] > 60)
    state = replay(game)
    assert state.winners == (1, 3) and sum(state.team_points) == 120
