"""Game records (``brisca-record/1``) and match records (``brisca-match/1``).

Input is checked against ``record.schema.json`` (the schema published in
``docs/record-format.md``) before it is parsed; anything that is not a record
raises :class:`~companion.errors.MalformedInput`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from companion.engine.events import Event, event_from_dict
from companion.engine.rules import Rules, rules_for
from companion.errors import MalformedInput, MissingResource

GAME_FORMAT: Final = "brisca-record/1"
MATCH_FORMAT: Final = "brisca-match/1"
SCHEMA_PATH: Final = Path(__file__).with_name("record.schema.json")


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of both record formats."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def validate(data: object, definition: str) -> None:
    """Check ``data`` against ``#/$defs/<definition>``; raise MalformedInput with the first error.

    The ``jsonschema`` package is imported here, on input only: replaying and
    scoring need nothing outside the standard library.
    """
    import jsonschema  # type: ignore[import-untyped]

    validator = jsonschema.Draft202012Validator({"$defs": schema()["$defs"], "$ref": f"#/$defs/{definition}"})
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the record"
        raise MalformedInput(f"not a {definition} record: at {where}: {error.message}")


def _players(rules: Rules, players: Sequence[str] | None) -> tuple[str, ...]:
    if players is None:
        return tuple(f"Player {k + 1}" for k in range(rules.players))
    if len(players) != rules.players:
        raise MalformedInput(
            f"{rules.name} needs {rules.players} players, not {len(players)}: {list(players)}"
        )
    return tuple(players)


def _first(rules: Rules, first: int) -> int:
    if not 0 <= first < rules.seats:
        raise MalformedInput(f"first seat {first} is not a seat of {rules.name} (0..{rules.seats - 1})")
    return first


@dataclass(frozen=True)
class GameRecord:
    """One game: its rules, its players, the seat that leads first, and its event log."""

    rules: Rules
    players: tuple[str, ...]
    first: int
    events: tuple[Event, ...] = ()

    @classmethod
    def create(
        cls, rules: Rules | str | Mapping[str, Any], players: Sequence[str] | None = None, first: int = 0
    ) -> GameRecord:
        """An empty record; players default to "Player 1", "Player 2", ..."""
        parsed = rules_for(rules)
        return cls(parsed, _players(parsed, players), _first(parsed, first))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        validate(data, "game")
        return cls._parse(data)

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> GameRecord:
        record = cls.create(data["rules"], data["players"], data["first"])
        return cls(record.rules, record.players, record.first, tuple(map(event_from_dict, data["events"])))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": GAME_FORMAT,
            "rules": self.rules.to_spec(),
            "players": list(self.players),
            "first": self.first,
            "events": [event.to_dict() for event in self.events],
        }

    def append(self, event: Event) -> GameRecord:
        """This record with one more event."""
        return GameRecord(self.rules, self.players, self.first, (*self.events, event))


@dataclass(frozen=True)
class MatchRules:
    """How games add up to a match (partida)."""

    target: int = 3
    double_over_100: bool = False
    rotate_trump: bool = False
    decide_by: str = "games"

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "double_over_100": self.double_over_100,
            "rotate_trump": self.rotate_trump,
            "decide_by": self.decide_by,
        }


@dataclass(frozen=True)
class MatchRecord:
    """A match: its rules, players, the first leader of game one, and its games in order."""

    rules: Rules
    players: tuple[str, ...]
    first: int
    match: MatchRules = field(default_factory=MatchRules)
    games: tuple[GameRecord, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchRecord:
        validate(data, "match")
        rules = rules_for(data["rules"])
        return cls(
            rules,
            _players(rules, data["players"]),
            _first(rules, data["first"]),
            MatchRules(**data.get("match", {})),
            tuple(GameRecord._parse(game) for game in data["games"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": MATCH_FORMAT,
            "rules": self.rules.to_spec(),
            "players": list(self.players),
            "first": self.first,
            "match": self.match.to_dict(),
            "games": [game.to_dict() for game in self.games],
        }


def record_from_dict(data: object) -> GameRecord | MatchRecord:
    """A game or match record, chosen by its ``format``."""
    kind = data.get("format") if isinstance(data, Mapping) else None
    if kind == GAME_FORMAT:
        return GameRecord.from_dict(data)  # type: ignore[arg-type]
    if kind == MATCH_FORMAT:
        return MatchRecord.from_dict(data)  # type: ignore[arg-type]
    raise MalformedInput(f"not a record: format {kind!r}, expected {GAME_FORMAT!r} or {MATCH_FORMAT!r}")


def load_record(path: str | Path) -> GameRecord | MatchRecord:
    """Read a record file; raises MissingResource if absent, MalformedInput for a bad one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise MalformedInput(f"{path}: not JSON: {error}") from None
    except FileNotFoundError:
        raise MissingResource(f"no record file at {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedInput(f"{path}: cannot read: {error}") from None
    return record_from_dict(data)
