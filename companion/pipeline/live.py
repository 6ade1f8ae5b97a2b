"""Watch a table: capture -> calibration -> vision -> track -> recognise -> live session.

:func:`watch` is what ``companion run``, ``companion demo`` and ``companion eval video``
share: it opens the source, finds the table (from a calibration file or from the four
corner markers), runs the pipeline until the source ends, writes each game's record as
it goes (an atomic rewrite per event, so a crash loses nothing) and, when asked, serves
the live scoreboard.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.capture import Capture, Frame, Status
from companion.engine import Event, GameRecord
from companion.errors import RecognitionFailure
from companion.pipeline.config import PipelineConfig
from companion.pipeline.evidence import annotate
from companion.pipeline.recognise import Recognised
from companion.pipeline.runner import Pipeline, Stats, run_loop
from companion.pipeline.vision import make_see
from companion.session import CameraStatus, EventSink, LiveSession, Setup, StoreSink
from companion.table.profile import DEFAULT_TABLE_MM, TableProfile, load_profile, profile_from_markers
from companion.vision.readings import Reading

#: Frames searched for the four corner markers before giving up.
MARKER_SEARCH_FRAMES = 30
_CAMERA = {Status.OK: CameraStatus.OK, Status.RECONNECTING: CameraStatus.RECONNECTING}


@dataclass(frozen=True)
class WatchOptions:
    """What to watch and how."""

    source: str | int | Path
    rules: str | dict[str, object] = "brisca-2"
    players: tuple[str, ...] = ("A", "B")
    deck: str = "fournier-1878"
    calibration: Path | None = None
    table_mm: tuple[float, float] = DEFAULT_TABLE_MM
    record: Path | None = None
    evidence: Path | None = None
    mode: str = "latest"  # capture mode: latest (live), realtime, fast
    vision: str = "auto"  # both when the detector is shipped, else changes (pipeline/vision.py)
    first: int = 0
    config: PipelineConfig = field(default_factory=PipelineConfig)


@dataclass
class Outcome:
    """What a watch produced: the record of every game, the events recognised and the loop's figures."""

    records: list[GameRecord]
    stats: Stats
    profile: TableProfile
    vision: str  # where card proposals came from: detector, changes or both
    detector_frames: int | None = None  # frames the detector looked at (None: it did not run)
    unsettled: tuple[int, ...] = ()  # the log indices of the last game's flags still open at the end

    def figures(self) -> dict[str, object]:
        """The loop's figures, where card proposals came from and the frames the detector looked at."""
        return {**self.stats.to_dict(), "vision": self.vision, "detector_frames": self.detector_frames}


