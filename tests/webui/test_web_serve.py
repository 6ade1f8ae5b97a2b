"""``companion serve``: starts, prints where to look and the PIN, serves the record given."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import GameRecord, random_game, replay


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
