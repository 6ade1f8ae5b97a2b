"""A game record downloaded as CSV imports back into the same record; a broken one is named."""

from __future__ import annotations

import pytest

from companion.engine import GameRecord, random_game
from companion.errors import MalformedInput
from webui.record_csv import record_from_csv, record_to_csv


def camera_record() -> GameRecord:
    """A seeded game whose events carry what the camera adds: time, source, confidence, a void."""
    document = random_game("brisca-2", seed=5, players=["Ana", "Luis"]).to_dict()
    for k, event in enumerate(document["events"]):
        event.update(t=round(1.25 * k, 2), source="camera", confidence=0.9)
    document["events"].append({"type": "void", "ref": 3, "source": "operator"})
    return GameRecord.from_dict(document)


@pytest.mark.parametrize(
    "record",
    [camera_record(), random_game("chiamata-5", seed=7), random_game("brisca-4", seed=2)],
    ids=["camera", "chiamata-5", "brisca-4"],
)
def test_a_record_survives_the_csv_round_trip(record: GameRecord) -> None:
    assert record_from_csv(record_to_csv(record)) == record


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda lines: lines[:1] + lines[2:], "starts with its 'game' row"),
        (lambda lines: [lines[0], lines[1].replace('""first"": 1', '""first"": 1,'), *lines[2:]], "not JSON"),
        (lambda lines: [*lines[:2], lines[3], lines[2], *lines[4:]], "event row 1 has seq '1', expected 0"),
        (lambda lines: [*lines[:3], lines[3].replace(",1,", ",x,"), *lines[4:]], "seat 'x' is not a number"),
    ],
    ids=["no header row", "bad header", "rows reordered", "bad number"],
)
def test_a_broken_csv_is_refused_with_the_reason(edit, message) -> None:
    lines = record_to_csv(random_game("brisca-2", seed=5, players=["Ana", "Luis"])).splitlines()
    with pytest.raises(MalformedInput, match=message):
        record_from_csv("\n".join(edit(lines)) + "\n")
