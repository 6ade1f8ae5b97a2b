"""``companion run`` keeps the game it recognises in the database, event for event, with every
trick's evidence.

A game restarted when its leader shows (the first card lies before the other seat) leaves its
first stored attempt marked abandoned, never live, and without evidence.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import ExitStack
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.demo import SAMPLE
from companion.engine import GameRecord, load_record, replay
from companion.pipeline.live import WatchOptions, evidence_folder
from companion.store import Store


@pytest.mark.slow
def test_run_stores_the_recognised_game_and_its_evidence(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))  # where the store keeps evidence
    truth = load_record(SAMPLE / "record.json")
    record, db = tmp_path / "game.json", f"sqlite:///{tmp_path / 'games.db'}"
    argv = ["run", "--source", str(SAMPLE / "game.mp4"), "--rules", truth.rules.name, "--fast"]
    argv += ["--players", ",".join(truth.players), "--headless", "--record", str(record), "--db", db]
    assert main(argv) == 0
    capsys.readouterr()

    with Store.open(db) as store:
        (game,) = store.games(status="complete")
        stored = GameRecord.from_dict(store.game_record(game.id))
        assert not store.games(status="live")
        kept = store.evidence(game.id)
        abandoned = store.games(status="abandoned")  # the sample's second seat leads: a restart
        assert abandoned and all(store.evidence(other.id) == [] for other in abandoned)
        assert store.tampered_evidence(game.id) == []
    assert stored.to_dict() == load_record(record).to_dict()
    assert replay(stored).points == replay(truth).points

    saved = tmp_path / "game-evidence" / "game-1"  # what the pipeline saved beside the record
    assert sorted(item.trick for item in kept) == [trick.n for trick in replay(stored).tricks]
    for item in kept:
        snapshot = saved / f"trick-{item.trick:02d}.jpg"
        assert item.path.is_relative_to(tmp_path / "data" / "evidence")
        assert item.sha256 == hashlib.sha256(snapshot.read_bytes()).hexdigest()
        readings = json.loads(snapshot.with_suffix(".json").read_text())["readings"]
        assert item.note == {"readings": readings} and readings


def test_without_a_record_the_stores_snapshots_pass_through_a_temporary_folder(tmp_path: Path) -> None:
    options = WatchOptions(source="game.mp4")
    assert evidence_folder(options, None) is None  # no store, no record: no evidence
    with ExitStack() as scratch:
        folder = evidence_folder(options, scratch)
        assert folder is not None and folder.is_dir()
    assert not folder.exists()
    record = WatchOptions(source="game.mp4", record=tmp_path / "game.json")
    assert evidence_folder(record, ExitStack()) == tmp_path / "game-evidence"
    chosen = WatchOptions(source="game.mp4", record=tmp_path / "game.json", evidence=tmp_path / "shots")
    assert evidence_folder(chosen, None) == tmp_path / "shots"
