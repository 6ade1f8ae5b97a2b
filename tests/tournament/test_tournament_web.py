"""The tournament pages: an operator runs a knockout in the browser; viewers only read."""

import re

import pytest

from companion.engine import random_game, replay
from companion.store import Store
from webui import create_app

PIN = "135790"


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'club.db'}"


@pytest.fixture
def app(db):
    app = create_app({"PIN": PIN, "TESTING": True, "DATABASE": db})
    yield app
    if "store" in app.extensions:
        app.extensions["store"].close()


def csrf(client) -> str:
    page = client.get("/tournaments/").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


@pytest.fixture
def operator(app):
    client = app.test_client()
    token = csrf(client)
    assert client.post("/operator", data={"pin": PIN, "csrf": token}).status_code == 303
    client.token = token
    return client


def post(client, url: str, **data):
    response = client.post(url, data={"csrf": client.token, **data})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response


def test_an_operator_runs_a_knockout_from_the_pages(operator, db):
    post(operator, "/tournaments/", name="Copa", format="knockout", entrants="Ana\nLuis\nEva\n")
    post(operator, "/tournaments/Copa/next-round")
    page = operator.get("/tournaments/Copa/?lang=en").get_data(as_text=True)  # English from now on
    assert "Ana" in page and "bye" in page and "Semi-final" in page
    post(operator, "/tournaments/Copa/result", round="1", table="2", home_games="0", away_games="1")
    post(operator, "/tournaments/Copa/next-round")
    with Store.open(db) as store:
        seed = next(s for s in range(50) if replay(random_game("brisca-2", s, ["Ana", "Eva"])).winners)
        game_id = store.import_record(random_game("brisca-2", seed, ["Ana", "Eva"]).to_dict())
    page = operator.get("/tournaments/Copa/").get_data(as_text=True)
    assert f"Use the scored games {game_id}" in page
    post(operator, "/tournaments/Copa/result", round="2", table="1", games=str(game_id))
    page = operator.get("/tournaments/Copa/bracket").get_data(as_text=True)
    assert "Final" in page and "Winner:" in page
    standings = operator.get("/tournaments/Copa/standings").get_data(as_text=True)
    assert "Points per trick" in standings  # statistics from the scored final
    csv = operator.get("/tournaments/Copa/standings.csv").get_data(as_text=True)
    assert csv.splitlines()[0].startswith("rank,name") and len(csv.splitlines()) == 4
    export = operator.get("/tournaments/Copa/export.json").get_json()
    assert list(export["games"]) == [str(game_id)]


def test_viewers_read_but_cannot_change(app, operator):
    post(operator, "/tournaments/", name="Liga", format="league", entrants="Ana\nLuis")
    viewer = app.test_client()
    token = csrf(viewer)
    assert viewer.post("/tournaments/Liga/next-round", data={"csrf": token}).status_code == 403
    assert viewer.post("/tournaments/Liga/next-round").status_code == 403
    page = viewer.get("/tournaments/Liga/").get_data(as_text=True)  # Spanish, the default
    assert "Clasificación" in page and "Liga" in page
    assert "Emparejar la siguiente ronda" not in page and "Pair the next round" not in page
    with viewer.get("/tournaments/static/tournaments.css") as css:
        assert css.status_code == 200 and b"@media print" in css.data


def test_mistakes_are_explained_and_change_nothing(operator):
    post(operator, "/tournaments/", name="Liga", format="league", entrants="Ana\nLuis")
    response = operator.post(
        "/tournaments/", data={"csrf": operator.token, "name": "Liga", "format": "league"}
    )
    assert response.status_code == 400 and "already exists" in response.get_data(as_text=True)
    response = operator.post(
        "/tournaments/Liga/result", data={"csrf": operator.token, "round": "1", "table": "x"}
    )
    assert response.status_code == 400
    assert operator.get("/tournaments/Nada/").status_code == 400


def test_the_pages_speak_spanish_and_english(app, operator):
    post(operator, "/tournaments/", name="Copa", format="knockout", entrants="Ana\nLuis\nEva\nRosa\nPepe")
    post(operator, "/tournaments/Copa/next-round")
    viewer = app.test_client()
    spanish = viewer.get("/tournaments/Copa/bracket").get_data(as_text=True)
    assert all(word in spanish for word in ("Cuartos de final", "Semifinal", "Final", "descansa", "Cuadro"))
    english = viewer.get("/tournaments/Copa/bracket?lang=en").get_data(as_text=True)
    assert all(word in english for word in ("Quarter-final", "Semi-final", "Final", "bye", "Bracket"))


def test_a_result_beyond_the_games_per_match_is_a_clear_error(operator):
    post(operator, "/tournaments/", name="Liga", format="league", entrants="Ana\nLuis\n", target="2")
    post(operator, "/tournaments/Liga/next-round")
    data = {"csrf": operator.token, "round": "1", "table": "1", "home_games": "3", "away_games": "0"}
    refused = operator.post("/tournaments/Liga/result", data=data)
    assert refused.status_code == 400
    assert "Ana 3-0 Luis does not fit a match played to 2 games" in refused.get_data(as_text=True)
    post(operator, "/tournaments/Liga/result", round="1", table="1", home_games="2", away_games="1")
