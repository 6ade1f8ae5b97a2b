"""A stored game whose camera readings were never confirmed, and may change its result, is not
counted for a tournament until they are; the pages say what else it may give."""

from __future__ import annotations

import html
import re

import pytest
from doubtful_games import doubtful_game

from companion.engine import open_results, replay, winner_open
from companion.errors import IllegalAction
from companion.store import Store
from companion.tournament import Entrant, new_tournament, next_round
from companion.tournament.games import unsettled
from companion.tournament.stored import create, result_from_games, scored_games
from webui import create_app

PIN = "246810"


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'club.db'}"


def league(store: Store):
    return create(
        store, next_round(new_tournament("Liga", "league", [Entrant.of("Ana"), Entrant.of("Luis")]))
    )


def flag(store: Store, game: int, refs: list[int]) -> None:
    store.keep_flags(game, [{"seq": ref, "reason": "a guess: the camera missed the card"} for ref in refs])


def test_a_game_whose_winner_may_change_waits_until_its_readings_are_confirmed(db):
    record, refs = doubtful_game(winner_open)
    loser = record.players[1 - replay(record).winners[0]]
    with Store.open(db) as store:
        tournament = league(store)
        game = store.import_record(record.to_dict())
        flag(store, game, refs)
        assert scored_games(store, tournament, 1, 1) == [game]
        told = f"game {game}: 6 of the camera's readings were never confirmed, and the result may also be"
        told += f" {loser} "
        with pytest.raises(IllegalAction, match=re.escape(told)) as refused:
            result_from_games(store, tournament, 1, 1, [game])
        assert f"companion serve --game {game}" in str(refused.value)
        store.keep_flags(game, [])  # the operator confirmed them
        counted = result_from_games(store, tournament, 1, 1, [game])
        assert counted.results[(1, 1)].games == (game,)


def test_readings_whose_every_order_gives_the_same_result_hold_nothing_up():
    record, refs = doubtful_game(lambda results: len(results) == 1)
    assert unsettled(7, record, refs) is None
    points_only, others = doubtful_game(lambda results: len(results) > 1 and not winner_open(results))
    found = unsettled(7, points_only, others)
    assert found is not None and len(found.others()) == len(open_results(points_only, frozenset(others))) - 1


def test_a_doubted_trump_card_leaves_the_result_beyond_working_out():
    record, refs = doubtful_game(winner_open)
    trump = next(i for i, event in enumerate(record.events) if event.type == "trump")
    found = unsettled(3, record, [trump, *refs])
    assert found is not None and found.results == ()
    told = (
        "game 3: 7 of the camera's readings were never confirmed, and what they change cannot be worked out"
    )
    assert found.describe() == told


def test_the_tournament_page_says_which_game_waits_and_what_it_may_give(db):
    record, refs = doubtful_game(winner_open)
    with Store.open(db) as store:
        league(store)
        waiting = store.import_record(record.to_dict())
        flag(store, waiting, refs)
        settled = store.import_record(record.to_dict())
    app = create_app({"PIN": PIN, "TESTING": True, "DATABASE": db})
    client = app.test_client()
    token = re.search(
        r'name="csrf-token" content="([^"]+)"', client.get("/tournaments/").get_data(as_text=True)
    )
    client.post("/operator", data={"pin": PIN, "csrf": token.group(1)})
    page = client.get("/tournaments/Liga/?lang=en").get_data(as_text=True)
    app.extensions["store"].close()
    note = html.unescape(
        re.search(rf'<p class="unsettled" data-unsettled="{waiting}">(.*?)</p>', page, re.S)[1]
    )
    assert f"Game {waiting} waits: 6 of the camera's readings were never confirmed" in note
    loser = record.players[1 - replay(record).winners[0]]
    assert "as they turn out, the result may also be" in note and f"<strong>{loser} (" in note
    assert f"companion serve --game {waiting}" in note
    assert f'data-scored="{settled}"' in page  # only the settled game is offered to count
