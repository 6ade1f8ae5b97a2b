"""``companion demo`` on the bundled sample, as CI runs it: it ends by itself with the true result."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.commands.demo import SAMPLE
from companion.engine import load_record, replay
from companion.errors import MissingResource
from companion.paths import models_dir
from companion.vision.detector import SHIPPED_MODEL


@pytest.mark.slow
def test_the_demo_plays_the_bundled_game_to_its_true_result(capsys, tmp_path):
    from companion.vision.decks import load_deck
    from companion.vision.identifier import Identifier

    try:
        load_deck("fournier-1878")
        Identifier.from_file()
    except (MissingResource, LookupError) as missing:
        pytest.skip(f"identifier not shipped yet: {missing}")
    record = tmp_path / "demo.json"
    assert main(["demo", "--headless", "--fast", "--json", "--record", str(record)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    result = lines[-1]
    truth = replay(load_record(SAMPLE / "record.json"))
    seen = replay(load_record(record))
    assert seen.complete and seen.points == truth.points and seen.winners == truth.winners
    assert [t.plays for t in seen.tricks] == [t.plays for t in truth.tricks]
    assert result["games"][0] == json.loads(record.read_text())
    assert not [line for line in lines[:-1] if line["doubt"]]
    shipped = (models_dir() / SHIPPED_MODEL).is_file()
    assert result["stats"]["vision"] == ("both" if shipped else "changes")  # the default, auto
    if shipped:  # the detector looks again only when the table changed: not at every frame
        assert 0 < result["stats"]["detector_frames"] < result["stats"]["frames_processed"]
