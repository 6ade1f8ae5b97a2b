"""Serving the web UI with waitress: a production WSGI server, pure Python, on every OS.

Each server-sent-events or MJPEG viewer holds one worker thread for as long as it
watches, so the pool is sized for the viewers plus a few threads for ordinary pages;
the session refuses watchers beyond ``viewers`` (HTTP 503) so pages never starve.
Waitress flushes every chunk as it is written (``send_bytes=1``), which SSE needs.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

from flask import Flask

from companion.errors import Unavailable

#: Worker threads kept for ordinary pages and form posts, beyond the watchers.
PAGE_THREADS = 8


def make_server(app: Flask, host: str, port: int, viewers: int) -> Any:
    """A waitress server for ``app`` (not yet running); ``port`` 0 picks a free one.

    Raises :class:`Unavailable` when the address is taken.
    """
    from waitress.server import create_server

    app.config["SESSION"].max_subscribers = viewers
    try:
        _check_free(host, port)  # before waitress, which leaks its half-made sockets when bind fails
        return create_server(
            app,
            host=host,
            port=port,
            threads=viewers + PAGE_THREADS,
            channel_timeout=3600,
            connection_limit=viewers + 4 * PAGE_THREADS,
            ident="brisca-companion",
        )
    except OSError as error:
        raise Unavailable(
            f"cannot listen on {host}:{port} ({error.strerror or error}): "
            "choose another port with --port (0 picks a free one)"
        ) from None


def _check_free(host: str, port: int) -> None:
    """Raise ``OSError`` when ``host:port`` cannot be listened on (port 0 always can)."""
    if port == 0:
        return
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress binds
        probe.bind(address)


class Background:
    """A server running on its own thread (beside a pipeline, or in tests) until :meth:`stop`."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.url = f"http://{server.effective_host}:{server.effective_port}"
        self._thread = threading.Thread(target=server.run, name="waitress", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Close the listening socket and every connection from the server's own loop thread
        (closing them from here would race its ``select``), then let the workers go."""
        self.server.trigger.pull_trigger(self._close_all)
        self._thread.join(timeout)
        self.server.task_dispatcher.shutdown(timeout=timeout)

    def _close_all(self) -> None:
        for dispatcher in list(self.server._map.values()):  # waitress keeps its sockets there
            dispatcher.close()


def lan_address() -> str:
    """This machine's address on the home network (no packet is sent), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
