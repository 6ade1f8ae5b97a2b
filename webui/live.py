"""The live scoreboard, and the server-sent events that keep every page of it current.

Each event carries a whole rendered fragment (the scoreboard, the flags, ...) with the
session revision as its id, so catching up after a dropped connection is just sending
the newest fragment: a browser that reconnects with a ``Last-Event-ID`` older than the
current revision gets it at once. Fragments that look the same to every viewer are
rendered once per revision and language, however many phones watch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, render_template, request, stream_with_context
from werkzeug.exceptions import NotFound, ServiceUnavailable

from companion.errors import IllegalAction
from companion.session import LiveSession, View
from webui import board

bp = Blueprint("live", __name__)

#: Fragments a page may watch: template, and whether it is the same for every viewer.
PARTS: dict[str, tuple[str, bool]] = {
    "board": ("_board.html", True),
    "flags": ("_flags.html", False),
    "log": ("_log.html", False),
}

_cache_lock = threading.Lock()


def live_session() -> LiveSession:
    session: LiveSession = current_app.config["SESSION"]
    return session


def render_part(part: str, view: View) -> str:
    """The fragment ``part`` at ``view``'s revision, in the request's language."""
    template, shared = PARTS[part]
    if not shared:
        return render_template(template, view=view, board=board.scoreboard(view, g.locale))
    key = (part, view.revision, g.locale)
    cache: dict[tuple[Any, ...], str] = current_app.extensions["fragments"]
    with _cache_lock:
        html = cache.get(key)
    if html is None:
        html = render_template(template, view=view, board=board.scoreboard(view, g.locale))
        with _cache_lock:
            if len(cache) > 64:
                cache.clear()
            cache[key] = html
    return html


@bp.get("/")
def scoreboard() -> str:
    view = live_session().view()
    return render_template("live.html", view=view, board=board.scoreboard(view, g.locale))


@bp.get("/state.json")
def state_json() -> Response:
    """The scoreboard as JSON, for machines."""
    view = live_session().view()
    return jsonify(board.scoreboard(view, g.locale, for_json=True))


@bp.get("/events")
def events() -> Response:
    """Server-sent events: the fragment ``part`` after every change, and a heartbeat."""
    part = request.args.get("part", "board")
    if part not in PARTS:
        raise NotFound(f"no live part {part!r}")
    session = live_session()
    last_seen = request.headers.get("Last-Event-ID", "")
    heartbeat = float(current_app.config["SSE_HEARTBEAT_S"])
    ends = time.monotonic() + float(current_app.config["SSE_MAX_S"])
    retry = int(current_app.config["SSE_RETRY_MS"])
    try:
        subscription = session.subscribe()
    except IllegalAction as error:
        raise ServiceUnavailable(str(error)) from None

    def stream() -> Iterator[str]:
        yield f"retry: {retry}\n\n"
        sent = last_seen
        while time.monotonic() < ends:  # then the browser reconnects: frees threads of vanished phones
            view = session.view()
            if str(view.revision) != sent:  # a notice may come for a revision already sent
                sent = str(view.revision)
                yield _sse(view, render_part(part, view))
            if subscription.wait(heartbeat) is None:
                yield ": alive\n\n"  # finds phones that left, keeps proxies open

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.call_on_close(lambda: session.unsubscribe(subscription))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _sse(view: View, html: str) -> str:
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {view.revision}\nevent: update\n{data}\n"
