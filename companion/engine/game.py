"""The live game: actions that check the rules, append events and never rewrite the log.

Each action comes in three forms, as in pokerkit: ``check_play`` raises
:class:`~companion.errors.IllegalAction` with the reason, ``can_play`` answers
yes or no, ``play`` appends the event and returns it.

>>> game = Game("brisca-2", ["Ana", "Luis"])
>>> game.turn_trump("3O").to_dict()
{'type': 'trump', 'card': '3O'}
>>> game.can_play(1, "5C")
False
>>> game.play(0, "5C").to_dict()
{'type': 'play', 'seat': 0, 'card': '5C'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from companion.cards import Card
from companion.engine.events import Event
from companion.engine.families.actions import BiddingActions
from companion.engine.record import GameRecord
from companion.engine.replay import replay
from companion.engine.rules import Rules
from companion.engine.state import GameState
from companion.errors import IllegalAction, MalformedInput

CardLike = Card | str


def _card(card: CardLike) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _cards(cards: Iterable[CardLike]) -> tuple[Card, ...]:
    return tuple(_card(card) for card in cards)


class Game(BiddingActions):
    """A game in progress: an append-only record and the state it replays to."""

    def __init__(
        self,
        rules: Rules | str | Mapping[str, Any],
        players: Sequence[str] | None = None,
        first: int = 0,
        *,
        record: GameRecord | None = None,
    ) -> None:
        self._record = record or GameRecord.create(rules, players, first)
        self._state: GameState | None = None

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """Continue a stored game."""
        return cls(record.rules, record=record)

    @property
    def record(self) -> GameRecord:
        return self._record

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = replay(self._record)
        return self._state

    # -- the generic forms every action uses -------------------------------------------

    def check(self, event: Event, ignore: Collection[str] = ()) -> None:
        """Raise IllegalAction if ``event`` would break the rules now (issues whose code is in
        ``ignore`` aside)."""
        index = len(self._record.events)
        problems = [
            issue.message
            for issue in replay(self._record.append(event)).issues
            if issue.event == index and issue.code not in ignore
        ]
        if problems:
            raise IllegalAction(f"{event.type} {event.to_dict()} refused: {'; '.join(problems)}")

    def can(self, event: Event) -> bool:
        try:
            self.check(event)
        except IllegalAction:
            return False
        return True

    def apply(self, event: Event, *, check: bool = True, ignore: Collection[str] = ()) -> Event:
        """Append ``event`` (checked first unless ``check`` is false, ``ignore`` as for
        :meth:`check`) and return it."""
        if check:
            self.check(event, ignore)
        self._record = self._record.append(event)
        self._state = None
        return event

    # -- named actions -------------------------------------------------------------------

    def check_turn_trump(self, card: CardLike) -> None:
        self.check(Event("trump", card=_card(card)))

    def can_turn_trump(self, card: CardLike) -> bool:
        return self.can(Event("trump", card=_card(card)))

    def turn_trump(self, card: CardLike) -> Event:
        return self.apply(Event("trump", card=_card(card)))

    def check_play(self, seat: int, card: CardLike) -> None:
        self.check(Event("play", seat=seat, card=_card(card)))

    def can_play(self, seat: int, card: CardLike) -> bool:
        return self.can(Event("play", seat=seat, card=_card(card)))

    def play(self, seat: int, card: CardLike) -> Event:
        return self.apply(Event("play", seat=seat, card=_card(card)))

    def check_swap(self, seat: int, card: CardLike) -> None:
        self.check(Event("swap", seat=seat, card=_card(card)))

    def can_swap(self, seat: int, card: CardLike) -> bool:
        return self.can(Event("swap", seat=seat, card=_card(card)))

    def swap(self, seat: int, card: CardLike) -> Event:
        return self.apply(Event("swap", seat=seat, card=_card(card)))

    def check_arrastre(self, seat: int) -> None:
        self.check(Event("arrastre", seat=seat))

    def can_arrastre(self, seat: int) -> bool:
        return self.can(Event("arrastre", seat=seat))

    def arrastre(self, seat: int) -> Event:
        return self.apply(Event("arrastre", seat=seat))

    def check_claim(self, seat: int, cards: Iterable[CardLike]) -> None:
        self.check(Event("claim", seat=seat, cards=_cards(cards)))

    def can_claim(self, seat: int, cards: Iterable[CardLike]) -> bool:
        return self.can(Event("claim", seat=seat, cards=_cards(cards)))

    def claim(self, seat: int, cards: Iterable[CardLike]) -> Event:
        return self.apply(Event("claim", seat=seat, cards=_cards(cards)))

    def check_declare(self, seat: int, cards: Iterable[CardLike]) -> None:
        self.check(Event("declare", seat=seat, cards=_cards(cards)))

    def can_declare(self, seat: int, cards: Iterable[CardLike]) -> bool:
        return self.can(Event("declare", seat=seat, cards=_cards(cards)))

    def declare(self, seat: int, cards: Iterable[CardLike]) -> Event:
        return self.apply(Event("declare", seat=seat, cards=_cards(cards)))

    def check_redeal(self, seat: int, cards: Iterable[CardLike]) -> None:
        self.check(Event("redeal", seat=seat, cards=_cards(cards)))

    def can_redeal(self, seat: int, cards: Iterable[CardLike]) -> bool:
        return self.can(Event("redeal", seat=seat, cards=_cards(cards)))

    def redeal(self, seat: int, cards: Iterable[CardLike]) -> Event:
        return self.apply(Event("redeal", seat=seat, cards=_cards(cards)))

    def check_show_hand(self, seat: int, cards: Iterable[CardLike]) -> None:
        self.check(Event("hand", seat=seat, cards=_cards(cards)))

    def can_show_hand(self, seat: int, cards: Iterable[CardLike]) -> bool:
        return self.can(Event("hand", seat=seat, cards=_cards(cards)))

    def show_hand(self, seat: int, cards: Iterable[CardLike]) -> Event:
        return self.apply(Event("hand", seat=seat, cards=_cards(cards)))

    # -- corrections: refused only when they name no event they can correct ---------------

    def amend(self, ref: int, **fields: Any) -> Event:
        """Correct event ``ref``: ``amend(3, card="5C")``; the log keeps both."""
        amendable = {field.name for field in dataclasses.fields(Event)} - {"type", "ref"}
        unknown = set(fields) - amendable
        if unknown:
            raise MalformedInput(f"an amendment changes the fields of an event, not {sorted(unknown)}")
        if "card" in fields:
            fields["card"] = _card(fields["card"])
        if "cards" in fields:
            fields["cards"] = _cards(fields["cards"])
        return self.apply(Event("amend", ref=ref, source="operator", **fields))

    def void(self, ref: int) -> Event:
        """Cancel event ``ref``; the log keeps both."""
        return self.apply(Event("void", ref=ref, source="operator"))

    def undo(self) -> Event:
        """Void the latest action or amendment not yet voided."""
        events = self._record.events
        voided = {event.ref for event in events if event.type == "void"}
        live = [index for index, event in enumerate(events) if event.type != "void" and index not in voided]
        if not live:
            raise IllegalAction("nothing to undo: no event is in effect")
        return self.void(live[-1])
