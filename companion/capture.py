"""Frame sources: a webcam, a video file, an RTSP or HTTP MJPEG stream, a folder of images.

A :class:`Capture` reads its source on its own thread. In ``latest`` mode it keeps
only the newest frame, dropping what the consumer has no time for, so the
pipeline stays live on a slow CPU; ``realtime`` and ``fast`` hand over every
frame in order (files at their own pace, or as fast as they decode). A live
source that fails is reopened with exponential backoff; :attr:`Capture.status`
says ``ok``, ``reconnecting`` or ``ended``, and :meth:`Capture.read` never waits
longer than its timeout.

Frames carry their time in seconds: the media time for files and folders, the
wall-clock capture time (``time.time()``) for live sources.
"""

from __future__ import annotations

import http.client
import queue
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Protocol

import cv2
import numpy as np

from companion.errors import MalformedInput, MissingResource, RecognitionFailure

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
#: What a source may raise when it cannot be opened or breaks off; a live one is then reopened.
_SOURCE_ERRORS = (OSError, http.client.HTTPException, cv2.error, RecognitionFailure, MissingResource)


@dataclass(frozen=True)
class Frame:
    """One image from a source, with its time in seconds and its number in the source."""

    image: np.ndarray
    t: float
    index: int


class Status(Enum):
    CONNECTING = "connecting"
    OK = "ok"
    RECONNECTING = "reconnecting"
    ENDED = "ended"


class Mode(Enum):
    LATEST = "latest"  # keep only the newest frame (files play at real-time pace)
    REALTIME = "realtime"  # every frame in order, files at real-time pace
    FAST = "fast"  # every frame in order, as fast as they decode


class _Reader(Protocol):
    def read(self) -> tuple[np.ndarray, float] | None:
        """The next image and its media time; None when the source ended, one of ``_SOURCE_ERRORS``
        when it broke off."""

    def close(self) -> None: ...


class _VideoReader:
    """A webcam, a video file or an RTSP stream, through OpenCV."""

    def __init__(self, target: int | str, timeout_s: float) -> None:
        ms = int(timeout_s * 1000)
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        self._capture = cv2.VideoCapture(target, cv2.CAP_ANY, params)
        if not self._capture.isOpened():
            raise RecognitionFailure(f"cannot open video source {target!r}")
        self._fps = self._capture.get(cv2.CAP_PROP_FPS) or 30.0
        self._count = 0

    def read(self) -> tuple[np.ndarray, float] | None:
        ok, image = self._capture.read()
        if not ok:
            return None
        position = self._capture.get(cv2.CAP_PROP_POS_MSEC)
        t = position / 1000 if position > 0 or self._count == 0 else self._count / self._fps
        self._count += 1
        return image, t

    def close(self) -> None:
        self._capture.release()


