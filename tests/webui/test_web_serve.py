"""``companion serve``: starts, prints where to look and the PIN, serves the record or stored game given."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from doubtful_games import doubtful_game

from companion.engine import GameRecord, random_game, replay, winner_open
from companion.store import Store


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_game("brisca-2", seed=5, players=["Ana", "Luis"]).to_dict()))
    return path


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def started(record_file: Path) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    process = serve("--record", str(record_file), "--pin", "97531")
    assert process.stdout is not None
    lines = [process.stdout.readline().strip() for _ in range(2)]
    yield process, lines
    process.terminate()
    process.communicate(timeout=10)


def test_serve_prints_the_address_and_pin_and_serves_the_record(
    started: tuple[subprocess.Popen[str], list[str]], record_file: Path
) -> None:
    _, (address, pin) = started
    assert address.startswith("Scoreboard: http://127.0.0.1:") and pin == "Operator PIN: 97531"
    url = address.removeprefix("Scoreboard: ")
    with urllib.request.urlopen(f"{url}state.json", timeout=10) as response:
        board = json.load(response)
    state = replay(GameRecord.from_dict(json.loads(record_file.read_text())))
    assert [p["points"] for p in board["players"]] == list(state.points)


def test_serve_refuses_a_broken_record(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "brisca-record/1"}')
    process = serve("--record", str(broken))
    _, error = process.communicate(timeout=30)
    assert process.returncode == 2 and "companion serve:" in error and "Traceback" not in error


def test_serve_continues_a_stored_game_with_the_readings_still_to_confirm(tmp_path: Path) -> None:
    record, refs = doubtful_game(winner_open)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    with Store.open(db) as store:
        game = store.import_record(record.to_dict())
        store.keep_flags(game, [{"seq": ref, "reason": "a guess"} for ref in refs])
    process = serve("--game", str(game), "--db", db, "--pin", "97531")
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip().removeprefix("Scoreboard: ")
        with urllib.request.urlopen(f"{url}state.json", timeout=10) as response:
            board = json.load(response)
        assert board["winner_open"] and board["recorded_result"]["points"] == "-".join(
            map(str, replay(record).points)
        )
    finally:
        process.terminate()
        process.communicate(timeout=10)


@pytest.mark.parametrize(
    ("args", "told"),
    [(("--game", "99"), "no game 99"), (("--game", "1", "--no-db"), "--game continues a stored game")],
)
def test_serve_refuses_a_stored_game_it_cannot_continue(
    tmp_path: Path, args: tuple[str, ...], told: str
) -> None:
    process = serve(*args, "--db", f"sqlite:///{tmp_path / 'club.db'}")
    _, error = process.communicate(timeout=30)
    assert process.returncode == 2 and told in error and "Traceback" not in error
