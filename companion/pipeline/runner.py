"""The live loop: frames -> vision -> track -> recognise, on one thread, fed by a capture thread.

Capture runs on its own thread and hands frames over through a bounded queue. Live, the
pipeline always takes the newest frame and drops what it could not process in time, so
it stays live on a slow CPU; offline (``keep_all``) every frame is processed, as fast as
the CPU allows.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from companion.pipeline.config import PipelineConfig
from companion.pipeline.evidence import save_evidence
from companion.pipeline.recognise import Recognised, Recogniser, Zones
from companion.pipeline.track import Tracker
from companion.session import Evidence, LiveSession
from companion.vision.readings import Reading

#: Vision: a BGR frame -> what it shows, corners in image pixels.
See = Callable[[np.ndarray], Sequence[Reading]]
#: A timestamped frame: (seconds, BGR image).
TimedFrame = tuple[float, np.ndarray]


class Mapper(Zones, Protocol):
    """Zones that also map image pixels onto the table plane (a ``TableProfile``)."""

    def to_table(self, points: np.ndarray) -> np.ndarray: ...


@dataclass
class Stats:
    """What the loop did: frames offered and processed, and the time spent on them."""

    offered: int = 0
    processed: int = 0
    busy_s: float = 0.0
    video_s: float = 0.0
    wall_s: float = 0.0
    slowest_s: float = 0.0
    events: list[Recognised] = field(default_factory=list)

    def to_dict(self) -> dict[str, float | int]:
        per_frame = self.busy_s / max(self.processed, 1)
        return {
            "frames_offered": self.offered,
            "frames_processed": self.processed,
            "dropped": self.offered - self.processed,
            "ms_per_frame": round(1000 * per_frame, 1),
            "max_fps": round(1 / per_frame, 1) if per_frame else 0.0,
            "video_s": round(self.video_s, 2),
            "wall_s": round(self.wall_s, 2),
            "speed": round(self.video_s / self.wall_s, 2) if self.wall_s else 0.0,
        }


class Pipeline:
    """Stateful stage chain: ``step(t, frame) -> [Recognised]``; saves evidence per trick."""

    def __init__(
        self,
        see: See,
        table: Mapper,
        session: LiveSession,
        config: PipelineConfig | None = None,
        evidence_dir: Path | None = None,
    ) -> None:
        self.config = config or PipelineConfig()
        self.see, self.table, self.session = see, table, session
        self.tracker = Tracker(self.config.track)
        self.recogniser = Recogniser(session, table, self.config.recognise)
        self.evidence_dir = evidence_dir

    def step(self, t: float, frame: np.ndarray) -> list[Recognised]:
        readings = list(self.see(frame))
        on_table = [replace(r, corners=self.table.to_table(r.corners)) for r in readings]
        events = self.recogniser.update(self.tracker.update(on_table, t))
        for event in events:
            self.tracker.forget(event.ids)
            if event.kind == "trick" and event.trick is not None and self.evidence_dir is not None:
                folder = self.evidence_dir / f"game-{event.game}"
                quality = self.config.run.evidence_quality
                path, found = save_evidence(folder, event.trick, frame, readings, quality)
                self.session.add_evidence(Evidence(event.trick, path, found))
        return events


_END = object()


def _produce(frames: Iterable[TimedFrame], box: queue.Queue, keep_all: bool, stop: threading.Event) -> None:
    """Capture thread: put frames in ``box``; live, drop the oldest waiting frame when it is full."""
    try:
        for item in frames:
            if stop.is_set():
                break
            while True:
                try:
                    box.put(item, block=keep_all, timeout=0.5 if keep_all else None)
                    break
                except queue.Full:
                    if stop.is_set():
                        return
                    if not keep_all:
                        with contextlib.suppress(queue.Empty):
                            box.get_nowait()
    finally:
        box.put(_END)


def paced(frames: Iterable[TimedFrame], speed: float = 1.0) -> Iterator[TimedFrame]:
    """Frames released at their timestamps (``speed`` times real time), as a camera would."""
    start = time.monotonic()
    first: float | None = None
    for t, image in frames:
        first = t if first is None else first
        delay = (t - first) / speed - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        yield t, image


def run_loop(
    frames: Iterable[TimedFrame],
    pipeline: Pipeline,
    on_events: Callable[[list[Recognised]], None],
    *,
    keep_all: bool,
    queue_size: int = 2,
) -> Stats:
    """Feed ``frames`` through ``pipeline`` (this thread), capture on its own thread."""
    box: queue.Queue = queue.Queue(maxsize=queue_size)
    stop = threading.Event()
    stats = Stats()
    offered = 0

    def counting() -> Iterator[TimedFrame]:
        nonlocal offered
        for item in frames:
            offered += 1
            yield item

    producer = threading.Thread(target=_produce, args=(counting(), box, keep_all, stop), daemon=True)
    started = time.monotonic()
    first_t: float | None = None
    producer.start()
    try:
        while (item := box.get()) is not _END:
            t, image = item
            first_t = t if first_t is None else first_t
            tick = time.perf_counter()
            events = pipeline.step(t, image)
            spent = time.perf_counter() - tick
            stats.busy_s += spent
            stats.slowest_s = max(stats.slowest_s, spent)
            stats.processed += 1
            stats.video_s = t - first_t
            if events:
                stats.events += events
                on_events(events)
    finally:
        stop.set()
        producer.join(timeout=5)
    stats.offered = offered
    stats.wall_s = time.monotonic() - started
    return stats
