"""Changing the game: PIN, CSRF, corrections as engine events, new game, import."""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import PIN, PLAYED, csrf_of, prefix

from companion.cards import Card
from companion.engine import GameRecord, replay
from companion.session import LiveSession
from companion.table.markers import draw_markers
from companion.table.profile import DEFAULT_TABLE_MM

MUTATIONS = [
    ("/new", {"players": "X\nY", "rules": "brisca-2", "deck": "fournier-1878", "first": "0"}),
    ("/corrections/undo", {}),
    ("/corrections/add", {"kind": "play", "seat": "0", "card": "1O"}),
    ("/corrections/event/3", {"do": "void"}),
    ("/corrections/flag/1", {"do": "confirm"}),
    ("/history/import", {}),
]


@pytest.mark.parametrize(("url", "data"), MUTATIONS)
def test_viewers_cannot_change_the_game(
    client: FlaskClient, session: LiveSession, url: str, data: dict
) -> None:
    before = session.view()
    response = client.post(url, data={"csrf": csrf_of(client), **data})
    assert response.status_code == 403
    assert "operator" in response.get_data(as_text=True).lower() or "operador" in response.get_data(
        as_text=True
    )
    assert session.view() is before


@pytest.mark.parametrize(("url", "data"), MUTATIONS)
def test_forms_without_the_csrf_token_are_refused(
    operator: FlaskClient, session: LiveSession, url: str, data: dict
) -> None:
    before = session.view()
    assert operator.post(url, data={**data, "csrf": "forged"}).status_code == 403
    assert operator.post(url, data=data).status_code == 403
    assert session.view() is before


def test_a_wrong_pin_is_refused_and_repeated_guesses_lock_out(client: FlaskClient) -> None:
    token = csrf_of(client)
    for _ in range(5):
        assert client.post("/operator", data={"pin": "000000", "csrf": token}).status_code == 403
    assert client.post("/operator", data={"pin": PIN, "csrf": token}).status_code == 403  # locked out
    assert client.post("/corrections/undo", data={"csrf": token}).status_code == 403


def test_signing_out_ends_the_operator_rights(operator: FlaskClient, session: LiveSession) -> None:
    token = operator.csrf  # type: ignore[attr-defined]
    assert operator.post("/operator/leave", data={"csrf": token}).status_code == 303
    before = session.view()
    assert operator.post("/corrections/undo", data={"csrf": token}).status_code == 403
    assert session.view() is before


def misread(session: LiveSession, full_record: GameRecord) -> Card:
    """Feed the next play with a wrong card and a doubt; return the true card."""
    truth = full_record.events[PLAYED]
    assert truth.type == "play" and truth.card is not None and truth.seat is not None
    wrong = next(card for card in sorted(session.view().state.unseen, key=str) if card != truth.card)
    session.apply(
        lambda game: game.play(truth.seat, wrong),
        doubt="read twice",
        alternatives=((wrong, 0.6), (truth.card, 0.3)),
    )
    return truth.card


def test_picking_another_card_amends_the_event_and_the_score_follows(
    post: Callable[..., Any], session: LiveSession, full_record: GameRecord, client: FlaskClient
) -> None:
    truth = misread(session, full_record)
    (flag,) = session.view().flags
    page = client.get("/corrections").get_data(as_text=True)
    assert f'data-flag="{flag.id}"' in page and "read twice" in page
    response = post(f"/corrections/flag/{flag.id}", do="pick", card=str(truth))
    assert response.status_code == 303
    view = session.view()
    assert view.flags == () and view.record.events[-1].to_dict() == {
        "type": "amend",
        "ref": PLAYED,
        "card": str(truth),
        "source": "operator",
    }
    assert view.state == replay(prefix(full_record, PLAYED + 1))


def test_a_flagged_play_amended_since_shows_its_card_as_amended(
    session: LiveSession, full_record: GameRecord, client: FlaskClient
) -> None:
    """A missed card's guess, changed after it was flagged, is shown as the card guessed now."""
    misread(session, full_record)
    session.resolve(session.view().flags[0].id)
    guessed = next(card for card in sorted(session.view().state.unseen, key=str))
    session.apply(lambda game: game.amend(PLAYED, card=guessed), doubt="a guess")
    flags = client.get("/corrections").get_data(as_text=True).split('id="flags"')[1]
    shown = [flag.split('data-card="')[1].split('"')[0] for flag in flags.split('data-flag="')[1:]]
    assert shown == [str(guessed)]


