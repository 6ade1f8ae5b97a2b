"""How many events per second the store acknowledges durably (each append its own committed transaction)."""

from __future__ import annotations

import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from companion.engine import random_game
from companion.errors import MalformedInput
from companion.store.store import Store


def bench_store(store: Store, events: int = 2000, *, writers: int = 1, seed: int = 0) -> dict[str, Any]:
    """Append ``events`` real game events split over ``writers`` tables writing at once; report the rate."""
    per_writer = max(1, events // writers)
    logs = []
    for writer in range(writers):
        log: list[dict[str, Any]] = []
        game = 0
        while len(log) < per_writer:
            log += [event.to_dict() for event in random_game("brisca-2", seed + 1000 * writer + game).events]
            game += 1
        logs.append(log[:per_writer])

    def write(log: list[dict[str, Any]]) -> None:
        game_id = store.create_game("brisca-2", ["Bench A", "Bench B"])
        for seq, event in enumerate(log):
            store.append_event(game_id, event, seq)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=writers) as pool:
        list(pool.map(write, logs))
    seconds = time.perf_counter() - started
    total = per_writer * writers
    return {
        "backend": store.backend,
        "events": total,
        "writers": writers,
        "seconds": round(seconds, 3),
        "events_per_s": round(total / seconds, 1),
        "ms_per_event": round(1000 * seconds / total, 3),
    }


def run_bench(urls: list[str] | None, events: int, writers: int, as_json: bool) -> int:
    """``companion bench store``: measure each database (default: a temporary SQLite file) and print."""
    if events < 1 or writers < 1:
        raise MalformedInput(f"--events and --writers must be at least 1, not {events} and {writers}")
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as scratch:
        targets = urls or [f"sqlite:///{scratch}/bench.db"]
        for url in targets:
            with Store.open(url, evidence_dir=Path(scratch)) as store:
                figures = bench_store(store, events, writers=writers)
            if as_json:
                print(json.dumps(figures))
            else:
                print(
                    f"{figures['backend']}: {figures['events']} events stored durably by {writers} writer(s) "
                    f"in {figures['seconds']} s: {figures['events_per_s']} events/s "
                    f"({figures['ms_per_event']} ms each)"
                )
    return 0
