"""End to end in Debian's headless Chromium: the pages a table actually uses.

The server runs under waitress on 127.0.0.1 as ``companion serve`` does; the test plays
the pipeline's part by feeding a seeded game into the live session. Screenshots of the
scoreboard and of the dispute view are saved in a temporary folder, or into
``docs/screenshots/`` when ``COMPANION_REFRESH_SCREENSHOTS=1`` (see README, Web UI).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from doubtful_games import doubtful_game
from webui_helpers import PIN, PLAYED, prefix, screenshot_folder

from companion.cards import Card
from companion.engine import GameRecord, random_game, replay, winner_open
from companion.session import CameraStatus, Evidence, LiveSession
from companion.store import Store
from companion.store.writer import GameWriter
from companion.tournament import Entrant, new_tournament, next_round
from companion.tournament.stored import create, load
from webui import create_app
from webui.i18n import card_name
from webui.server import Background, make_server

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
UPDATE_MS = 1000  # the scoreboard must follow an event within a second

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the screenshots go to (README's only when a refresh is asked for)."""
    folder = screenshot_folder(os.environ, tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def serve(session: LiveSession) -> Iterator[Callable[..., str]]:
    """Start the app on a free port with extra config; returns its base URL."""
    servers: list[Background] = []

    def start(**config: Any) -> str:
        app = create_app({"SESSION": session, "PIN": PIN, "SSE_HEARTBEAT_S": 0.2, **config})
        servers.append(Background(make_server(app, "127.0.0.1", 0, viewers=8)))
        return servers[-1].url

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="es-ES", accept_downloads=True
    )
    yield context.new_page()
    context.close()


def feed(session: LiveSession, event: Any) -> int:
    """Apply one event as the pipeline would; return the new revision."""
    session.apply(lambda game: game.apply(event))
    return session.view().revision


def expect_revision(page: Any, revision: int) -> None:
    page.wait_for_selector(f'#board [data-revision="{revision}"]', timeout=UPDATE_MS, state="attached")


def expect_points(page: Any, points: list[int]) -> None:
    """Wait (at most a second) until the scoreboard shows ``points``."""
    page.wait_for_function(
        "want => [...document.querySelectorAll('#board .side .points')]"
        ".map(e => +e.textContent).join() === want",
        arg=",".join(map(str, points)),
        timeout=UPDATE_MS,
    )


