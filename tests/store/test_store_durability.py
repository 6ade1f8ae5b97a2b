"""Kill the scoring process (SIGKILL) in the middle of a game: the restart resumes it exactly."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.engine import GameRecord, random_game, score
from companion.store import Store

SCORER = Path(__file__).with_name("durable_scorer.py")
SEED = 11


def scorer(url: str, *args: str) -> subprocess.Popen[str]:
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.Popen(
        [sys.executable, str(SCORER), url, str(SEED), *args],
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
    )


def test_a_killed_scorer_resumes_the_game_exactly(db_url, tmp_path):
    expected = random_game("brisca-2", SEED, ["Ana", "Luis"])
    first = scorer(db_url)
    assert first.stdout is not None
    game_id = int(first.stdout.readline().split()[1])
    acknowledged = -1
    while acknowledged < len(expected.events) // 2:
        acknowledged = int(first.stdout.readline().split()[1])
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    first.stdout.close()
    assert first.returncode == -signal.SIGKILL

    with Store.open(db_url, evidence_dir=tmp_path) as store:
        stored = store.game_record(game_id)["events"]
        assert store.game(game_id).status == "live"
    assert len(stored) > acknowledged  # everything acknowledged survived the kill
    assert stored == [event.to_dict() for event in expected.events[: len(stored)]]

    second = scorer(db_url, str(game_id))
    out, _ = second.communicate(timeout=120)
    assert second.returncode == 0, out
    lines = out.splitlines()
    assert lines[0] == f"ack {len(stored)}"  # resumed right after the last stored event
    final = json.loads(lines[-1].removeprefix("done "))
    assert final == score(expected)

    with Store.open(db_url, evidence_dir=tmp_path) as store:
        record = store.game_record(game_id)
        assert record == expected.to_dict()  # same events, in order, none duplicated
        assert store.game(game_id).events == len(expected.events)
        assert store.game(game_id).status == "complete"
    assert score(GameRecord.from_dict(record)) == score(expected)
