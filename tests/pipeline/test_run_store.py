"""``companion run`` keeps the game it recognises in the database, event for event.

A game restarted when its leader shows (the first card lies before the other seat) leaves its
first stored attempt marked abandoned, never live.
"""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.commands.demo import SAMPLE
from companion.engine import GameRecord, load_record, replay
from companion.store import Store


@pytest.mark.slow
def test_run_stores_the_recognised_game(tmp_path, capsys):
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
    assert stored.to_dict() == load_record(record).to_dict()
    assert replay(stored).points == replay(truth).points
