"""Load check: many phones watching the scoreboard while a game is scored.

``python -m webui.loadcheck --clients 50`` serves the app under waitress on 127.0.0.1,
scores a seeded random game twice (first with nobody watching, then with ``--clients``
server-sent-event connections opened from a separate process), and reports how long
each update took to reach the watchers and what the watching cost the server process
(CPU) and the pipeline (the time ``LiveSession.apply`` takes).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import socket
import statistics
import threading
import time
from multiprocessing.synchronize import Event as StopEvent
from typing import Any


def watch(port: int, clients: int, stop: StopEvent, ready: Any, results: Any) -> None:
    """Child process: ``clients`` SSE connections, each noting (revision, arrival time)."""
    seen: list[list[tuple[int, float]]] = [[] for _ in range(clients)]

    def one(k: int) -> None:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            sock.settimeout(0.5)
            ready.release()
            pending = b""
            while not stop.is_set():
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    return
                arrived = time.time()
                *lines, pending = (pending + chunk).split(b"\n")
                seen[k].extend((int(line[4:]), arrived) for line in lines if line.startswith(b"id: "))

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put(seen)


def score_game(
    session: Any, events: Any, interval: float, label: str
) -> tuple[dict[int, float], list[float]]:
    """Apply ``events`` one every ``interval`` s, as the pipeline would: (revision -> time, durations)."""
    from tqdm import tqdm

    applied: dict[int, float] = {}
    costs: list[float] = []
    for event in tqdm(events, desc=label, unit="event", leave=False):
        started = time.perf_counter()
        session.apply(lambda game, event=event: game.apply(event))
        costs.append(time.perf_counter() - started)
        applied[session.view().revision] = time.time()
        time.sleep(interval)
    return applied, costs


def run_phase(session: Any, record: Any, interval: float, label: str) -> dict[str, Any]:
    session.load(type(record)(record.rules, record.players, record.first, ()))
    cpu, wall = time.process_time(), time.perf_counter()
    applied, costs = score_game(session, record.events, interval, label)
    used = time.process_time() - cpu
    elapsed = time.perf_counter() - wall
    return {"applied": applied, "apply_ms": [c * 1000 for c in costs], "cpu_s": used, "wall_s": elapsed}


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "max": round(ordered[-1], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webui.loadcheck", description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between events")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from companion.engine import random_game
    from companion.session import LiveSession
    from webui import create_app
    from webui.server import Background, make_server

    record = random_game("brisca-2", seed=args.seed, players=["Ana", "Luis"])
    session = LiveSession()
    app = create_app({"SESSION": session, "SSE_HEARTBEAT_S": 1.0})
    server = Background(make_server(app, "127.0.0.1", 0, args.clients + 2))
    quiet = run_phase(session, record, args.interval, "nobody watching")

    context = mp.get_context("spawn")
    stop, ready, results = context.Event(), context.Semaphore(0), context.Queue()
    watcher = context.Process(
        target=watch, args=(server.server.effective_port, args.clients, stop, ready, results)
    )
    watcher.start()
    for _ in range(args.clients):
        ready.acquire(timeout=30)
    while session.subscribers < args.clients:
        time.sleep(0.05)
    watched = run_phase(session, record, args.interval, f"{args.clients} watching")
    time.sleep(1.0)
    stop.set()
    seen = results.get(timeout=30)
    watcher.join(timeout=10)
    server.stop()

    delays = [
        (arrived - watched["applied"][revision]) * 1000
        for client in seen
        for revision, arrived in client
        if revision in watched["applied"]
    ]
    expected = args.clients * len(watched["applied"])
    final = max(watched["applied"])
    report = {
        "clients": args.clients,
        "events": len(record.events),
        "interval_s": args.interval,
        "update_delay_ms": summary(delays),
        "updates_received": len(delays),
        "updates_expected": expected,  # a watcher slower than the events skips to the newest
        "every_client_saw_the_end": all(client and client[-1][0] == final for client in seen),
        "apply_ms_no_watchers": summary(quiet["apply_ms"]),
        "apply_ms_with_watchers": summary(watched["apply_ms"]),
        "server_cpu_pct_no_watchers": round(100 * quiet["cpu_s"] / quiet["wall_s"], 1),
        "server_cpu_pct_with_watchers": round(100 * watched["cpu_s"] / watched["wall_s"], 1),
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for key, value in report.items():
            print(f"{key:30} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
