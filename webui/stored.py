"""The app's store: games, their flags and the tournaments, opened once and shared by its threads.

The database is the app's ``DATABASE`` setting (a URL or a SQLite file; the data folder's if
absent), or the store of its ``WRITER`` (the ``GameWriter`` of the live session, as
``companion serve`` gives it), so that the pages read what the session writes.
"""

from __future__ import annotations

from flask import current_app

from companion.store import Store
from companion.store.writer import GameWriter


def store() -> Store:
    """The app's store, opened (and migrated) on first use."""
    opened = current_app.extensions.get("store")
    if opened is None:
        writer = writer_of_app()
        opened = writer.store if writer is not None else Store.open(current_app.config.get("DATABASE"))
        current_app.extensions["store"] = opened
    return opened


def writer_of_app() -> GameWriter | None:
    """The writer of the live session, where the app may continue stored games in it."""
    writer = current_app.config.get("WRITER")
    return writer if isinstance(writer, GameWriter) else None
