"""Capture from a generated video file, an image folder and a local MJPEG server that goes away."""

from __future__ import annotations

import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.capture import Capture, Mode, Status
from companion.errors import MalformedInput, MissingResource

cv2.setNumThreads(1)
FPS = 20.0


def numbered(i: int) -> np.ndarray:
    """A small frame whose brightness encodes its number (survives JPEG and video coding)."""
    return np.full((48, 64, 3), 10 + 8 * i, np.uint8)


def number_of(image: np.ndarray) -> int:
    return round((float(image.mean()) - 10) / 8)


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("video") / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (64, 48))
    for i in range(20):
        writer.write(numbered(i))
    writer.release()
    return path


def test_fast_mode_reads_every_frame_of_a_file_in_order_with_media_time(video: Path) -> None:
    with Capture(video, Mode.FAST) as capture:
        frames = list(capture.frames())
        assert capture.status is Status.ENDED
    assert [number_of(f.image) for f in frames] == list(range(20))
    assert [f.index for f in frames] == list(range(20))
    assert np.allclose([f.t for f in frames], np.arange(20) / FPS, atol=1e-3)


def test_realtime_mode_plays_a_file_at_its_own_pace(video: Path) -> None:
    started = time.monotonic()
    with Capture(video, "realtime") as capture:
        count = sum(1 for _ in capture.frames())
    assert count == 20
    assert time.monotonic() - started >= 19 / FPS * 0.9


def test_latest_mode_drops_what_a_slow_consumer_cannot_take(video: Path) -> None:
    with Capture(video, Mode.LATEST) as capture:
        seen = []
        for frame in capture.frames():
            seen.append(frame.index)
            time.sleep(0.2)  # a consumer four times slower than the video
        assert capture.dropped > 0
    assert seen == sorted(seen)
    assert len(seen) < 20
    assert seen[-1] == 19  # the newest frame is never lost


def test_image_folder_in_name_order_at_the_given_rate(tmp_path: Path) -> None:
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), numbered(i))
    (tmp_path / "notes.txt").write_text("not an image")
    with Capture(tmp_path, Mode.FAST, fps=2.0) as capture:
        frames = list(capture.frames())
    assert [number_of(f.image) for f in frames] == list(range(5))
    assert [f.t for f in frames] == [0.0, 0.5, 1.0, 1.5, 2.0]


@pytest.mark.parametrize(
    ("source", "mode", "error", "named"),
    [
        ("no/such/file.mp4", "fast", MissingResource, "no/such/file.mp4"),
        ("{video}", "sometimes", MalformedInput, "sometimes"),
    ],
)
def test_bad_sources_and_modes_are_refused(
    source: str, mode: str, error: type, named: str, video: Path
) -> None:
    with pytest.raises(error, match=re.escape(named)):
        Capture(source.format(video=video), mode)


def test_a_missing_camera_is_retried_without_holding_up_the_consumer() -> None:
    with Capture(97, backoff=(0.05, 0.1), timeout_s=0.5) as capture:
        started = time.monotonic()
        assert capture.read(timeout=0.2) is None
        assert time.monotonic() - started < 1.0
        assert _wait_for(lambda: capture.reconnects >= 2)
        assert capture.status is Status.RECONNECTING
        assert "97" in capture.last_error
    assert capture.status is Status.ENDED


class _Mjpeg(BaseHTTPRequestHandler):
    """Streams numbered JPEG frames, multipart, as a phone camera app does."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        i = 0
        while not self.server.stopping.is_set():  # type: ignore[attr-defined]
            jpeg = cv2.imencode(".jpg", numbered(i % 20))[1].tobytes()
            part = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
            try:
                self.wfile.write(part + jpeg + b"\r\n")
            except OSError:
                return
            i += 1
            time.sleep(0.02)

    def log_message(self, *args: object) -> None:
        pass


def _serve(port: int) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", port), _Mjpeg)
    server.daemon_threads = True
    server.stopping = threading.Event()  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _stop(server: ThreadingHTTPServer) -> None:
    server.stopping.set()  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


@pytest.fixture
def port() -> int:
    """A free local port (the probe socket is closed again before the server takes it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(condition: object, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def test_mjpeg_stream_is_reconnected_with_backoff_after_the_camera_goes_away(port: int) -> None:
    server = _serve(port)
    statuses: list[Status] = []
    with Capture(
        f"http://127.0.0.1:{port}/video", backoff=(0.05, 0.4), timeout_s=1.0, on_status=statuses.append
    ) as capture:
        first = capture.read(timeout=3.0)
        assert first is not None and first.image.shape == (48, 64, 3)
        assert capture.status is Status.OK
        assert abs(first.t - time.time()) < 2.0  # live frames carry the capture time

        _stop(server)
        assert _wait_for(lambda: capture.status is Status.RECONNECTING)
        assert _wait_for(lambda: f"127.0.0.1:{port}" in capture.last_error)
        capture.read(timeout=0.0)  # the last frame from before, if not yet taken
        started = time.monotonic()
        assert capture.read(timeout=0.3) is None
        assert time.monotonic() - started < 1.0  # the consumer is never held up for long
        assert _wait_for(lambda: capture.reconnects >= 3)  # it keeps trying, backing off

        server = _serve(port)
        try:
            assert _wait_for(lambda: capture.status is Status.OK)
            assert capture.read(timeout=3.0) is not None
        finally:
            _stop(server)
    assert statuses[:3] == [Status.OK, Status.RECONNECTING, Status.OK]
    assert statuses[-1] is Status.ENDED
