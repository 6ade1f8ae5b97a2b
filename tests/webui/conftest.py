"""Fixtures: a live session part-way through a seeded random game, the app, and clients."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import PIN, PLAYED, csrf_of, prefix

from companion.engine import GameRecord, random_game
from companion.session import LiveSession
from webui import create_app


@pytest.fixture(scope="session")
def full_record() -> GameRecord:
    return random_game("brisca-2", seed=11, players=["Ana", "Luis"])


@pytest.fixture
def session(full_record: GameRecord) -> LiveSession:
    live = LiveSession()
    live.load(prefix(full_record, PLAYED))
    return live


@pytest.fixture
def app(session: LiveSession) -> Flask:
    return create_app({"SESSION": session, "PIN": PIN, "TESTING": True, "SSE_HEARTBEAT_S": 0.05})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def operator(app: Flask) -> FlaskClient:
    """A client signed in with the PIN; ``operator.csrf`` is its form token."""
    signed = app.test_client()
    token = csrf_of(signed)
    response = signed.post("/operator", data={"pin": PIN, "csrf": token})
    assert response.status_code == 303
    signed.csrf = token  # type: ignore[attr-defined]
    return signed


@pytest.fixture
def post(operator: FlaskClient) -> Callable[..., object]:
    """POST as the operator with the CSRF token filled in."""

    def send(url: str, **data: object) -> object:
        return operator.post(url, data={"csrf": operator.csrf, **data})  # type: ignore[attr-defined]

    return send
