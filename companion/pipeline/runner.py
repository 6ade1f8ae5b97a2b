"""The live loop: frames -> vision -> track -> recognise, on one thread, fed by a capture thread.

Capture (:mod:`companion.capture`) reads the source on its own thread; live, it keeps
only the newest frame, so the pipeline drops what it could not process in time and stays
live on a slow CPU; offline (``fast``) every frame is processed, as fast as the CPU allows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from companion.capture import Frame
from companion.pipeline.config import PipelineConfig
from companion.pipeline.evidence import save_evidence
from companion.pipeline.recognise import Recognised, Recogniser, Zones
from companion.pipeline.track import Tracker
from companion.session import Evidence, LiveSession
from companion.vision.readings import Reach, Reading, Sight

#: Vision: a BGR frame -> what it shows, in image pixels.
See = Callable[[np.ndarray], Sight]


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
            "slowest_ms": round(1000 * self.slowest_s, 1),
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
        on_frame: Callable[[np.ndarray, list[Reading]], None] | None = None,
    ) -> None:
        self.config = config or PipelineConfig()
        self.see, self.table, self.session = see, table, session
        self.tracker = Tracker(self.config.track)
        self.recogniser = Recogniser(session, table, self.config.recognise)
        self.evidence_dir = evidence_dir
        self.on_frame = on_frame

    def step(self, t: float, frame: np.ndarray) -> list[Recognised]:
        sight = self.see(frame)
        readings = list(sight.readings)
        if self.on_frame is not None:
            self.on_frame(frame, readings)
        on_table = [replace(r, corners=self.table.to_table(r.corners)) for r in readings]
        reaches = [self._reach_on_table(reach) for reach in sight.reaches]
        cleared = self._places_on_table(sight.cleared)
        events = self.recogniser.update(self.tracker.update(on_table, t, reaches, cleared))
        for event in events:
            self.tracker.forget(event.ids)
            if self._first_told(event):
                folder = self.evidence_dir / f"game-{event.game}"
                quality = self.config.run.evidence_quality
                path, found = save_evidence(folder, event.trick, frame, readings, quality)
                self.session.add_evidence(Evidence(event.trick, path, found))
        return events

    def _first_told(self, event: Recognised) -> bool:
        """Whether ``event`` is a trick done whose evidence is to be kept: a trick told again (a
        missed card found in it) keeps the snapshot of when it was first done, its cards there."""
        if event.kind != "trick" or event.trick is None or self.evidence_dir is None:
            return False
        return event.trick not in self.session.view().evidence

    def _places_on_table(self, places: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
        if not places:
            return []
        return [(float(x), float(y)) for x, y in self.table.to_table(np.array(places, np.float64))]

    def _reach_on_table(self, reach: Reach) -> Reach:
        edge, tip = self.table.to_table(np.array([reach.edge, reach.tip], dtype=np.float64))
        return Reach((float(edge[0]), float(edge[1])), (float(tip[0]), float(tip[1])))


def run_loop(
    frames: Iterable[Frame], pipeline: Pipeline, on_events: Callable[[list[Recognised]], None]
) -> Stats:
    """Feed ``frames`` (from a :class:`~companion.capture.Capture`, read on its own thread) through
    ``pipeline`` on this thread; ``on_events`` hears what was recognised, as it happens."""
    stats = Stats()
    started = time.monotonic()
    first_t: float | None = None
    for frame in frames:
        first_t = frame.t if first_t is None else first_t
        tick = time.perf_counter()
        events = pipeline.step(frame.t, frame.image)
        spent = time.perf_counter() - tick
        stats.busy_s += spent
        stats.slowest_s = max(stats.slowest_s, spent)
        stats.processed += 1
        stats.offered = frame.index + 1
        stats.video_s = frame.t - first_t
        if events:
            stats.events += events
            on_events(events)
    stats.wall_s = time.monotonic() - started
    return stats
