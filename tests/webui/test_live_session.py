"""The live session: engine first, bounded watchers, flags, frames, camera, sink."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest
from webui_helpers import PLAYED, prefix

from companion.cards import Card
from companion.engine import Event, GameRecord, replay
from companion.errors import IllegalAction, UnknownName
from companion.session import CameraStatus, Evidence, LiveSession, Setup


def next_event(session: LiveSession, full_record: GameRecord) -> Event:
    return full_record.events[len(session.view().record.events)]


def test_load_replays_the_record_through_the_engine(session: LiveSession, full_record: GameRecord) -> None:
    view = session.view()
    assert view.record == prefix(full_record, PLAYED)
    assert view.state == replay(prefix(full_record, PLAYED))


def test_an_illegal_event_is_refused_and_changes_nothing(session: LiveSession) -> None:
    before = session.view()
    already_played = before.state.tricks[0].plays[0][1]
    with pytest.raises(IllegalAction, match=str(already_played)):
        session.apply(lambda game: game.play(before.state.to_play, already_played))
    assert session.view() is before


def test_every_change_reaches_watchers_with_its_revision(
    session: LiveSession, full_record: GameRecord
) -> None:
    watcher = session.subscribe()
    event = next_event(session, full_record)
    session.apply(lambda game: game.apply(event))
    assert watcher.wait(1.0) == session.view().revision
    assert watcher.wait(0.01) is None
    session.unsubscribe(watcher)
    assert session.subscribers == 0


def test_a_slow_watcher_never_blocks_the_writer(session: LiveSession, full_record: GameRecord) -> None:
    slow = session.subscribe()  # never reads
    for event in full_record.events[PLAYED:]:
        session.apply(lambda game, event=event: game.apply(event))
    assert slow.dropped == len(full_record.events) - PLAYED - 8  # the mailbox keeps the 8 newest
    assert slow.wait(0.0) == session.view().revision
    assert session.view().state.complete


def test_too_many_watchers_are_refused() -> None:
    session = LiveSession(max_subscribers=2)
    session.subscribe(), session.subscribe()
    with pytest.raises(IllegalAction, match="2 already watching"):
        session.subscribe()


def test_sink_hears_the_new_game_and_every_accepted_event(full_record: GameRecord) -> None:
    heard: list[tuple[int, Event | None]] = []
    session = LiveSession(sink=lambda record, event: heard.append((len(record.events), event)))
    session.new_game(Setup(players=("Ana", "Luis"), first=full_record.first))
    for event in full_record.events[:3]:
        session.apply(lambda game, event=event: game.apply(event))
    assert heard == [(0, None), (0, None), *((i + 1, e) for i, e in enumerate(full_record.events[:3]))]


def test_a_failing_sink_is_logged_and_the_game_goes_on(
    full_record: GameRecord, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(record: GameRecord, event: Event | None) -> None:
        if event is not None:
            raise OSError("disk full")

    session = LiveSession(Setup(players=("Ana", "Luis"), first=full_record.first), sink=broken)
    with caplog.at_level(logging.ERROR, logger="companion.session"):
        session.apply(lambda game: game.apply(full_record.events[0]))
    assert "event sink failed" in caplog.text
    assert len(session.view().record.events) == 1


def test_a_doubtful_reading_is_flagged_and_resolved_by_an_amend(
    session: LiveSession, full_record: GameRecord
) -> None:
    truth = next_event(session, full_record)
    assert truth.type == "play" and truth.card is not None
    wrong = next(card for card in session.view().state.unseen if card != truth.card)
    session.apply(
        lambda game: game.play(truth.seat, wrong),
        doubt="two cards read alike",
        alternatives=((wrong, 0.5), (truth.card, 0.4)),
        snapshot=Path("table.jpg"),
    )
    (flag,) = session.view().flags
    assert (flag.seq, flag.reason, flag.snapshot) == (PLAYED, "two cards read alike", Path("table.jpg"))
    event = session.resolve(flag.id, lambda game: game.amend(flag.seq, card=truth.card))
    assert event is not None and event.type == "amend"
    view = session.view()
    assert view.flags == ()
    assert view.state == replay(prefix(full_record, PLAYED + 1))
    with pytest.raises(UnknownName, match=str(flag.id)):
        session.resolve(flag.id)


def test_a_doubtful_amendment_flags_the_event_it_amends_which_the_operator_corrects(
    session: LiveSession, full_record: GameRecord
) -> None:
    truth = next_event(session, full_record)
    assert truth.type == "play" and truth.card is not None
    guesses = [card for card in session.view().state.unseen if card != truth.card][:2]
    session.apply(lambda game: game.play(truth.seat, guesses[0]))
    session.apply(lambda game: game.amend(PLAYED, card=guesses[1]), doubt="a guess")
    (flag,) = session.view().flags
    assert flag.seq == PLAYED
    session.resolve(flag.id, lambda game: game.amend(flag.seq, card=truth.card))
    assert session.view().state == replay(prefix(full_record, PLAYED + 1))


def test_confirming_a_flag_adds_no_event(session: LiveSession, full_record: GameRecord) -> None:
    event = next_event(session, full_record)
    session.apply(lambda game: game.apply(event), doubt="low confidence")
    events = session.view().record.events
    assert session.resolve(session.view().flags[0].id) is None
    assert session.view().record.events == events and session.view().flags == ()


def test_frames_wait_for_a_newer_one(session: LiveSession) -> None:
    assert session.next_frame(0, 0.01) is None
    threading.Timer(0.05, session.set_frame, args=(b"jpeg-1",)).start()
    started = time.monotonic()
    assert session.next_frame(0, 2.0) == (1, b"jpeg-1")
    assert time.monotonic() - started < 1.0
    assert session.next_frame(1, 0.01) is None


def test_camera_status_changes_are_news_once(session: LiveSession) -> None:
    revision = session.view().revision
    session.set_camera(CameraStatus.LOST, "no signal")
    session.set_camera(CameraStatus.LOST, "no signal")
    view = session.view()
    assert (view.camera, view.camera_detail, view.revision) == (CameraStatus.LOST, "no signal", revision + 1)


def test_evidence_is_kept_per_trick(session: LiveSession, tmp_path: Path) -> None:
    evidence = Evidence(2, tmp_path / "trick-2.jpg", ({"card": "1O", "confidence": 0.9},))
    session.add_evidence(evidence)
    assert session.view().evidence == {2: evidence}


def test_new_game_starts_empty_and_unknown_rules_change_nothing(session: LiveSession) -> None:
    before = session.view()
    with pytest.raises(UnknownName, match="brisca-99"):
        session.new_game(Setup(rules="brisca-99"))
    assert session.view() is before
    view = session.new_game(Setup(rules="brisca-4", players=("A", "B", "C", "D"), first=2))
    assert (view.record.events, view.state.leader, view.game_id) == ((), 2, before.game_id + 1)
    assert Card.parse("1O") in view.state.unseen


def test_the_view_counts_frames_without_waking_watchers(session: LiveSession) -> None:
    watcher = session.subscribe()
    revision = session.view().revision
    session.set_frame(b"jpeg")
    assert (session.view().frames, session.view().revision) == (1, revision)
    assert watcher.wait(0.01) is None
