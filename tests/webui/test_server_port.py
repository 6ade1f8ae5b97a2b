"""A port that is taken gives a one-line error naming it, never a traceback."""

from __future__ import annotations

import socket

import pytest

from companion.cli import main
from companion.errors import Unavailable
from companion.session import LiveSession
from webui import create_app
from webui.server import make_server


@pytest.fixture
def taken_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def test_make_server_on_a_taken_port_raises_unavailable(taken_port):
    app = create_app({"SESSION": LiveSession(), "PIN": "1234"})
    with pytest.raises(Unavailable, match=f"127.0.0.1:{taken_port}.*--port"):
        make_server(app, "127.0.0.1", taken_port, 4)


def test_serve_on_a_taken_port_says_so_in_one_line(taken_port, capsys):
    assert main(["serve", "--no-db", "--port", str(taken_port)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion serve: cannot listen on") and "\n" not in err
