"""The live session: one game being played now, and everyone watching it.

The pipeline (or an operator) changes the game only through :meth:`LiveSession.apply`,
which runs one engine action under the session lock, so every event goes through the
engine before anyone sees it. Watchers subscribe and are told the new *revision* after
each change; each subscription has a small bounded queue that drops its oldest notices,
so a slow phone never blocks the pipeline (a revision always means "read the session
again", so nothing is lost by dropping older notices).

The session also keeps the newest annotated camera frame (JPEG bytes), the camera
status, events flagged for confirmation, and an evidence snapshot per trick, which it
hands on to its evidence sink (the store) as it hands events to its event sink; the
flags still open go to its flag sink whenever they change.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from companion.cards import Card
from companion.engine import Event, Game, GameRecord, GameState
from companion.engine.doubt import plays_among
from companion.errors import IllegalAction, UnknownName

log = logging.getLogger(__name__)

#: Called after the engine accepted an event (``event``), or with ``None`` when a new
#: game starts (the record then holds its rules, players and any initial events).
EventSink = Callable[[GameRecord, "Event | None"], None]

#: One engine action, run under the session lock: it receives the live game and
#: returns the event it appended (e.g. ``lambda game: game.play(1, card)``).
Action = Callable[[Game], Event]


class CameraStatus(Enum):
    """What the capture stage says about the camera."""

    OK = "ok"
    RECONNECTING = "reconnecting"
    LOST = "lost"


@dataclass(frozen=True)
class Flag:
    """An event the pipeline was not sure of, awaiting an operator's confirmation.

    ``seq`` is the index of the event in the game's log; ``alternatives`` are the
    identifier's best guesses (most likely first); ``snapshot`` is an image of the table.
    """

    id: int
    seq: int
    reason: str
    alternatives: tuple[tuple[Card, float], ...] = ()
    snapshot: Path | None = None


@dataclass(frozen=True)
class Evidence:
    """The proof behind one completed trick: a snapshot and the readings that named its cards."""

    trick: int
    snapshot: Path
    readings: tuple[dict[str, Any], ...] = ()


#: Called with the evidence of each completed trick of the current game, so the store can keep it.
EvidenceSink = Callable[[Evidence], None]


#: Called with the current game's open flags after they change (one raised, one settled).
FlagSink = Callable[[tuple[Flag, ...]], None]


class StoreSink(Protocol):
    """What keeps a live game durably (the store's ``GameWriter``): each event, as an
    :data:`EventSink`, each trick's evidence through :meth:`keep`, an :data:`EvidenceSink`,
    and the open flags through :meth:`flags`, a :data:`FlagSink`."""

    def __call__(self, record: GameRecord, event: Event | None) -> None: ...

    def keep(self, evidence: Evidence) -> None: ...

    def flags(self, flags: tuple[Flag, ...]) -> None: ...


@dataclass(frozen=True)
class Setup:
    """How the current game was set up: what the new-game page chose."""

    rules: str | dict[str, Any] = "brisca-2"
    players: tuple[str, ...] = ("A", "B")
    first: int = 0
    deck: str = "fournier-1878"
    corners: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class View:
    """A consistent, read-only picture of the session at one revision."""

    revision: int
    game_id: int
    setup: Setup
    record: GameRecord
    state: GameState
    flags: tuple[Flag, ...]
    evidence: dict[int, Evidence]
    camera: CameraStatus
    camera_detail: str
    frames: int

    def flagged_plays(self) -> frozenset[int]:
        """The log indices of the flagged plays (as the log's corrections leave them)."""
        return plays_among(self.record, (flag.seq for flag in self.flags))


class Subscription:
    """A watcher's bounded mailbox of revisions; :meth:`wait` blocks until a newer one."""

    def __init__(self, size: int) -> None:
        self._notices: deque[int] = deque(maxlen=size)
        self._ready = threading.Condition()
        self.dropped = 0

    def notify(self, revision: int) -> None:
        with self._ready:
            if len(self._notices) == self._notices.maxlen:
                self.dropped += 1
            self._notices.append(revision)
            self._ready.notify()

    def wait(self, timeout: float) -> int | None:
        """The newest revision noticed since the last call, or None after ``timeout`` seconds."""
        with self._ready:
            if not self._notices and not self._ready.wait(timeout):
                return None
            newest = self._notices[-1]
            self._notices.clear()
            return newest


class LiveSession:
    """Thread-safe holder of one live game, its watchers, camera frame and corrections."""

    def __init__(
        self,
        setup: Setup | None = None,
        *,
        sink: EventSink | None = None,
        evidence_sink: EvidenceSink | None = None,
        flag_sink: FlagSink | None = None,
        queue_size: int = 8,
        max_subscribers: int = 200,
    ) -> None:
        self._lock = threading.RLock()
        self._sink = sink
        self._evidence_sink = evidence_sink
        self._flag_sink = flag_sink
        self._queue_size = queue_size
        self.max_subscribers = max_subscribers
        self._subscribers: set[Subscription] = set()
        self._flag_ids = itertools.count(1)
        self._revision = 0
        self._game_id = 0
        self._frame = b""
        self._frames = 0
        self._frame_ready = threading.Condition(self._lock)
        self._camera = CameraStatus.OK
        self._camera_detail = ""
        self._view: View | None = None
        self._start(setup or Setup(), None)

    # --- the game --------------------------------------------------------------------

    def new_game(self, setup: Setup) -> View:
        """Start a new game (the old one stays with the store); raises on unknown rules."""
        with self._lock:
            self._start(setup, None)
            return self._changed()

    def load(
        self,
        record: GameRecord,
        setup: Setup | None = None,
        *,
        flags: tuple[tuple[int, str, tuple[tuple[Card, float], ...]], ...] = (),
        evidence: tuple[Evidence, ...] = (),
    ) -> View:
        """Continue from a record (an imported or replayed game); the engine replays its events,
        and anything inconsistent in them shows as issues of the state. ``flags`` (``seq``,
        reason, alternatives) are the record's events still awaiting confirmation, ``evidence``
        its tricks' snapshots (as kept before: not handed to the evidence sink again)."""
        with self._lock:
            base = setup or self._setup
            fitted = replace(base, rules=record.rules.to_spec(), players=record.players, first=record.first)
            self._start(fitted, record)
            self._flags.extend(Flag(next(self._flag_ids), *flag) for flag in flags)
            done = len(self._game.state.tricks)
            self._evidence.update((item.trick, item) for item in evidence if 1 <= item.trick <= done)
            return self._changed()

    def apply(
        self,
        action: Action,
        *,
        doubt: str | None = None,
        alternatives: tuple[tuple[Card, float], ...] = (),
        snapshot: Path | None = None,
    ) -> Event:
        """Run one engine action and tell the watchers; the engine's error propagates and
        changes nothing. With ``doubt`` (why the reading is unsure) the resulting event is
        flagged for confirmation, with the identifier's ``alternatives`` and a ``snapshot``; a
        flagged amendment flags the event it amends, which the operator corrects."""
        with self._lock:
            event = action(self._game)
            if doubt is not None:
                seq = len(self._game.record.events) - 1
                if event.type == "amend" and event.ref is not None:
                    seq = event.ref  # the event it amends, which the operator corrects
                self._flags.append(Flag(next(self._flag_ids), seq, doubt, alternatives, snapshot))
            self._persist(event)
            if doubt is not None:
                self._keep_flags()
            self._changed()
            return event

    def question(self, seq: int, doubt: str, alternatives: tuple[tuple[Card, float], ...] = ()) -> None:
        """Flag the event at ``seq``, already in the log, for confirmation: what was seen since
        casts doubt on it (``doubt`` says why). An event flagged already keeps its flag."""
        with self._lock:
            if any(flag.seq == seq for flag in self._flags):
                return
            self._flags.append(Flag(next(self._flag_ids), seq, doubt, alternatives))
            self._keep_flags()
            self._changed()

    def resolve(self, flag_id: int, action: Action | None = None) -> Event | None:
        """Settle a flag: confirm it as read (no action) or correct it with ``action``."""
        with self._lock:
            flag = self._flag(flag_id)
            event = action(self._game) if action is not None else None
            self._flags.remove(flag)
            if event is not None:
                self._persist(event)
            self._keep_flags()
            self._changed()
            return event

    def flag(self, flag_id: int) -> Flag:
        with self._lock:
            return self._flag(flag_id)

    # --- camera and evidence ------------------------------------------------------------

    def set_frame(self, jpeg: bytes) -> None:
        """Publish the newest annotated camera frame (JPEG bytes); never blocks on watchers."""
        with self._lock:
            self._frame = jpeg
            self._frames += 1
            self._view = None  # a new frame count, but no news for the watchers
            self._frame_ready.notify_all()

    def next_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The first frame newer than number ``after``, or None after ``timeout`` seconds."""
        with self._lock:
            if self._frames <= after and not self._frame_ready.wait_for(
                lambda: self._frames > after, timeout
            ):
                return None
            return self._frames, self._frame

    def set_camera(self, status: CameraStatus, detail: str = "") -> None:
        """Record what capture says about the camera (shown as a banner when not ok)."""
        with self._lock:
            if (status, detail) != (self._camera, self._camera_detail):
                self._camera, self._camera_detail = status, detail
                self._changed()

    def add_evidence(self, evidence: Evidence) -> None:
        """Keep the snapshot (and readings) behind a completed trick of the current game and hand
        it to the evidence sink; a failing sink is logged, never stops the game. Evidence of a trick
        this game has not completed (its game ended and the next began) is logged and left out,
        so it never lands on the wrong game."""
        with self._lock:
            done = len(self._game.state.tricks)
            if not 1 <= evidence.trick <= done:
                log.warning("evidence of trick %d left out: this game has %d tricks", evidence.trick, done)
                return
            self._evidence[evidence.trick] = evidence
            if self._evidence_sink is not None:
                try:
                    self._evidence_sink(evidence)
                except Exception:  # the store failing must not stop the game being scored
                    log.exception("evidence sink failed on trick %d", evidence.trick)
            self._changed()

    # --- watching --------------------------------------------------------------------------

    def view(self) -> View:
        """The session now, consistent and read-only."""
        with self._lock:
            if self._view is None:
                self._view = View(
                    revision=self._revision,
                    game_id=self._game_id,
                    setup=self._setup,
                    record=self._game.record,
                    state=self._game.state,
                    flags=tuple(self._flags),
                    evidence=dict(self._evidence),
                    camera=self._camera,
                    camera_detail=self._camera_detail,
                    frames=self._frames,
                )
            return self._view

    def subscribe(self) -> Subscription:
        """Start watching revisions; raises ``IllegalAction`` when too many already watch.
        Every subscription must end with :meth:`unsubscribe`."""
        subscription = Subscription(self._queue_size)
        with self._lock:
            if len(self._subscribers) >= self.max_subscribers:
                raise IllegalAction(f"too many watchers: {len(self._subscribers)} already watching")
            self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    # --- internals -------------------------------------------------------------------------

    def _start(self, setup: Setup, record: GameRecord | None) -> None:
        if record is None:
            record = GameRecord.create(setup.rules, setup.players, setup.first)
        self._game, self._setup = Game.from_record(record), setup
        self._flags: list[Flag] = []
        self._evidence: dict[int, Evidence] = {}
        self._game_id += 1
        self._persist(None)

    def _flag(self, flag_id: int) -> Flag:
        for flag in self._flags:
            if flag.id == flag_id:
                return flag
        raise UnknownName(f"no flag {flag_id} awaits confirmation")

    def _persist(self, event: Event | None) -> None:
        if self._sink is None:
            return
        try:
            self._sink(self._game.record, event)
        except Exception:  # the store failing must not stop the game being scored
            log.exception("event sink failed on %r", event)

    def _keep_flags(self) -> None:
        if self._flag_sink is None:
            return
        try:
            self._flag_sink(tuple(self._flags))
        except Exception:  # the store failing must not stop the game being scored
            log.exception("flag sink failed")

    def _changed(self) -> View:
        self._revision += 1
        self._view = None
        view = self.view()
        for subscription in self._subscribers:
            subscription.notify(self._revision)
        return view


__all__ = [
    "Action",
    "CameraStatus",
    "Event",
    "EventSink",
    "Evidence",
    "EvidenceSink",
    "Flag",
    "FlagSink",
    "LiveSession",
    "Setup",
    "StoreSink",
    "Subscription",
    "View",
]
