"""The camera view: the newest annotated frame as MJPEG, for setting up and for trust."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, render_template
from werkzeug.exceptions import NotFound, ServiceUnavailable

from companion.errors import IllegalAction
from webui.live import live_session

bp = Blueprint("camera", __name__)

BOUNDARY = "frame"


@bp.get("/camera")
def page() -> str:
    return render_template("camera.html", view=live_session().view())


@bp.get("/camera.jpg")
def still() -> Response:
    """The newest frame (for clicking the table corners); 404 before the first one."""
    latest = live_session().next_frame(0, 0.0)
    if latest is None:
        raise NotFound("no camera frame yet")
    return Response(latest[1], mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera.mjpg")
def mjpeg() -> Response:
    """Every new frame as a part of a multipart stream; waits quietly while there is none.
    A camera viewer holds a server thread like a scoreboard watcher, so it counts as one."""
    session = live_session()
    wait_s = float(current_app.config["SSE_HEARTBEAT_S"])
    try:
        watcher = session.subscribe()
    except IllegalAction as error:
        raise ServiceUnavailable(str(error)) from None

    def parts() -> Iterator[bytes]:
        seen = 0
        while True:
            latest = session.next_frame(seen, wait_s)
            if latest is None:
                yield b""  # lets the server notice a viewer that left
                continue
            seen, jpeg = latest
            yield (
                f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                + jpeg
                + b"\r\n"
            )

    response = Response(
        parts(),
        mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-store"},
    )
    response.call_on_close(lambda: session.unsubscribe(watcher))
    return response
