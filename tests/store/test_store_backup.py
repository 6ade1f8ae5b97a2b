"""``companion backup`` copies the database consistently while a game is being written, and its evidence."""

import json
import shutil
import sqlite3
import subprocess
import threading

import pytest

from companion.cli import main
from companion.engine import random_game
from companion.errors import IllegalAction, MissingResource
from companion.store import Store
from companion.store.backup import backup, evidence_folder

GAME = random_game("brisca-2", seed=3, players=["Ana", "Luis"])


def write_while(store: Store, game_id: int, stop: threading.Event) -> None:
    for seq, event in enumerate(GAME.events):
        if stop.is_set():
            return
        store.append_event(game_id, event.to_dict(), seq)


def test_a_sqlite_backup_taken_mid_game_is_a_consistent_prefix(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with Store.open(url, evidence_dir=tmp_path) as store:
        game_id = store.create_game("brisca-2", ["Ana", "Luis"], GAME.first)
        store.append_event(game_id, GAME.events[0].to_dict(), 0)
        stop = threading.Event()
        writer = threading.Thread(target=write_while, args=(store, game_id, stop))
        writer.start()
        try:
            assert main(["backup", str(tmp_path / "copy.db"), "--db", url]) == 0
        finally:
            stop.set()
            writer.join()
    with sqlite3.connect(tmp_path / "copy.db") as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    raw.close()
    with Store.open(f"sqlite:///{tmp_path / 'copy.db'}", evidence_dir=tmp_path) as copy:
        copied = copy.game_record(game_id)["events"]
    assert 1 <= len(copied) <= len(GAME.events)
    assert copied == [event.to_dict() for event in GAME.events[: len(copied)]]  # no torn or missing events


def test_backup_refuses_to_overwrite_and_names_a_missing_database(tmp_path):
    (tmp_path / "there.db").write_bytes(b"")
    with pytest.raises(IllegalAction, match=r"there\.db"):
        backup(str(tmp_path / "x.db"), tmp_path / "there.db")
    with pytest.raises(MissingResource, match=r"nothing\.db"):
        backup(str(tmp_path / "nothing.db"), tmp_path / "out.db")


@pytest.mark.postgres
def test_a_postgresql_backup_holds_the_game(pg_url, tmp_path):
    if shutil.which("pg_restore") is None:
        pytest.skip("pg_restore is not installed")
    with Store.open(pg_url, evidence_dir=tmp_path) as store:
        game_id = store.import_record(GAME.to_dict())
    made = backup(pg_url, tmp_path / "club.dump")
    assert made["kind"] == "pg_dump" and made["bytes"] > 0
    listing = subprocess.run(
        ["pg_restore", "--list", str(tmp_path / "club.dump")], capture_output=True, text=True, check=True
    ).stdout
    assert "TABLE DATA public events" in listing
    restored = subprocess.run(
        ["pg_restore", "--data-only", "--table=events", "--file=-", str(tmp_path / "club.dump")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert restored.count(f"\n{game_id}\t") == len(GAME.events)


def test_the_backup_carries_the_evidence_files_checked_by_sha256(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    with Store.open() as store:  # the data folder's database and evidence, as `companion run` keeps them
        game_id = store.import_record(GAME.to_dict())
        kept = store.add_evidence(game_id, b"snapshot of trick 1", trick=1)
        changed = store.add_evidence(game_id, b"snapshot of trick 2", trick=2)
    changed.path.write_bytes(b"edited after the game")
    out = tmp_path / "backups" / "club.db"
    assert main(["backup", str(out), "--json"]) == 1  # a changed file is named, not copied
    made = json.loads(capsys.readouterr().out)
    assert made["evidence"]["files"] == 1 and made["evidence"]["path"] == str(evidence_folder(out))
    assert made["evidence"]["problems"] == [f"{changed.path}: changed since it was recorded"]
    with Store.open(f"sqlite:///{out}", evidence_dir=evidence_folder(out)) as restored:
        copies = restored.evidence(game_id)
        assert all(item.path.is_relative_to(evidence_folder(out)) for item in copies)
        assert copies[0].path.read_bytes() == b"snapshot of trick 1" and copies[0].sha256 == kept.sha256
        assert [item.sha256 for item in restored.tampered_evidence(game_id)] == [changed.sha256]
    with pytest.raises(IllegalAction, match=r"club\.db"):
        backup(None, out)
