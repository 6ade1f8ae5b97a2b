"""The standings and the bracket print cleanly: Debian's headless Chromium with print media."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tournament_helpers import names, play_out

from companion.store import Store
from companion.tournament import new_tournament
from companion.tournament.stored import create
from webui import create_app
from webui.server import Background, make_server

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)"),
]


@pytest.fixture
def base_url(tmp_path) -> Iterator[str]:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    with Store.open(db, evidence_dir=tmp_path) as store:
        create(store, play_out(new_tournament("Copa", "knockout", names(6)), seed=6))
    app = create_app({"DATABASE": db})
    server = Background(make_server(app, "127.0.0.1", 0, viewers=4))
    yield server.url
    server.stop()
    app.extensions["store"].close()


@pytest.fixture
def page() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
        )
        yield browser.new_page()
        browser.close()


@pytest.mark.parametrize("view", ["standings", "bracket"])
def test_printing_keeps_the_results_and_drops_the_controls(base_url, page, view):
    page.goto(f"{base_url}/tournaments/Copa/{view}")
    assert page.locator("header.top").is_visible()
    page.emulate_media(media="print")
    assert page.locator("header.top").is_hidden()
    assert page.locator("nav.tournament-nav").is_hidden()
    results = page.locator("table.standings" if view == "standings" else ".bracket .match")
    assert results.first.is_visible()
    assert page.locator(".champion, h1").first.is_visible()
    assert page.pdf(format="A4")[:4] == b"%PDF"
