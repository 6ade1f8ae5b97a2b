"""Frozen game events and their JSON form.

One event type per thing that happens at the table; corrections (``amend``,
``void``) are events too and refer to an earlier event by its index:

>>> event_from_dict({"type": "play", "seat": 1, "card": "7o"}).to_dict()
{'type': 'play', 'seat': 1, 'card': '7O'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion.cards import Card, Rank, Suit
from companion.errors import MalformedInput

#: Event types and the fields each one needs (``t``, ``source``, ``confidence`` are always optional).
EVENT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "trump": ("card",),
    "play": ("seat", "card"),
    "swap": ("seat", "card"),
    "arrastre": ("seat",),
    "claim": ("seat", "cards"),
    "declare": ("seat", "cards"),
    "redeal": ("seat", "cards"),
    "hand": ("seat", "cards"),
    "bid": ("seat",),
    "pass": ("seat",),
    "solo": ("seat",),
    "call": ("seat",),
    "reveal": ("seat", "card"),
    "talon": ("cards",),
    "discard": ("seat", "cards"),
    "amend": ("ref",),
    "void": ("ref",),
}
CORRECTIONS: Final = frozenset({"amend", "void"})
SOURCES: Final = ("camera", "operator")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table, or a correction of an earlier event."""

    type: str
    seat: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] | None = None
    ref: int | None = None
    t: float | None = None
    source: str | None = None
    confidence: float | None = None
    rank: Rank | None = None
    points: int | None = None
    suit: Suit | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: only the fields the event has, cards in canonical notation."""
        out: dict[str, Any] = {"type": self.type}
        if self.ref is not None:
            out["ref"] = self.ref
        if self.seat is not None:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = str(self.card)
        if self.cards is not None:
            out["cards"] = [str(card) for card in self.cards]
        if self.rank is not None:
            out["rank"] = int(self.rank)
        if self.points is not None:
            out["points"] = self.points
        if self.suit is not None:
            out["suit"] = str(self.suit)
        for key in ("t", "source", "confidence"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def _int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        raise MalformedInput(f"event field {key!r} must be a non-negative integer, not {value!r}")
    return value


def _rank(data: Mapping[str, Any]) -> Rank | None:
    value = data.get("rank")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
        raise MalformedInput(f"event field 'rank' must be a rank 1-12, not {value!r}")
    return Rank(value)


def _number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise MalformedInput(f"event field {key!r} must be a number, not {value!r}")
    return value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Parse one event; raises :class:`MalformedInput` naming the bad field and value."""
    if not isinstance(data, Mapping):
        raise MalformedInput(f"an event must be an object, not {data!r}")
    kind = data.get("type")
    if kind not in EVENT_FIELDS:
        raise MalformedInput(f"unknown event type {kind!r}: types are {', '.join(EVENT_FIELDS)}")
    required = EVENT_FIELDS[kind]
    if kind != "amend":
        missing = [key for key in required if key not in data]
        if missing:
            raise MalformedInput(f"{kind} event {dict(data)!r} lacks {', '.join(missing)}")
    cards = data.get("cards")
    if cards is not None and not isinstance(cards, list):
        raise MalformedInput(f"event field 'cards' must be a list of cards, not {cards!r}")
    source = data.get("source")
    if source is not None and source not in SOURCES:
        raise MalformedInput(f"event source {source!r}: expected one of {', '.join(SOURCES)}")
    return Event(
        type=kind,
        seat=_int(data, "seat"),
        card=Card.parse(data["card"]) if data.get("card") is not None else None,
        cards=tuple(Card.parse(card) for card in cards) if cards is not None else None,
        ref=_int(data, "ref"),
        t=_number(data, "t"),
        source=source,
        confidence=_number(data, "confidence"),
        rank=_rank(data),
        points=_int(data, "points"),
        suit=Suit.parse(str(data["suit"])) if data.get("suit") is not None else None,
    )
