"""The record formats: schema validation, parsing and round trips."""

import json

import pytest

from companion.engine import GameRecord, event_from_dict, load_record, random_game, record_from_dict
from companion.engine.record import SCHEMA_PATH
from companion.errors import MalformedInput, MissingResource, UnknownName

from .helpers import record_dict


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "seat": 1, "card": "7O"},
        {"type": "swap", "seat": 0, "card": "2B", "t": 12.5, "source": "camera", "confidence": 0.93},
        {"type": "claim", "seat": 0, "cards": ["1O", "3O", "12O"]},
        {"type": "amend", "ref": 4, "card": "5C", "source": "operator"},
        {"type": "void", "ref": 2},
    ],
)
def test_events_round_trip(data):
    assert event_from_dict(data).to_dict() == data


def test_cards_are_read_case_insensitively_and_written_canonically():
    data = record_dict("brisca-2", "trump 3o; 0 12b")
    assert GameRecord.from_dict(data).to_dict()["events"] == [
        {"type": "trump", "card": "3O"},
        {"type": "play", "seat": 0, "card": "12B"},
    ]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"format": "brisca-record/9"}, MalformedInput, "format"),
        ({"events": [{"type": "play", "seat": 0}]}, MalformedInput, "card"),
        ({"events": [{"type": "play", "seat": 0, "card": "13O"}]}, MalformedInput, "13O"),
        ({"events": [{"type": "dance"}]}, MalformedInput, "dance"),
        ({"events": [{"type": "void", "ref": -1}]}, MalformedInput, "-1"),
        ({"players": ["Ana"]}, MalformedInput, "players"),
        ({"players": ["Ana", "Luis", "Eva"]}, MalformedInput, "needs 2 players"),
        ({"first": 3}, MalformedInput, "first seat 3"),
        ({"rules": "brisca-99"}, UnknownName, "brisca-99"),
        ({"extra": 1}, MalformedInput, "extra"),
    ],
)
def test_bad_records_are_refused_with_the_value(change, error, words):
    with pytest.raises(error, match=words):
        record_from_dict({**record_dict("brisca-2", "trump 3O"), **change})


def test_every_event_field_is_in_the_schema():
    schema = json.loads(SCHEMA_PATH.read_text())
    event_schema = schema["$defs"]["event"]
    from companion.engine.events import EVENT_FIELDS

    assert set(event_schema["properties"]["type"]["enum"]) == set(EVENT_FIELDS)
    for fields in EVENT_FIELDS.values():
        assert set(fields) <= set(event_schema["properties"])


@pytest.mark.parametrize("seed", range(3))
def test_random_records_round_trip_through_json(tmp_path, seed):
    game = random_game({"preset": "brisca-4", "options": {"arrastre": True, "claims": True}}, seed)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_dict()))
    assert load_record(path) == game


@pytest.mark.parametrize(
    ("text", "words"), [("{", "not JSON"), ("[]", "format"), ('{"format": 1}', "format")]
)
def test_load_record_refuses_what_is_not_a_record(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(MalformedInput, match=words):
        load_record(path)


def test_a_missing_file_is_a_missing_resource(tmp_path):
    with pytest.raises(MissingResource, match="no record file"):
        load_record(tmp_path / "absent.json")