class RecordWriter:
    """Session sink: rewrites the current game's record file atomically after every event.

    The first game goes to ``path``, the next ones to ``path-2.json``, ``path-3.json``...;
    a game reloaded with its events (its leader corrected) stays in its file.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.games: list[GameRecord] = []

    def __call__(self, record: GameRecord, event: Event | None) -> None:
        if not self.games or (event is None and not record.events):  # a new game
            self.games.append(record)
        else:
            self.games[-1] = record
        if self.path is not None:
            write_atomically(self.path_for(len(self.games)), record.to_dict())

    def path_for(self, game: int) -> Path:
        assert self.path is not None
        return self.path if game == 1 else self.path.with_name(f"{self.path.stem}-{game}{self.path.suffix}")


def write_atomically(path: Path, data: dict[str, object]) -> None:
    """Write JSON to ``path`` through a temporary file and a rename: never half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w") as file:
        json.dump(data, file, indent=1)
        file.write("\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def find_table(frames: Iterator[Frame], options: WatchOptions, seats: int) -> tuple[TableProfile, Frame]:
    """The table profile (from the calibration file, else from the corner markers) and the first frame."""
    first = next(frames, None)
    if first is None:
        raise RecognitionFailure(f"no frame came from {options.source}")
    if options.calibration is not None:
        profile = load_profile(options.calibration)
        return (profile if profile.players == seats else profile.with_players(seats)), first
    frame, error = first, None
    for _ in range(MARKER_SEARCH_FRAMES):
        try:
            return profile_from_markers(frame.image, seats, options.table_mm), first
        except RecognitionFailure as failure:
            error = failure
        frame = next(frames, None)
        if frame is None:
            break
    raise RecognitionFailure(
        f"no calibration given and {error}; run 'companion calibrate' or show the markers"
    )


def watch(
    options: WatchOptions,
    on_events: Callable[[list[Recognised]], None],
    serve: Callable[[LiveSession], None] | None = None,
    publish_every_s: float = 0.2,
    store: StoreSink | None = None,
) -> Outcome:
    """Run the pipeline over ``options.source`` until it ends; see the module docstring.

    ``serve(session)`` is called once the live session exists (to start the web UI); the
    annotated camera frame is then published to the session every ``publish_every_s``.
    ``store``, when given, also receives every event, every trick's evidence and the open
    flags (see :class:`companion.store.GameWriter`).
    """
    writer = RecordWriter(options.record)
    setup = Setup(rules=options.rules, players=options.players, first=options.first, deck=options.deck)
    if store is None:
        session = LiveSession(setup, sink=writer)
    else:
        session = LiveSession(
            setup, sink=_both(writer, store), evidence_sink=store.keep, flag_sink=store.flags
        )
    if serve is not None:
        serve(session)

    def camera_changed(status: Status) -> None:
        if status in _CAMERA:
            session.set_camera(_CAMERA[status], str(options.source))
        elif status is Status.ENDED:
            session.set_camera(CameraStatus.LOST, f"{options.source} ended")

    with Capture(options.source, options.mode, on_status=camera_changed) as capture, ExitStack() as scratch:
        frames = capture.frames(timeout=1.0)
        profile, first = find_table(frames, options, session.view().state.rules.seats)
        zones = options.config.recognise
        vision = make_see(options.vision, options.deck, profile, first.image, zones)
        evidence = evidence_folder(options, scratch if store is not None else None)
        publish = _publisher(session, publish_every_s) if serve is not None else None
        pipeline = Pipeline(vision.see, profile, session, options.config, evidence, publish)
        stats = run_loop(_chain(first, frames), pipeline, on_events)
    looked = vision.detector.looked if vision.detector is not None else None
    unsettled = tuple(flag.seq for flag in session.view().flags)
    return Outcome(writer.games, stats, profile, vision.source, looked, unsettled)


def evidence_folder(options: WatchOptions, scratch: ExitStack | None) -> Path | None:
    """Where trick snapshots are saved: ``options.evidence``, else beside the record, else (given
    ``scratch``: a store keeps them) a temporary folder removed when ``scratch`` closes; else none."""
    if options.evidence is not None:
        return options.evidence
    if options.record is not None:
        return options.record.with_name(f"{options.record.stem}-evidence")
    if scratch is not None:
        return Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="companion-evidence-")))
    return None


def _both(first: EventSink, second: EventSink) -> EventSink:
    """A sink that hands each event to ``first`` (the record file), then ``second`` (the store)."""

    def sink(record: GameRecord, event: Event | None) -> None:
        first(record, event)
        second(record, event)

    return sink


def _chain(first: Frame, rest: Iterator[Frame]) -> Iterator[Frame]:
    yield first
    yield from rest


def _publisher(session: LiveSession, every_s: float) -> Callable[[np.ndarray, list[Reading]], None]:
    """Publishes the annotated frame to the session's camera view, at most every ``every_s``."""
    last = -every_s

    def publish(frame: np.ndarray, readings: list[Reading]) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every_s:
            last = now
            ok, jpeg = cv2.imencode(".jpg", annotate(frame, readings), [cv2.IMWRITE_JPEG_QUALITY, 70])
            if ok:
                session.set_frame(jpeg.tobytes())

    return publish
