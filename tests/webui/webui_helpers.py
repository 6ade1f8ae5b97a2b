"""Helpers shared by the web UI tests (imported by name: this folder is on the test path)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.engine import GameRecord

PIN = "246810"
PLAYED = 25  # events of the seeded game already on the log when a test starts


def prefix(record: GameRecord, count: int) -> GameRecord:
    """The record cut after its first ``count`` events."""
    return GameRecord(record.rules, record.players, record.first, record.events[:count])


def csrf_of(client: FlaskClient) -> str:
    """The CSRF token of the client's session, as pages publish it."""
    page = client.get("/operator").get_data(as_text=True)
    match = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert match is not None
    return match.group(1)