@pytest.mark.parametrize("do", ["move", "confirm", "void"])
def test_moving_confirming_and_voiding_flags(
    post: Callable[..., Any], session: LiveSession, full_record: GameRecord, do: str
) -> None:
    misread(session, full_record)
    before = session.view()
    other_seat = 1 - full_record.events[PLAYED].seat
    assert post(f"/corrections/flag/{before.flags[0].id}", do=do, seat=str(other_seat)).status_code == 303
    after = session.view()
    assert after.flags == ()
    added = after.record.events[len(before.record.events) :]
    expected = {
        "move": [{"type": "amend", "ref": PLAYED, "seat": other_seat, "source": "operator"}],
        "confirm": [],
        "void": [{"type": "void", "ref": PLAYED, "source": "operator"}],
    }[do]
    assert [event.to_dict() for event in added] == expected


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"do": "pick", "card": "13Z"}, "not a card"),
        ({"do": "move", "seat": "7"}, "seat must be 0..1"),
        ({"do": "explode"}, "unknown correction"),
    ],
)
def test_bad_corrections_say_why_and_change_nothing(
    post: Callable[..., Any], session: LiveSession, full_record: GameRecord, data: dict, message: str
) -> None:
    misread(session, full_record)
    before = session.view()
    response = post(f"/corrections/flag/{before.flags[0].id}", **data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert session.view() is before


def test_amend_void_add_and_undo_any_event(
    post: Callable[..., Any], session: LiveSession, full_record: GameRecord
) -> None:
    state = session.view().state
    play = next(i for i, e in enumerate(session.view().record.events) if e.type == "play")
    refused = post("/corrections/event/99", do="void")
    assert refused.status_code == 400 and "event 99" in refused.get_data(as_text=True)
    response = post(
        "/corrections/add", kind="play", seat=str(state.to_play), card=str(state.tricks[0].plays[0][1])
    )
    assert response.status_code == 400 and "already played" in response.get_data(as_text=True)
    truth = full_record.events[PLAYED]
    assert (
        post("/corrections/add", kind="play", seat=str(truth.seat), card=str(truth.card)).status_code == 303
    )
    assert session.view().state == replay(prefix(full_record, PLAYED + 1))
    assert post("/corrections/undo").status_code == 303
    assert session.view().state.points == state.points and session.view().state.current == state.current
    assert post(f"/corrections/event/{play}", card="", seat="").status_code == 400
    assert post(f"/corrections/event/{play}", do="void").status_code == 303
    assert session.view().record.events[-1].to_dict() == {"type": "void", "ref": play, "source": "operator"}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"players": "Solo"}, "2 to 6 players"),
        ({"players": "Ana\nAna"}, "distinct"),
        ({"rules": "brisca-99"}, "unknown rules preset"),
        ({"options": "{not json"}, "not JSON"),
        ({"options": '{"tie_break": "coin"}'}, "tie_break"),
        ({"first": "5"}, "first seat 5"),
        ({"deck": "tarot"}, "unknown deck"),
        ({"corners": "1,2 3,4"}, "four table corners"),
        ({"players": "A\nB\nC"}, "needs 2 players"),
    ],
)
def test_a_bad_new_game_says_why_and_changes_nothing(
    post: Callable[..., Any], session: LiveSession, form: dict, message: str
) -> None:
    before = session.view()
    good = {
        "players": "Eva\nJon",
        "rules": "brisca-2",
        "first": "0",
        "deck": before.setup.deck,
        "corners": "",
    }
    response = post("/new", **{**good, **form})
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert session.view() is before


def test_a_new_game_starts_with_its_setup(post: Callable[..., Any], session: LiveSession) -> None:
    form = {
        "players": "Eva\nJon\nAda\nLeo",
        "rules": "brisca-4",
        "options": '{"tie_break": "draw"}',
        "first": "3",
        "deck": session.view().setup.deck,
        "corners": "10,12 620,15 630,470 5,460",
    }
    assert post("/new", **form).status_code == 303
    view = session.view()
    assert view.record.players == ("Eva", "Jon", "Ada", "Leo") and view.record.first == 3
    assert view.state.rules.tie_break == "draw" and view.record.events == ()
    assert view.setup.corners == ((10, 12), (620, 15), (630, 470), (5, 460))


