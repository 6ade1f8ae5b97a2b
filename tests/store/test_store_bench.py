import json

import pytest

from companion.cli import main
from companion.errors import MalformedInput
from companion.store.bench import bench_store, run_bench


def test_the_benchmark_stores_every_event_it_counts(store):
    figures = bench_store(store, 60, writers=2)
    assert figures["backend"] == store.backend
    assert figures["events"] == 60
    assert figures["events_per_s"] == pytest.approx(60 / figures["seconds"], rel=0.05)
    assert sorted(game.events for game in store.games()) == [30, 30]


def test_the_store_target_prints_one_line_per_database(db_url, capsys):
    assert main(["bench", "store", "--events", "20", "--db", db_url, "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["events"] == 20
    with pytest.raises(MalformedInput, match="0"):
        run_bench(None, 0, 1, as_json=False)
