"""Short test records: ``"trump 3O"``, ``"0 5C"`` (seat 0 plays 5C), ``"swap 1 7O"``, ``"void 3"``."""

from __future__ import annotations

from typing import Any

from companion.engine import GameRecord, random_game, replay

_WITH_CARDS = ("claim", "declare", "redeal", "hand")


def event(text: str) -> dict[str, Any]:
    """One event from its short form."""
    words = text.split()
    if words[0].isdigit():
        return {"type": "play", "seat": int(words[0]), "card": words[1]}
    kind, rest = words[0], words[1:]
    if kind == "trump":
        return {"type": "trump", "card": rest[0]}
    if kind == "swap":
        return {"type": "swap", "seat": int(rest[0]), "card": rest[1]}
    if kind == "arrastre":
        return {"type": "arrastre", "seat": int(rest[0])}
    if kind in _WITH_CARDS:
        return {"type": kind, "seat": int(rest[0]), "cards": rest[1:]}
    if kind == "void":
        return {"type": "void", "ref": int(rest[0])}
    if kind == "amend":
        fields = dict(word.split("=") for word in rest[1:])
        return {
            "type": "amend",
            "ref": int(rest[0]),
            **{k: int(v) if k == "seat" else v for k, v in fields.items()},
        }
    raise ValueError(f"unknown short event {text!r}")


def record_dict(rules: Any, events: str, first: int = 0, players: list[str] | None = None) -> dict[str, Any]:
    """A record dict from events separated by ``;``."""
    seats = GameRecord.create(rules).rules.players
    return {
        "format": "brisca-record/1",
        "rules": rules,
        "players": players or [f"P{k}" for k in range(seats)],
        "first": first,
        "events": [event(part) for part in events.split(";") if part.strip()],
    }


def record(rules: Any, events: str, first: int = 0) -> GameRecord:
    """A parsed (and schema-checked) record from short events."""
    return GameRecord.from_dict(record_dict(rules, events, first))


def find_game(rules: Any, wanted: Any, seeds: int = 2000) -> GameRecord:
    """The first seeded random game whose final state satisfies ``wanted``."""
    for seed in range(seeds):
        game = random_game(rules, seed)
        if wanted(replay(game)):
            return game
    raise LookupError(f"no game among {seeds} seeds of {rules} satisfies the test's condition")


def upto_trick(game: GameRecord, tricks: int) -> GameRecord:
    """The game's record cut right after its ``tricks``-th trick is complete."""
    for end in range(len(game.events) + 1):
        if len(replay(GameRecord(game.rules, game.players, game.first, game.events[:end])).tricks) == tricks:
            return GameRecord(game.rules, game.players, game.first, game.events[:end])
    raise LookupError(f"the game has fewer than {tricks} tricks")
