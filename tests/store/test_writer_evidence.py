"""A live session hands each trick's evidence to the store, on the stored game the trick belongs to."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine import random_game, replay
from companion.session import Evidence, LiveSession, Setup
from companion.store import Store
from companion.store.writer import GameWriter

GAME = random_game("brisca-2", seed=5, players=["Ana", "Luis"])
READINGS = ({"card": "1O", "confidence": 0.93, "alternatives": [["1C", 0.04]]},)


def through_trick(n: int) -> int:
    """How many of GAME's events complete its first ``n`` tricks."""
    return next(
        k
        for k in range(len(GAME.events) + 1)
        if len(replay(replace(GAME, events=GAME.events[:k])).tricks) == n
    )


def play(session: LiveSession, start: int, stop: int) -> None:
    for event in GAME.events[start:stop]:
        session.apply(lambda game, event=event: game.apply(event))


def evidence(folder: Path, trick: int, attempt: str = "") -> Evidence:
    snapshot = folder / f"trick-{trick:02d}{attempt}.jpg"
    snapshot.write_bytes(f"table after trick {trick}{attempt}".encode())
    return Evidence(trick, snapshot, READINGS)


def writing(store: Store, first: int = GAME.first) -> tuple[LiveSession, GameWriter]:
    """A session writing GAME's players and rules into ``store``, ``first`` leading."""
    writer = GameWriter(store)
    setup = Setup(GAME.rules.to_spec(), GAME.players, first)
    return LiveSession(setup, sink=writer, evidence_sink=writer.keep), writer


def test_each_tricks_evidence_is_stored_with_its_game_and_verifies(store: Store, tmp_path: Path) -> None:
    session, writer = writing(store)
    play(session, 0, through_trick(1))
    session.add_evidence(evidence(tmp_path, 1))
    play(session, through_trick(1), through_trick(2))
    session.add_evidence(evidence(tmp_path, 2))
    session.add_evidence(evidence(tmp_path, 2))  # the same snapshot again: kept once
    stored = store.evidence(writer.game_id)
    note = {"readings": list(READINGS)}
    assert [(item.game_id, item.trick, item.note) for item in stored] == [
        (writer.game_id, 1, note),
        (writer.game_id, 2, note),
    ]
    assert [item.path.read_bytes() for item in stored] == [b"table after trick 1", b"table after trick 2"]
    assert store.tampered_evidence(writer.game_id) == []
    stored[0].path.write_bytes(b"another picture")
    assert store.tampered_evidence(writer.game_id) == [stored[0]]


def test_a_restarted_game_keeps_its_evidence_on_the_new_stored_game(store: Store, tmp_path: Path) -> None:
    session, writer = writing(store, first=1 - GAME.first)
    play(session, 0, 1)  # the trump card
    abandoned = writer.game_id
    session.load(replace(session.view().record, first=GAME.first))  # the other seat leads: restarted
    play(session, 1, through_trick(1))
    session.add_evidence(evidence(tmp_path, 1))
    assert abandoned is not None and writer.game_id not in (None, abandoned)
    assert store.game(abandoned).status == "abandoned" and store.evidence(abandoned) == []
    assert [item.trick for item in store.evidence(writer.game_id)] == [1]


def test_evidence_of_a_game_already_left_lands_on_no_game(store: Store, tmp_path: Path, caplog) -> None:
    session, writer = writing(store)
    play(session, 0, through_trick(3))
    finished = writer.game_id
    session.new_game(Setup(GAME.rules.to_spec(), GAME.players, 1 - GAME.first))
    play(session, 0, 1)
    with caplog.at_level(logging.WARNING, "companion.session"):
        session.add_evidence(evidence(tmp_path, 3))  # trick 3 of the game before: not of this one
    assert "evidence of trick 3 left out" in caplog.text
    assert finished is not None and writer.game_id != finished
    assert store.evidence(finished) == [] and store.evidence(writer.game_id) == []
    assert session.view().evidence == {}


def test_a_failing_evidence_write_is_logged_and_the_game_goes_on(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    session, writer = writing(store)
    play(session, 0, through_trick(1))
    real = store.add_evidence
    monkeypatch.setattr(store, "add_evidence", lambda *a, **k: (_ for _ in ()).throw(OSError("disk full")))
    with caplog.at_level(logging.ERROR, "companion.session"):
        session.add_evidence(evidence(tmp_path, 1))
    assert "evidence sink failed on trick 1" in caplog.text and "disk full" in caplog.text
    assert session.view().evidence[1].trick == 1  # the live game still shows it
    play(session, through_trick(1), through_trick(2))  # and goes on being scored and stored
    monkeypatch.setattr(store, "add_evidence", real)
    session.add_evidence(evidence(tmp_path, 2))
    assert store.game_record(writer.game_id)["events"] == [
        e.to_dict() for e in GAME.events[: through_trick(2)]
    ]
    assert [item.trick for item in store.evidence(writer.game_id)] == [2]
