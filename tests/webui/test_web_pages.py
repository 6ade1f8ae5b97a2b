"""Every page and download, as a viewer; languages; headers; errors without tracebacks."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from doubtful_games import doubtful_game
from flask import Flask
from flask.testing import FlaskClient

from companion.engine import GameRecord, OpenResult, random_game, replay, winner_open
from companion.session import CameraStatus, Evidence, LiveSession, Setup
from webui import create_app

PAGES = ["/", "/camera", "/history", "/history/trick/1", "/corrections", "/new", "/operator", "/state.json"]


@pytest.mark.parametrize("url", PAGES)
def test_every_page_opens_for_a_viewer(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def test_scoreboard_shows_the_engine_points_and_turn(client: FlaskClient, session: LiveSession) -> None:
    state = session.view().state
    board = client.get("/state.json").get_json()
    assert [p["points"] for p in board["players"]] == list(state.points)
    assert [p["tricks"] for p in board["players"]] == [
        sum(t.winner == seat for t in state.tricks) for seat in range(2)
    ]
    assert board["trump"]["code"] == str(state.trump_card)
    assert board["current"]["to_play"] == state.players[state.to_play]
    assert len(board["unseen"]) == len(state.unseen)
    page = client.get("/").get_data(as_text=True)
    for points in state.points:
        assert f'data-points="{points}"' in page
    assert f'data-card="{state.trump_card}"' in page


def test_language_follows_the_browser_and_the_switch(client: FlaskClient, session: LiveSession) -> None:
    trump = session.view().state.trump_card
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert "Scoreboard" in english and "Trump" in english
    spanish = client.get("/?lang=es", headers={"Accept-Language": "en"})
    assert "Marcador" in spanish.get_data(as_text=True)
    assert "lang=es" in spanish.headers["Set-Cookie"]
    again = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Triunfo" in again  # the switch is remembered
    from webui.i18n import card_name

    assert card_name(trump, "es") in again


def test_italian_decks_get_italian_card_names(full_record: GameRecord) -> None:
    session = LiveSession()
    session.load(full_record, Setup(deck="napoletane"))
    board = create_app({"SESSION": session}).test_client().get("/state.json?lang=es").get_json()
    names = {
        card["code"]: card["name"]
        for trick in board["tricks"]
        for card in (p["card"] for p in trick["plays"])
    }
    assert names["11B"] == "Cavallo di bastoni" and names["1O"] == "Asso di denari"
    assert board["tricks"][0]["plays"][0]["card"]["label"] in {str(n) for n in range(1, 11)}


def test_history_lists_every_trick_with_its_reason(client: FlaskClient, session: LiveSession) -> None:
    page = client.get("/history?lang=en").get_data(as_text=True)
    for trick in session.view().state.tricks:
        assert f'data-trick="{trick.n}"' in page
        assert trick.reason.split(": ")[1] in page


def test_dispute_view_shows_the_evidence_and_readings(
    client: FlaskClient, session: LiveSession, tmp_path: Path
) -> None:
    snapshot = tmp_path / "trick-1.jpg"
    snapshot.write_bytes(b"\xff\xd8 a jpeg \xff\xd9")
    session.add_evidence(
        Evidence(1, snapshot, ({"card": "3C", "confidence": 0.97, "alternatives": [["3E", 0.02]]},))
    )
    page = client.get("/history/trick/1?lang=en").get_data(as_text=True)
    trick = session.view().state.tricks[0]
    assert "/history/evidence/1.jpg" in page and "3E 0.02" in page
    assert trick.reason.split(": ")[1] in page
    with client.get("/history/evidence/1.jpg") as image:
        assert (image.status_code, image.data) == (200, snapshot.read_bytes())
    assert client.get("/history/evidence/2.jpg").status_code == 404
    assert client.get("/history/trick/99").status_code == 404


def test_record_downloads_as_json_and_csv(client: FlaskClient, session: LiveSession) -> None:
    record = session.view().record
    download = client.get("/record.json")
    assert "attachment" in download.headers["Content-Disposition"]
    assert GameRecord.from_dict(json.loads(download.data)) == record
    game, *rows = csv.DictReader(io.StringIO(client.get("/record.csv").get_data(as_text=True)))
    assert game["type"] == "game" and json.loads(game["record"])["players"] == list(record.players)
    assert len(rows) == len(record.events)
    assert [row["card"] for row in rows] == [str(e.card) if e.card else "" for e in record.events]
    assert {row["player"] for row in rows if row["seat"]} == set(record.players)


def test_a_bidding_games_record_downloads_as_csv(session: LiveSession, client: FlaskClient) -> None:
    record = random_game("chiamata-5", seed=7)
    session.load(record)
    _game, *rows = csv.DictReader(io.StringIO(client.get("/record.csv").get_data(as_text=True)))
    assert [row["type"] for row in rows] == [event.type for event in record.events]
    bids = [event for event in record.events if event.rank is not None]
    assert bids and [row["rank"] for row in rows if row["rank"]] == [str(int(e.rank)) for e in bids]


def test_camera_frames_and_status(client: FlaskClient, session: LiveSession) -> None:
    assert client.get("/camera.jpg").status_code == 404
    session.set_frame(b"\xff\xd8frame\xff\xd9")
    assert client.get("/camera.jpg").data == b"\xff\xd8frame\xff\xd9"
    stream = client.get("/camera.mjpg", buffered=False)
    assert stream.mimetype == "multipart/x-mixed-replace"
    first = next(iter(stream.response))
    assert session.subscribers == 1  # a camera viewer counts as a watcher
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg") and first.endswith(
        b"\xff\xd8frame\xff\xd9\r\n"
    )
    stream.close()
    assert session.subscribers == 0
    session.max_subscribers = 0
    assert client.get("/camera.mjpg").status_code == 503
    session.set_camera(CameraStatus.LOST, "USB unplugged")
    page = client.get("/?lang=en").get_data(as_text=True)
    assert 'data-camera="lost"' in page and "Camera lost: USB unplugged" in page


def test_unknown_pages_and_crashes_show_no_traceback(session: LiveSession) -> None:
    app = create_app({"SESSION": session})

    def broken() -> str:
        raise ZeroDivisionError("secret detail")

    app.add_url_rule("/broken", view_func=broken)
    client = app.test_client()
    missing = client.get("/no-such-page")
    crash = client.get("/broken")
    assert (missing.status_code, crash.status_code) == (404, 500)
    for body in (missing.get_data(as_text=True), crash.get_data(as_text=True)):
        assert "Traceback" not in body and "secret detail" not in body and "ZeroDivision" not in body


def test_app_factory_keeps_apps_apart(app: Flask) -> None:
    other = create_app()
    assert other.config["SESSION"] is not app.config["SESSION"]
    assert other.config["PIN"] != "" and other.config["SECRET_KEY"] != app.config["SECRET_KEY"]


def test_every_message_exists_in_every_language() -> None:
    from webui.i18n import MESSAGES

    assert MESSAGES["es"].keys() == MESSAGES["en"].keys()
    assert all(MESSAGES["es"][key] != MESSAGES["en"][key] for key in ("scoreboard", "trump", "camera_lost"))


def test_a_flags_snapshot_is_served_only_while_it_awaits(
    client: FlaskClient, session: LiveSession, full_record: GameRecord, tmp_path: Path
) -> None:
    snapshot = tmp_path / "doubt.jpg"
    snapshot.write_bytes(b"\xff\xd8 doubt \xff\xd9")
    event = full_record.events[len(session.view().record.events)]
    session.apply(lambda game: game.apply(event), doubt="low confidence", snapshot=snapshot)
    flag = session.view().flags[0]
    assert f"/corrections/flag/{flag.id}.jpg" in client.get("/corrections").get_data(as_text=True)
    with client.get(f"/corrections/flag/{flag.id}.jpg") as image:
        assert image.data == snapshot.read_bytes()
    session.resolve(flag.id)
    assert client.get(f"/corrections/flag/{flag.id}.jpg").status_code == 404


@pytest.mark.parametrize(
    ("rules", "players", "sides"),
    [
        ("brisca-4", ["Ana", "Bea", "Carla", "Dani"], ["Ana + Carla", "Bea + Dani"]),
        ("brisca-2x2", ["Ana", "Bea"], ["Ana", "Bea"]),
        ("brisca-3", ["Ana", "Bea", "Carla"], ["Ana", "Bea", "Carla"]),
    ],
)
def test_teams_are_scored_as_sides(rules: str, players: list[str], sides: list[str]) -> None:
    record = random_game(rules, seed=4, players=players)
    session = LiveSession()
    session.load(record)
    board = create_app({"SESSION": session}).test_client().get("/state.json").get_json()
    state = replay(record)
    assert [side["name"] for side in board["sides"]] == sides
    assert [side["points"] for side in board["sides"]] == list(state.team_points or state.points)
    assert sum(side["tricks"] for side in board["sides"]) == len(state.tricks)
    assert board["winners"] == list(dict.fromkeys(board["seat_names"][seat] for seat in state.winners))


def test_the_new_game_form_lists_the_rules_options(client: FlaskClient) -> None:
    from companion.engine.rules import OPTIONS

    page = client.get("/new").get_data(as_text=True)
    assert all(f"<code>{name}</code>" in page for name in OPTIONS)
    assert "last-trick | more-cards | draw" in page


def test_a_tied_game_says_which_rule_decided_it() -> None:
    games = (random_game("brisca-2", seed=seed, players=["Ana", "Luis"]) for seed in range(2000))
    record = next(game for game in games if replay(game).points == (60, 60))  # the first seeded tie
    state = replay(record)
    assert len(state.winners) == 1
    session = LiveSession()
    session.load(record)
    page = create_app({"SESSION": session}).test_client().get("/?lang=en").get_data(as_text=True)
    winner = record.players[state.winners[0]]
    assert f"Winner: {winner} (tied on points: the winner of the last trick wins)" in page


def _doubtful_game(wanted: Callable[[tuple[OpenResult, ...]], bool]) -> tuple[GameRecord, LiveSession]:
    """A game whose plays in doubt leave open results that ``wanted`` accepts, in a live session
    where those plays are flagged."""
    record, refs = doubtful_game(wanted)
    session = LiveSession()
    session.load(record)
    for ref in refs:
        session.question(ref, "a guess: the camera missed the card")
    return record, session


def test_a_finished_game_whose_winner_rests_on_plays_to_confirm_says_so() -> None:
    record, session = _doubtful_game(winner_open)
    client = create_app({"SESSION": session}).test_client()
    board = client.get("/state.json").get_json()
    state = replay(record)
    loser = record.players[1 - state.winners[0]]
    assert board["winner_open"] and any(r["winners"] == [loser] for r in board["open_results"])
    page = client.get("/?lang=en").get_data(as_text=True)
    assert "Not settled yet: as the plays to confirm turn out, the game may also go to" in page
    shown = next(r for r in board["open_results"] if r["winners"] == [loser])
    assert f"{loser} ({shown['points']})" in page
    for flag in session.view().flags:  # the operator confirms every play as read
        session.resolve(flag.id)
    board = client.get("/state.json").get_json()
    assert board["open_results"] == [] and not board["winner_open"]
    assert "Not settled yet" not in client.get("/?lang=en").get_data(as_text=True)


def test_a_finished_game_whose_points_alone_rest_on_plays_to_confirm_says_the_winner_stands() -> None:
    _, session = _doubtful_game(lambda results: len(results) > 1 and not winner_open(results))
    client = create_app({"SESSION": session}).test_client()
    board = client.get("/state.json").get_json()
    assert board["open_results"] and not board["winner_open"]
    page = client.get("/?lang=es").get_data(as_text=True)
    assert "El ganador no cambia con las jugadas por confirmar" in page
    assert all(r["points"] in page for r in board["open_results"])
