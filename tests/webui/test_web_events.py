"""Server-sent events: the fragment after every change, catching up by Last-Event-ID."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing

import pytest
from flask.testing import FlaskClient
from webui_helpers import PLAYED
from werkzeug.test import TestResponse

from companion.engine import GameRecord
from companion.session import LiveSession


def messages(client: FlaskClient, url: str = "/events", **headers: str) -> Iterator[dict[str, str]]:
    """Parsed SSE messages (comments and the retry line skipped) from a streaming response."""
    return parsed(client.get(url, headers=headers, buffered=False))


def parsed(response: TestResponse) -> Iterator[dict[str, str]]:
    """The messages of an event stream already requested."""
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    try:
        for chunk in response.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            fields: dict[str, str] = {}
            for line in filter(None, text.splitlines()):
                key, _, value = line.partition(": ")
                fields[key] = fields[key] + "\n" + value if key in fields else value
            if "retry" not in fields:
                yield fields
    finally:
        response.close()


def test_a_new_watcher_gets_the_board_at_once(client: FlaskClient, session: LiveSession) -> None:
    with closing(messages(client)) as stream:
        first = next(stream)
    assert first["event"] == "update" and first["id"] == str(session.view().revision)
    assert f'data-revision="{session.view().revision}"' in first["data"]


def test_each_change_arrives_as_an_update(
    client: FlaskClient, session: LiveSession, full_record: GameRecord
) -> None:
    event = full_record.events[PLAYED]
    with closing(messages(client, **{"Last-Event-ID": str(session.view().revision)})) as stream:
        assert next(stream) == {"": "alive"}  # up to date: nothing to send until a change
        session.apply(lambda game: game.apply(event))
        update = next(message for message in stream if "id" in message)
    assert update["id"] == str(session.view().revision)
    assert f'data-card="{event.card}"' in update["data"]


def test_a_change_made_as_a_watcher_connects_is_sent_once(
    client: FlaskClient, session: LiveSession, full_record: GameRecord
) -> None:
    response = client.get("/events", buffered=False)  # subscribed, nothing read yet
    session.apply(lambda game: game.apply(full_record.events[PLAYED]))
    with closing(parsed(response)) as stream:
        first, second = next(stream), next(stream)
    assert first["id"] == str(session.view().revision)
    assert second == {"": "alive"}  # its notice came for the revision already sent


def test_a_reconnecting_page_catches_up(
    client: FlaskClient, session: LiveSession, full_record: GameRecord
) -> None:
    seen = session.view().revision
    for event in full_record.events[PLAYED : PLAYED + 3]:
        session.apply(lambda game, event=event: game.apply(event))
    with closing(messages(client, **{"Last-Event-ID": str(seen)})) as stream:
        first = next(stream)
    assert first["id"] == str(session.view().revision)
    points = session.view().state.points
    for value in points:
        assert f'data-points="{value}"' in first["data"]


@pytest.mark.parametrize("part", ["flags", "log"])
def test_operator_parts_stream_too(client: FlaskClient, session: LiveSession, part: str) -> None:
    with closing(messages(client, f"/events?part={part}")) as stream:
        first = next(stream)
    assert first["id"] == str(session.view().revision)


def test_unknown_parts_and_too_many_watchers_are_refused(client: FlaskClient, session: LiveSession) -> None:
    assert client.get("/events?part=secrets").status_code == 404
    session.max_subscribers = 0
    refused = client.get("/events")
    assert refused.status_code == 503 and "too many watchers" in refused.get_data(as_text=True)


def test_a_closed_stream_stops_watching(client: FlaskClient, session: LiveSession) -> None:
    with closing(messages(client)) as stream:
        next(stream)
        assert session.subscribers == 1
    assert session.subscribers == 0
