"""Matches: the target, doubled games, the rotating deal and trumps, standings and issues."""

import json
from dataclasses import replace

import pytest

from companion.cards import Suit
from companion.cli import main
from companion.engine import MatchRecord, MatchRules, random_match, replay_match, score
from companion.engine.outcome import side_totals
from companion.paths import PROJECT_ROOT


def _expected_wins(state, double):
    won = [0, 0]
    for game in state.games:
        if game.winners:
            side = state.rules.side_of(game.winners[0])
            won[side] += 2 if double and side_totals(state.rules, game.points)[side] > 100 else 1
    return tuple(won)


@pytest.mark.parametrize(("target", "double"), [(3, False), (5, True), (7, False)])
def test_games_until_a_side_reaches_the_target(target, double):
    record = random_match("brisca-2", target, MatchRules(target=target, double_over_100=double))
    state = replay_match(record)
    assert state.complete and state.valid and max(state.games_won) >= target
    assert state.games_won == _expected_wins(state, double)
    assert state.winners == (state.games_won.index(max(state.games_won)),)
    before = replay_match(replace(record, games=record.games[:-1]))
    assert not before.complete and before.winners == ()  # the last game decided it
    assert [game.first for game in record.games] == [(record.first + k) % 2 for k in range(len(record.games))]


def test_a_game_over_100_points_counts_two():
    record = next(
        m
        for m in (
            random_match("brisca-2", seed, MatchRules(target=7, double_over_100=True)) for seed in range(40)
        )
        if any(max(side_totals(g.rules, g.points)) > 100 for g in replay_match(m).games)
    )
    state = replay_match(record)
    assert sum(state.games_won) > len([game for game in state.games if game.winners])


@pytest.mark.parametrize("decide_by", ["games", "points"])
def test_rotating_trumps_play_four_games(decide_by):
    record = random_match("brisca-4", 2, MatchRules(rotate_trump=True, decide_by=decide_by))
    state = replay_match(record)
    assert [game.trump_suit for game in state.games] == [Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS]
    assert all(game.trump_card is None for game in state.games) and state.complete and state.valid
    ranking = state.points if decide_by == "points" else state.games_won
    best = [side for side in (0, 1) if ranking[side] == max(ranking)]
    assert state.winners == (state.rules.teams[best[0]] if len(best) == 1 else ())


def test_match_issues_name_the_game():
    record = random_match("brisca-2", 5)
    extra = replace(record, games=(*record.games, record.games[0]))
    codes = [(issue.event, issue.code) for issue in replay_match(extra).issues]
    n = len(record.games)
    assert (n, "after-match") in codes
    assert ((n, "deal-rotation") in codes) == (record.games[0].first != (record.first + n) % 2)
    swapped = replace(
        record, games=(replace(record.games[0], first=1 - record.games[0].first), *record.games[1:])
    )
    assert (0, "deal-rotation") in [(i.event, i.code) for i in replay_match(swapped).issues]
    assert not score(swapped)["valid"]


def test_match_records_round_trip_and_score(tmp_path, capsys):
    record = random_match("brisca-3", 9, MatchRules(target=3))
    assert MatchRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record.to_dict()))
    assert main(["score", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["games"]) == len(record.games) and result["complete"]
    assert result["standings"]["games_won"] == list(replay_match(record).games_won)


def test_the_bundled_match_sample(capsys):
    assert main(["score", str(PROJECT_ROOT / "samples" / "brisca-match.json"), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.count("Game ") == out.count("Winner:") - 1 and "Match: " in out