def _importer(operator: FlaskClient, name: str) -> Callable[[bytes], Any]:
    """Uploads a file called ``name`` to the history page's import form."""

    def upload(body: bytes) -> Any:
        data = {"csrf": operator.csrf, "record": (io.BytesIO(body), name)}  # type: ignore[attr-defined]
        return operator.post("/history/import", data=data, content_type="multipart/form-data")

    return upload


def test_import_continues_from_a_record_and_bad_files_change_nothing(
    operator: FlaskClient, session: LiveSession, full_record: GameRecord
) -> None:
    upload = _importer(operator, "game.json")
    before = session.view()
    for body, message in [(b"\x89PNG", "not a JSON record"), (b'{"format": "x"}', "not a game record")]:
        response = upload(body)
        assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert session.view() is before
    assert upload(json.dumps(full_record.to_dict()).encode()).status_code == 303
    assert session.view().record == full_record and session.view().state.complete


def test_a_downloaded_csv_record_imports_back(
    operator: FlaskClient, session: LiveSession, full_record: GameRecord
) -> None:
    upload = _importer(operator, "game.csv")

    session.load(full_record)
    downloaded = operator.get("/record.csv").data
    session.load(GameRecord.create("brisca-2", ["Eva", "Jon"]))
    before = session.view()
    response = upload(downloaded.replace(b"\n1,", b"\nuno,", 1))
    assert response.status_code == 400
    assert "expected 1: keep the rows in order" in response.get_data(as_text=True)
    assert session.view() is before
    assert upload(downloaded).status_code == 303
    assert session.view().record == full_record


def test_errors_are_shown_in_the_chosen_language(app: Flask) -> None:
    client = app.test_client()
    english = client.post("/corrections/undo?lang=en", data={"csrf": csrf_of(client)})
    assert "Only the operator can change the game." in english.get_data(as_text=True)


def jpeg(frame: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", frame)[1].tobytes()


def test_table_corners_are_found_from_the_markers_on_the_camera_frame(
    post: Callable[..., Any], session: LiveSession
) -> None:
    corners = np.array([[80, 60], [1180, 90], [1130, 680], [120, 650]], np.float64)
    frame = draw_markers(np.full((720, 1280, 3), (40, 90, 40), np.uint8), corners, DEFAULT_TABLE_MM)
    session.set_frame(jpeg(frame))
    response = post("/new/markers")
    assert response.status_code == 303
    found = response.headers["Location"].split("corners=")[1].replace("%2C", ",").split("+")
    assert np.abs(np.array([[float(v) for v in pair.split(",")] for pair in found]) - corners).max() <= 2


def test_marker_detection_without_markers_says_so(post: Callable[..., Any], session: LiveSession) -> None:
    assert post("/new/markers").status_code == 400  # no frame yet
    session.set_frame(jpeg(np.zeros((60, 80, 3), np.uint8)))
    response = post("/new/markers")
    assert response.status_code == 400 and "marker" in response.get_data(as_text=True).lower()


def test_a_lockout_holds_only_the_address_that_guessed(app: Flask) -> None:
    guesser, operator = app.test_client(), app.test_client()
    token = csrf_of(guesser)
    for _ in range(6):
        guesser.post(
            "/operator", data={"pin": "111111", "csrf": token}, environ_base={"REMOTE_ADDR": "10.0.0.9"}
        )
    response = operator.post("/operator", data={"pin": PIN, "csrf": csrf_of(operator)})
    assert response.status_code == 303


def test_an_oversized_upload_is_refused(operator: FlaskClient, session: LiveSession) -> None:
    before = session.view()
    body = {"csrf": operator.csrf, "record": (io.BytesIO(b" " * (3 * 1024 * 1024)), "big.json")}  # type: ignore[attr-defined]
    with operator.post("/history/import", data=body, content_type="multipart/form-data") as response:
        assert response.status_code == 413 and "Traceback" not in response.get_data(as_text=True)
        response.request.input_stream.close()  # the test client spooled the big body to a file
    assert session.view() is before
    gc.collect()  # any file left open would warn here, in this test
