"""Evaluation figures and the record written as a game goes."""

from __future__ import annotations

import json
from dataclasses import replace

from companion.cards import Card
from companion.engine import GameRecord, random_game
from companion.pipeline.evaluate import all_right, compare, summary
from companion.pipeline.live import RecordWriter
from companion.pipeline.recognise import Recognised


def recognised(record: GameRecord, delay: float = 0.5, doubtful: int | None = None) -> list[Recognised]:
    """What a perfect recogniser would have said about ``record``, ``delay`` s after each event."""
    out = []
    for i, event in enumerate(record.events):
        doubt = "unsure" if i == doubtful else None
        out.append(Recognised(event.type, i + delay, "", event.seat, event.card, float(i), doubt))
    return out


def test_a_perfect_reading_is_all_right():
    truth = random_game("brisca-2", seed=4)
    plays = sum(event.type == "play" for event in truth.events)
    rests = [float(i) for i, event in enumerate(truth.events) if event.type == "play"]
    figures = compare(truth, truth, recognised(truth), rests)
    assert all_right(figures)
    assert figures["plays_right"] == figures["plays"] == plays
    assert figures["flagged"] == figures["wrong"] == figures["missed"] == 0
    assert figures["median_delay_s"] == 0.5


def test_each_card_s_delay_runs_to_the_event_that_played_it_whatever_came_between():
    """A phantom play told early (a card that was never played) delays no true card."""
    truth = random_game("brisca-2", seed=4)
    rests = [float(i) for i, event in enumerate(truth.events) if event.type == "play"]
    used = {e.card for e in truth.events if e.card is not None}
    spare = next(c for c in (Card.parse(s) for s in ("8O", "9O", "8C", "9C")) if c not in used)
    phantom = Recognised("play", 0.2, "", 0, spare, 0.1, "unsure")
    figures = compare(truth, truth, [phantom, *recognised(truth)], rests)
    assert figures["median_delay_s"] == 0.5
    assert figures["delays_s"] == [0.5] * len(rests)


def test_one_misread_card_counts_as_wrong_and_changes_the_score():
    truth = random_game("brisca-2", seed=4)
    events = list(truth.events)
    index = next(i for i, e in enumerate(events) if e.type == "play" and e.card.points)
    used = {e.card for e in events if e.card is not None}
    spare = next(c for c in (Card.parse(s) for s in ("8O", "9O", "8C", "9C")) if c not in used)
    events[index] = replace(events[index], card=spare)
    seen = replace(truth, events=tuple(events))
    figures = compare(truth, seen, recognised(seen, doubtful=index))
    assert not all_right(figures)
    assert figures["plays_right"] == figures["plays"] - 1
    assert figures["wrong"] == 1 and figures["flagged"] == 1
    assert not figures["points_right"]
    assert figures["plays_wrong_unflagged"] == 1  # its flag was settled before the game ended
    assert compare(truth, seen, [], unsettled=(index,))["plays_wrong_unflagged"] == 0
    other = next(i for i, e in enumerate(events) if e.type == "play" and i != index)
    assert compare(truth, seen, [], unsettled=(other,))["plays_wrong_unflagged"] == 1


def test_a_wrong_winner_that_the_flags_still_open_leave_open_is_told_open():
    """Four players: the last trick's two last cards read in the wrong order give the game to the
    other team; flagged to the end, the figures tell that the winner was left open."""
    truth = random_game("brisca-4", seed=1)
    refs = [i for i, e in enumerate(truth.events) if e.type == "play"][38:40]
    events = list(truth.events)
    first, second = refs
    events[first], events[second] = (
        replace(events[first], card=events[second].card),
        replace(events[second], card=events[first].card),
    )
    seen = replace(truth, events=tuple(events))
    figures = compare(truth, seen, [], unsettled=refs)
    assert not figures["winner_right"] and figures["winner_open"]
    assert not compare(truth, seen, [], unsettled=refs[:1])["winner_open"]  # one card has no other place
    assert not compare(truth, truth, [])["winner_open"]


def test_nothing_seen_is_nothing_right():
    truth = random_game("brisca-4", seed=2)
    figures = compare(truth, None, [])
    assert figures["plays_right"] == 0 and figures["missed"] == len(truth.events)
    total = summary([figures, compare(truth, truth, recognised(truth), [])])
    assert total["games"] == 2 and total["games_all_right"] == 1


def test_the_record_is_rewritten_after_every_event_and_each_game_has_its_file(tmp_path):
    path = tmp_path / "game.json"
    writer = RecordWriter(path)
    truth = random_game("brisca-2", seed=1)
    for n in range(len(truth.events) + 1):
        partial = replace(truth, events=truth.events[:n])
        writer(partial, partial.events[-1] if n else None)
        assert json.loads(path.read_text()) == partial.to_dict()
    writer(replace(truth, events=()), None)  # the next deal
    assert json.loads(writer.path_for(2).read_text())["events"] == []
    assert writer.path_for(2).name == "game-2.json"
    assert [len(r.events) for r in writer.games] == [len(truth.events), 0]
    assert not list(tmp_path.glob(".*.tmp"))