class _FolderReader:
    """The images of a folder in name order, ``fps`` of them per second of media time."""

    def __init__(self, folder: Path, fps: float) -> None:
        self._paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._paths:
            raise MissingResource(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in folder {folder}")
        self._fps = fps
        self._next = 0

    def read(self) -> tuple[np.ndarray, float] | None:
        while self._next < len(self._paths):
            index, self._next = self._next, self._next + 1
            image = cv2.imread(str(self._paths[index]), cv2.IMREAD_COLOR)
            if image is not None:
                return image, index / self._fps
        return None

    def close(self) -> None:
        self._paths = []


class _MjpegReader:
    """An HTTP multipart MJPEG stream (a phone used as a camera), JPEG by JPEG."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self._response = urllib.request.urlopen(url, timeout=timeout_s)
        self._buffer = b""
        self._start = time.monotonic()

    def read(self) -> tuple[np.ndarray, float] | None:
        while True:
            start = self._buffer.find(b"\xff\xd8")
            end = self._buffer.find(b"\xff\xd9", start + 2) if start >= 0 else -1
            if end >= 0:
                jpeg, self._buffer = self._buffer[start : end + 2], self._buffer[end + 2 :]
                image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
                if image is not None:
                    return image, time.monotonic() - self._start
                continue
            chunk = self._response.read1(65536)
            if not chunk:
                return None
            kept = self._buffer[start:] if start >= 0 else self._buffer[-1:]  # a JPEG start may straddle
            self._buffer = kept + chunk

    def close(self) -> None:
        self._response.close()


def _opener(source: int | str | Path, fps: float, timeout_s: float) -> tuple[Callable[[], _Reader], bool]:
    """How to open ``source``, and whether it is live (retried when lost, never paced)."""
    text = str(source)
    if isinstance(source, int) or text.isdigit():
        return (lambda: _VideoReader(int(text), timeout_s)), True
    if text.startswith(("http://", "https://")):
        return (lambda: _MjpegReader(text, timeout_s)), True
    if text.startswith(("rtsp://", "rtsps://")):
        return (lambda: _VideoReader(text, timeout_s)), True
    path = Path(text)
    if path.is_dir():
        return (lambda: _FolderReader(path, fps)), False
    if path.is_file():
        return (lambda: _VideoReader(text, timeout_s)), False
    raise MissingResource(
        f"frame source not found: {text!r} (a webcam index, a URL, a video file or a folder)"
    )


class Capture:
    """Frames from a source, read on a thread; use as a context manager or call :meth:`close`.

    ``fps`` sets the media time of an image folder. ``backoff`` is the first and
    the longest wait (s) before reopening a lost live source. ``on_status`` is
    called on the reader thread each time the status changes.
    """

    def __init__(
        self,
        source: int | str | Path,
        mode: Mode | str = Mode.LATEST,
        *,
        fps: float = 15.0,
        backoff: tuple[float, float] = (0.5, 8.0),
        timeout_s: float = 5.0,
        queue_size: int = 32,
        on_status: Callable[[Status], None] | None = None,
    ) -> None:
        try:
            self.mode = Mode(mode)
        except ValueError:
            raise MalformedInput(
                f"unknown capture mode {mode!r}: expected latest, realtime or fast"
            ) from None
        self.source = source
        self._open, self.live = _opener(source, fps, timeout_s)
        self._backoff = backoff
        self._on_status = on_status
        self._status = Status.CONNECTING
        self._stop = threading.Event()
        self._newest: Frame | None = None
        self._newest_ready = threading.Condition()
        self._queue: queue.Queue[Frame | None] = queue.Queue(maxsize=queue_size)
        self.dropped = 0
        self.reconnects = 0
        self.last_error = ""
        self._index = 0
        self._thread = threading.Thread(target=self._run, name=f"capture {source}", daemon=True)
        self._thread.start()

    @property
    def status(self) -> Status:
        return self._status

    def _set_status(self, status: Status) -> None:
        if status is not self._status:
            self._status = status
            if self._on_status is not None:
                self._on_status(status)
        with self._newest_ready:
            self._newest_ready.notify_all()

    def _run(self) -> None:
        wait = self._backoff[0]
        while not self._stop.is_set():
            try:
                reader = self._open()
                self._set_status(Status.OK)
                try:
                    if self._stream(reader):
                        wait = self._backoff[0]
                finally:
                    reader.close()
            except _SOURCE_ERRORS as error:
                self.last_error = f"{self.source}: {error}"
            if not self.live or self._stop.is_set():
                break
            self._set_status(Status.RECONNECTING)
            self.reconnects += 1
            self._stop.wait(wait)
            wait = min(wait * 2, self._backoff[1])
        self._set_status(Status.ENDED)
        if self.mode is not Mode.LATEST:
            self._put(None)

    def _stream(self, reader: _Reader) -> bool:
        """Deliver the reader's frames until it ends or the capture closes; whether any came."""
        paced = not self.live and self.mode is not Mode.FAST
        started, first_t = time.monotonic(), None
        while not self._stop.is_set() and (got := reader.read()) is not None:
            image, media_t = got
            first_t = media_t if first_t is None else first_t
            if paced:
                self._stop.wait(max(0.0, started + media_t - first_t - time.monotonic()))
            self._deliver(Frame(image, time.time() if self.live else media_t, self._index))
            self._index += 1
        return first_t is not None

    def _put(self, item: Frame | None) -> None:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _deliver(self, frame: Frame) -> None:
        if self.mode is not Mode.LATEST:
            self._put(frame)
            return
        with self._newest_ready:
            if self._newest is not None:
                self.dropped += 1
            self._newest = frame
            self._newest_ready.notify_all()

    def read(self, timeout: float = 0.5) -> Frame | None:
        """The next frame (the newest one in ``latest`` mode), or None if none came within ``timeout``
        seconds or the source ended."""
        if self.mode is not Mode.LATEST:
            if self._status is Status.ENDED and self._queue.empty():
                return None
            try:
                return self._queue.get(timeout=timeout)
            except queue.Empty:
                return None
        with self._newest_ready:
            self._newest_ready.wait_for(
                lambda: self._newest is not None or self._status is Status.ENDED, timeout=timeout
            )
            frame, self._newest = self._newest, None
            return frame

    def frames(self, timeout: float = 0.5) -> Iterator[Frame]:
        """Every frame read until the source ends (a live source only ends when closed)."""
        while True:
            frame = self.read(timeout)
            if frame is not None:
                yield frame
            elif self._status is Status.ENDED and (self.mode is Mode.LATEST or self._queue.empty()):
                return

    def close(self) -> None:
        """Stop the reader thread; waits at most a few seconds for it."""
        self._stop.set()
        self._thread.join(timeout=5.0)

    def __enter__(self) -> Capture:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
