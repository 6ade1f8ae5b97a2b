"""Helpers shared by the web UI tests (imported by name: this folder is on the test path)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from flask.testing import FlaskClient

from companion.engine import GameRecord

PIN = "246810"
PLAYED = 25  # events of the seeded game already on the log when a test starts
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
REFRESH_SCREENSHOTS = "COMPANION_REFRESH_SCREENSHOTS"  # set to 1 to rewrite README's screenshots


def prefix(record: GameRecord, count: int) -> GameRecord:
    """The record cut after its first ``count`` events."""
    return GameRecord(record.rules, record.players, record.first, record.events[:count])


def screenshot_folder(environ: Mapping[str, str], scratch: Path) -> Path:
    """Where the browser tests save screenshots: ``scratch`` unless a refresh is asked for."""
    return DOCS_SCREENSHOTS if environ.get(REFRESH_SCREENSHOTS) == "1" else scratch


def csrf_of(client: FlaskClient) -> str:
    """The CSRF token of the client's session, as pages publish it."""
    page = client.get("/operator").get_data(as_text=True)
    match = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert match is not None
    return match.group(1)
