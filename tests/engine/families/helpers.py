"""Short records for the bidding families.

On top of :mod:`tests.engine.helpers`: ``"bid 0 3"`` (seat 0 bids the 3), ``"bid 0 2@65"`` (the 2
at 65), ``"bid 0 @110"`` (a points target), ``"pass 1"``, ``"solo 2"``, ``"call 0 3O"``,
``"call 0 3O/E"`` (card and another trump suit), ``"call 0 /O"`` (a suit only), ``"reveal 2 3O"``,
``"talon 1 1O 5C"``, ``"discard 1 3E 6B"``.
"""

from __future__ import annotations

from typing import Any

from companion.cards import Card
from companion.engine import Event, Game, GameRecord, replay
from companion.engine.events import event_from_dict
from companion.engine.state import GameState

from .. import helpers


def event(text: str) -> dict[str, Any]:
    kind, seat, *rest = text.split()
    if kind == "bid":
        rank, _, points = rest[0].partition("@")
        return (
            {"type": "bid", "seat": int(seat)}
            | ({"rank": int(rank)} if rank else {})
            | ({"points": int(points)} if points else {})
        )
    if kind in ("pass", "solo"):
        return {"type": kind, "seat": int(seat)}
    if kind == "call":
        card, _, suit = rest[0].partition("/")
        return (
            {"type": "call", "seat": int(seat)}
            | ({"card": card} if card else {})
            | ({"suit": suit} if suit else {})
        )
    if kind == "reveal":
        return {"type": "reveal", "seat": int(seat), "card": rest[0]}
    if kind in ("talon", "discard"):
        return {"type": kind, "seat": int(seat), "cards": rest}
    return helpers.event(text)


def record(rules: Any, events: str, first: int = 0) -> GameRecord:
    """A parsed (and schema-checked) record from short events separated by ``;``."""
    players = GameRecord.create(rules).players
    return GameRecord.from_dict(
        {
            "format": "brisca-record/1",
            "rules": rules,
            "players": list(players),
            "first": first,
            "events": [event(part.strip()) for part in events.split(";") if part.strip()],
        }
    )


def state(rules: Any, events: str, first: int = 0) -> GameState:
    return replay(record(rules, events, first))


def codes(game: GameState) -> list[tuple[int | None, str]]:
    return [(issue.event, issue.code) for issue in game.issues]


def play_out(rules: Any, prefix: str, hands: list[str], first: int = 0) -> GameState:
    """Apply the short events of ``prefix``, then each seat plays its next card of ``hands`` in its turn."""
    game = Game(rules, first=first)
    for text in prefix.split(";"):
        game.apply(event_from_dict(event(text.strip())), check=False)
    while (seat := game.state.to_play) is not None:
        card = next(c for c in map(Card.parse, hands[seat].split()) if c not in game.state.played)
        game.apply(Event("play", seat=seat, card=card), check=False)
    return game.state
