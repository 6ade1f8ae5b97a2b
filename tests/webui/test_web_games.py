"""The stored games page: each game with its result and the readings still to confirm; the
operator continues one in the live session, which goes on storing it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from doubtful_games import doubtful_game
from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import PIN, csrf_of

from companion.engine import random_game, replay, winner_open
from companion.session import LiveSession
from companion.store import Store
from companion.store.writer import GameWriter
from webui import create_app


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(f"sqlite:///{tmp_path / 'club.db'}", evidence_dir=tmp_path) as opened:
        yield opened


def app_for(store: Store, *, continuing: bool = True) -> Flask:
    """An app as ``companion serve`` makes it (its session written by a ``GameWriter``), or, not
    ``continuing``, as ``companion run`` does (the camera scores; no stored game is continued)."""
    writer = GameWriter(store)
    session = LiveSession(sink=writer, evidence_sink=writer.keep, flag_sink=writer.flags)
    config = {"SESSION": session, "PIN": PIN, "TESTING": True}
    return create_app(config | ({"WRITER": writer} if continuing else {"DATABASE": str(store.engine.url)}))


def signed_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    token = csrf_of(client)
    assert client.post("/operator", data={"pin": PIN, "csrf": token}).status_code == 303
    client.token = token  # type: ignore[attr-defined]
    return client


def row(page: str, game: int) -> str:
    found = re.search(rf'<tr data-game="{game}"[^>]*>(.*?)</tr>', page, re.S)
    assert found is not None, page
    return " ".join(found[1].split())


def test_each_stored_game_shows_its_result_and_what_waits_for_confirmation(store: Store) -> None:
    record, refs = doubtful_game(winner_open)
    waiting = store.import_record(record.to_dict())
    store.keep_flags(waiting, [{"seq": ref, "reason": "a guess"} for ref in refs])
    plain = store.import_record(random_game("brisca-4", 2, ["Ana", "Eva", "Luis", "Rosa"]).to_dict())
    page = app_for(store).test_client().get("/games?lang=en").get_data(as_text=True)
    state = replay(record)
    winner = record.players[state.winners[0]]
    shown = row(page, waiting)
    assert "Ana, Luis" in shown and "finished" in shown and f"Winner: {winner}" in shown
    assert "-".join(map(str, state.points)) in shown and "6: may change the result" in shown
    teams = replay(random_game("brisca-4", 2, ["Ana", "Eva", "Luis", "Rosa"])).team_points
    assert "-".join(map(str, teams)) in row(page, plain) and "may change" not in row(page, plain)
    assert page.index(f'data-game="{plain}"') < page.index(f'data-game="{waiting}"')  # newest first
    assert "data-continue" not in page  # viewers only read


def test_the_operator_continues_a_stored_game_and_confirms_its_readings(store: Store) -> None:
    record, refs = doubtful_game(winner_open)
    game = store.import_record(record.to_dict())
    store.keep_flags(game, [{"seq": ref, "reason": "a guess"} for ref in refs])
    app = app_for(store)
    client = signed_in(app)
    assert f'data-continue="{game}"' in client.get("/games").get_data(as_text=True)
    response = client.post(f"/games/{game}/continue", data={"csrf": client.token})
    assert response.status_code == 303 and response.headers["Location"].endswith("/corrections")
    session: LiveSession = app.config["SESSION"]
    assert session.view().record == record and [f.seq for f in session.view().flags] == refs
    assert "on screen" in row(client.get("/games?lang=en").get_data(as_text=True), game)
    for flag in session.view().flags:
        session.resolve(flag.id)
    assert store.open_flags(game) == []
    assert "may change" not in row(client.get("/games?lang=en").get_data(as_text=True), game)
    assert [g.id for g in store.games()] == [game]  # continued, not copied


def test_a_server_scoring_from_the_camera_says_how_to_continue_a_game_instead(store: Store) -> None:
    game = store.import_record(random_game("brisca-2", 3, ["Ana", "Luis"]).to_dict())
    client = signed_in(app_for(store, continuing=False))
    page = client.get("/games?lang=en").get_data(as_text=True)
    assert f'data-game="{game}"' in page and "data-continue" not in page
    refused = client.post(f"/games/{game}/continue?lang=en", data={"csrf": client.token})
    assert refused.status_code == 400
    assert f"continue game {game} with companion serve --game {game}" in refused.get_data(as_text=True)


def test_continuing_a_game_not_stored_is_a_clear_error(store: Store) -> None:
    client = signed_in(app_for(store))
    refused = client.post("/games/99/continue", data={"csrf": client.token})
    assert refused.status_code == 400 and "no game 99" in refused.get_data(as_text=True)
