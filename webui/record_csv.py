"""A game record as CSV, one row per event for a spreadsheet, and back into the same record.

The first row after the column names holds the record's header (``type`` ``game``, and the
rules, players and first seat as JSON under ``record``), so a downloaded CSV imports back whole.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from companion.engine import GameRecord
from companion.errors import MalformedInput

COLUMNS = (
    "seq", "type", "seat", "player", "card", "cards", "ref", "rank", "points", "suit",
    "t", "source", "confidence", "record",
)  # fmt: skip
HEADER_ROW = "game"
PARSERS: dict[str, Callable[[str], Any]] = {
    "seat": int, "ref": int, "rank": int, "points": int, "t": float, "confidence": float,
    "cards": str.split, "card": str, "suit": str, "source": str,
}  # fmt: skip


def record_to_csv(record: GameRecord) -> str:
    """The header row, then the events, with the player's name beside the seat."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    header = {key: value for key, value in record.to_dict().items() if key != "events"}
    writer.writerow({"type": HEADER_ROW, "record": json.dumps(header, ensure_ascii=False)})
    players = list(record.players)
    for seq, event in enumerate(record.events):
        row: dict[str, Any] = {"seq": seq, **event.to_dict()}
        if "cards" in row:
            row["cards"] = " ".join(row["cards"])
        if event.seat is not None:
            row["player"] = players[event.seat % len(players)]
        writer.writerow(row)
    return out.getvalue()


def record_from_csv(text: str) -> GameRecord:
    """Read what :func:`record_to_csv` wrote (rows may have been edited); checked by the engine."""
    try:
        rows = list(csv.DictReader(io.StringIO(text)))
    except csv.Error as error:
        raise MalformedInput(f"not a readable CSV record: {error}") from None
    if not rows or rows[0].get("type") != HEADER_ROW:
        raise MalformedInput(f"a record CSV starts with its {HEADER_ROW!r} row (rules, players), none found")
    try:
        header = json.loads(rows[0].get("record") or "")
    except json.JSONDecodeError as error:
        raise MalformedInput(f"the {HEADER_ROW!r} row's record is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise MalformedInput(f"the {HEADER_ROW!r} row's record must be an object, got {header!r}")
    events = [_event(row, seq) for seq, row in enumerate(rows[1:])]
    return GameRecord.from_dict({**header, "events": events})


def _event(row: dict[str, str | None], seq: int) -> dict[str, Any]:
    """One event row as the record's JSON form; the ``player`` column is for people and is not read."""
    if (row.get("seq") or "").strip() != str(seq):
        found = row.get("seq")
        raise MalformedInput(f"event row {seq + 1} has seq {found!r}, expected {seq}: keep the rows in order")
    event: dict[str, Any] = {"type": (row.get("type") or "").strip()}
    for key, parse in PARSERS.items():
        cell = (row.get(key) or "").strip()
        if cell:
            try:
                event[key] = parse(cell)
            except ValueError:
                raise MalformedInput(f"event {seq}: {key} {cell!r} is not a number") from None
    return event