def shown_points(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#board .side .points").all_inner_texts()]


def sign_in(page: Any, url: str) -> None:
    page.goto(f"{url}/operator")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/corrections")


def table_snapshot(path: Path, trick: Any) -> Path:
    """A drawn stand-in for the camera's snapshot: felt, and each card as a labelled box."""
    image = np.full((360, 640, 3), (46, 82, 20), np.uint8)
    for k, (_seat, card) in enumerate(trick.plays):
        x = 170 + 180 * k
        cv2.rectangle(image, (x, 110), (x + 110, 280), (246, 253, 255), -1)
        cv2.putText(image, str(card), (x + 18, 210), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (40, 40, 40), 3)
    cv2.imwrite(str(path), image)
    return path


def test_the_scoreboard_follows_the_game_within_a_second(
    page: Any, serve: Callable[..., str], session: LiveSession, full_record: GameRecord, screenshots: Path
) -> None:
    url = serve()
    page.goto(f"{url}/")
    expect_revision(page, session.view().revision)
    for event in full_record.events[PLAYED : PLAYED + 8]:
        expect_revision(page, feed(session, event))
        assert shown_points(page) == list(session.view().state.points)
    state = session.view().state
    assert page.inner_text("#board .to-play") == state.players[state.to_play]
    assert page.locator(f'#board .trump [data-card="{state.trump_card}"]').count() == 1
    page.screenshot(path=str(screenshots / "scoreboard.png"), full_page=True)


def test_correct_a_misread_card_then_undo(
    page: Any,
    browser: Any,
    serve: Callable[..., str],
    session: LiveSession,
    full_record: GameRecord,
    screenshots: Path,
) -> None:
    url = serve()
    last = next(k for k in range(PLAYED, len(full_record.events)) if trick_ends_at(full_record, k))
    for event in full_record.events[PLAYED:last]:
        feed(session, event)
    truth = full_record.events[last]
    wrong = next(c for c in sorted(session.view().state.unseen, key=str) if c.points != truth.card.points)
    session.apply(
        lambda game: game.play(truth.seat, wrong),
        doubt="two cards read alike",
        alternatives=((wrong, 0.5), (truth.card, 0.4)),
    )
    misread_points = list(session.view().state.points)
    watcher = browser.new_page()
    watcher.goto(f"{url}/")
    assert shown_points(watcher) == misread_points

    sign_in(page, url)
    page.screenshot(path=str(screenshots / "corrections.png"))
    page.click(f'[data-flag] button.alt[data-card="{truth.card}"]')
    corrected = list(replay(prefix(full_record, last + 1)).points)
    assert corrected != misread_points
    expect_points(watcher, corrected)
    assert page.locator("[data-flag]").count() == 0
    assert page.locator(f'tr[data-seq="{last + 1}"]').inner_text().startswith(f"{last + 1}\tamend")

    page.click("#undo button")
    page.wait_for_selector(f'tr[data-seq="{last + 2}"]')
    expect_points(watcher, misread_points)
    watcher.close()


def test_a_game_ending_on_plays_to_confirm_says_who_else_may_have_won(
    page: Any, browser: Any, serve: Callable[..., str], session: LiveSession, screenshots: Path
) -> None:
    """Four players: the last trick's two last cards go in flagged (the camera missed them); either
    order gives the game to either team, and every watcher is told so until the operator confirms
    them."""
    game = random_game("brisca-4", 1, players=["Ana", "Luis", "Eva", "Pau"])
    last = [i for i, event in enumerate(game.events) if event.type == "play"][38]
    session.load(prefix(game, last))
    url = serve()
    watcher = browser.new_page()
    watcher.goto(f"{url}/")
    for event in game.events[last : last + 2]:
        session.apply(lambda g, event=event: g.apply(event), doubt="a guess: the camera missed the card")
    banner = watcher.wait_for_selector('#board .open-result[data-winner-open="true"]', timeout=UPDATE_MS)
    loser = "Luis + Pau" if replay(game).winners == (0, 2) else "Ana + Eva"
    text = banner.inner_text()
    assert text.startswith("Not settled yet: as the plays to confirm turn out") and f"{loser} (" in text
    watcher.screenshot(path=str(screenshots / "open-result.png"), full_page=True)

    sign_in(page, url)
    other = page.locator(".open-results tr.other")  # the two cards the other way round
    assert other.count() == 1 and "Ana + Eva" in other.inner_text() + page.inner_text(
        ".open-results tr.recorded"
    )
    recorded = [str(card) for _, card in replay(game).tricks[-1].plays[2:]]
    assert [c.get_attribute("data-card") for c in other.locator("[data-card]").all()] == recorded[::-1]
    page.locator(".open-results").screenshot(path=str(screenshots / "open-result-orders.png"))
    for _ in range(2):
        page.click("[data-flag] button[type=submit]")
    watcher.wait_for_selector("#board .open-result", state="detached", timeout=UPDATE_MS)
    assert watcher.locator("#board .result").inner_text().startswith("Game over")
    watcher.close()


def test_a_tournament_game_waits_for_its_readings_until_the_operator_confirms_them(
    page: Any, tmp_path: Path, screenshots: Path
) -> None:
    """A stored game whose flagged plays may change its winner is not offered to the tournament;
    the operator opens it from the tournament page, confirms its plays, and then it counts."""
    record, refs = doubtful_game(winner_open)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    with ExitStack() as closing:
        store = closing.enter_context(Store.open(db, evidence_dir=tmp_path))
        create(store, next_round(new_tournament("Liga", "league", [Entrant.of("Ana"), Entrant.of("Luis")])))
        game = store.import_record(record.to_dict())
        store.keep_flags(
            game, [{"seq": ref, "reason": "a guess: the camera missed the card"} for ref in refs]
        )
        writer = GameWriter(store)  # as companion serve makes the app
        live = LiveSession(sink=writer, evidence_sink=writer.keep, flag_sink=writer.flags)
        app = create_app({"SESSION": live, "PIN": PIN, "WRITER": writer})
        server = Background(make_server(app, "127.0.0.1", 0, viewers=4))
        closing.callback(server.stop)
        url = server.url

        sign_in(page, url)
        page.goto(f"{url}/tournaments/Liga/?lang=en")
        note = page.locator(f'.unsettled[data-unsettled="{game}"]')
        assert "6 of the camera's readings were never confirmed" in note.inner_text()
        assert page.locator("button[data-scored]").count() == 0
        page.locator("section.round").screenshot(path=str(screenshots / "tournament-unsettled.png"))
        page.goto(f"{url}/games?lang=en")
        assert "6: may change the result" in page.inner_text(f'tr[data-game="{game}"]')
        page.locator("section.panel").screenshot(path=str(screenshots / "stored-games.png"))

        page.goto(f"{url}/tournaments/Liga/?lang=en")
        page.click(f'button[data-continue="{game}"]')
        page.wait_for_url(f"{url}/corrections")
        assert page.locator(".open-results tr.other").count() >= 1  # the results the plays leave open
        for _ in refs:  # the operator confirms each play as read
            page.click("[data-flag] button[type=submit]")
        page.wait_for_selector("[data-flag]", state="detached")
        assert store.open_flags(game) == []
        page.goto(f"{url}/tournaments/Liga/?lang=en")
        assert page.locator(".unsettled").count() == 0
        page.click(f'button[data-scored="{game}"]')
        result = load(store, "Liga").results[(1, 1)]
        assert result.games == (game,) and result.home_games + result.away_games == 1
        assert f"{result.home_games}-{result.away_games}" in page.inner_text("section.round")


def trick_ends_at(record: GameRecord, k: int) -> bool:
    """Whether event ``k`` is the last card of a trick."""
    before, after = replay(prefix(record, k)), replay(prefix(record, k + 1))
    return record.events[k].type == "play" and len(after.tricks) == len(before.tricks) + 1


def test_open_a_tricks_evidence_and_download_the_record(
    page: Any, serve: Callable[..., str], session: LiveSession, tmp_path: Path, screenshots: Path
) -> None:
    url = serve()
    trick = session.view().state.tricks[2]
    reading = {
        "card": str(trick.plays[0][1]),
        "confidence": 0.93,
        "alternatives": [[str(trick.plays[1][1]), 0.04]],
    }
    session.add_evidence(Evidence(trick.n, table_snapshot(tmp_path / "trick.jpg", trick), (reading,)))
    page.goto(f"{url}/history")
    page.click(f'tr[data-trick="{trick.n}"] td a')
    page.wait_for_url(f"{url}/history/trick/{trick.n}")
    assert page.evaluate("document.querySelector('img.snapshot').naturalWidth") == 640
    assert page.locator(".verdict strong").inner_text() == session.view().record.players[trick.winner]
    assert "Por qué" in page.inner_text(".reason")
    page.screenshot(path=str(screenshots / "dispute.png"), full_page=True)

    page.goto(f"{url}/history")
    with page.expect_download() as download:
        page.click("a[href='/record.json']")
    saved = Path(download.value.path())
    assert GameRecord.from_dict(json.loads(saved.read_text())) == session.view().record


def test_camera_lost_and_a_dropped_connection_catch_up(
    page: Any, serve: Callable[..., str], session: LiveSession, full_record: GameRecord
) -> None:
    url = serve(SSE_MAX_S=0.3)  # every stream ends after 0.3 s: the page must reconnect and catch up
    page.goto(f"{url}/?lang=en")
    session.set_camera(CameraStatus.LOST, "no frames for 5 s")
    page.wait_for_selector("#board [data-camera=lost]", timeout=UPDATE_MS)
    assert "Camera lost" in page.inner_text("#board .camera-status")
    for event in full_record.events[PLAYED:]:
        feed(session, event)
        page.wait_for_timeout(40)
    expect_revision(page, session.view().revision)
    assert shown_points(page) == list(session.view().state.points)
    assert "Game over" in page.inner_text("#board .result")
    session.set_camera(CameraStatus.OK)
    page.wait_for_selector("#board [data-camera]", state="detached", timeout=UPDATE_MS * 2)


def test_cards_are_named_in_spanish(page: Any, serve: Callable[..., str], session: LiveSession) -> None:
    url = serve()
    page.goto(f"{url}/")
    trump: Card = session.view().state.trump_card
    assert page.locator("#board .trump svg").get_attribute("aria-label") == card_name(trump, "es")


def test_a_phone_sees_the_whole_scoreboard_in_large_type(
    browser: Any, serve: Callable[..., str], session: LiveSession, screenshots: Path
) -> None:
    url = serve()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{url}/?lang=en")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing to scroll sideways
    points_px = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.side .points')).fontSize)"
    )
    assert points_px >= 40
    page.screenshot(path=str(screenshots / "scoreboard-phone.png"))
    phone.close()


def test_the_operator_starts_a_game_by_clicking_the_table_corners(
    page: Any, serve: Callable[..., str], session: LiveSession
) -> None:
    url = serve()
    frame = np.full((480, 640, 3), (40, 90, 40), np.uint8)
    session.set_frame(cv2.imencode(".jpg", frame)[1].tobytes())
    sign_in(page, url)
    page.goto(f"{url}/new")
    page.fill("textarea[name=players]", "Eva\nJon")
    image = page.locator("#calibrate-image")
    image.wait_for()
    page.wait_for_function("document.getElementById('calibrate-image').naturalWidth > 0")
    box = image.bounding_box()
    scale = 640 / box["width"]
    clicks = [(40, 30), (600, 35), (610, 450), (30, 440)]
    for x, y in clicks:
        image.click(position={"x": x / scale, "y": y / scale})
    assert page.locator("#calibrate .dot").count() == 4
    page.click("#new-game button[type=submit]")
    page.wait_for_url(f"{url}/")
    setup = session.view().setup
    assert session.view().record.players == ("Eva", "Jon") and setup.corners is not None
    assert np.abs(np.array(setup.corners) - np.array(clicks)).max() <= 2


def test_start_a_game_by_importing_a_record(
    page: Any, serve: Callable[..., str], session: LiveSession, full_record: GameRecord, tmp_path: Path
) -> None:
    url = serve()
    upload = tmp_path / "replayed.json"
    upload.write_text(json.dumps(prefix(full_record, 9).to_dict()))
    sign_in(page, url)
    page.goto(f"{url}/history")
    page.set_input_files("input[name=record]", str(upload))
    page.click("form[enctype] button[type=submit]")
    page.wait_for_url(f"{url}/")
    assert session.view().record == prefix(full_record, 9)
    expect_points(page, list(replay(prefix(full_record, 9)).points))
    expect_revision(page, feed(session, full_record.events[9]))
