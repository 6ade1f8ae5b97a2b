"""The live game's actions for the bidding families, in the three forms of every action.

``check_bid`` raises :class:`~companion.errors.IllegalAction` with the reason, ``can_bid``
answers yes or no, ``bid`` appends the event and returns it; likewise ``pass_bid``, ``solo``,
``call``, ``reveal``, ``take_talon`` and ``discard``. :class:`~companion.engine.game.Game`
offers them; ``declare`` (the 40 of remate) is the game's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.cards import Card, Rank, Suit
from companion.engine.events import Event
from companion.errors import MalformedInput


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def bid_event(seat: int, rank: int | None = None, points: int | None = None) -> Event:
    """A bid: a rank to call, a points target, or both."""
    if rank is not None and rank not in set(Rank):
        raise MalformedInput(f"a bid names a rank 1-12, not {rank!r}")
    return Event("bid", seat=seat, rank=Rank(rank) if rank is not None else None, points=points)


def call_event(seat: int, card: Card | str | None = None, suit: Suit | str | None = None) -> Event:
    """A call: the called card (chiamata), a trump suit (remate), or both (chiamata a punti)."""
    named = suit if isinstance(suit, Suit) or suit is None else Suit.parse(suit)
    return Event("call", seat=seat, card=_card(card) if card is not None else None, suit=named)


def cards_event(kind: str, seat: int, cards: Iterable[Card | str]) -> Event:
    """A ``talon`` or ``discard`` event."""
    return Event(kind, seat=seat, cards=tuple(map(_card, cards)))


class BiddingActions:
    """Check, ask and act for the bidding events; the game supplies ``check``, ``can`` and ``apply``."""

    def check(self, event: Event) -> None:
        raise NotImplementedError

    def can(self, event: Event) -> bool:
        raise NotImplementedError

    def apply(self, event: Event, *, check: bool = True) -> Event:
        raise NotImplementedError

    def check_bid(self, seat: int, rank: int | None = None, points: int | None = None) -> None:
        self.check(bid_event(seat, rank, points))

    def can_bid(self, seat: int, rank: int | None = None, points: int | None = None) -> bool:
        return self.can(bid_event(seat, rank, points))

    def bid(self, seat: int, rank: int | None = None, points: int | None = None) -> Event:
        return self.apply(bid_event(seat, rank, points))

    def check_pass_bid(self, seat: int) -> None:
        self.check(Event("pass", seat=seat))

    def can_pass_bid(self, seat: int) -> bool:
        return self.can(Event("pass", seat=seat))

    def pass_bid(self, seat: int) -> Event:
        return self.apply(Event("pass", seat=seat))

    def check_solo(self, seat: int) -> None:
        self.check(Event("solo", seat=seat))

    def can_solo(self, seat: int) -> bool:
        return self.can(Event("solo", seat=seat))

    def solo(self, seat: int) -> Event:
        return self.apply(Event("solo", seat=seat))

    def check_call(self, seat: int, card: Card | str | None = None, suit: Suit | str | None = None) -> None:
        self.check(call_event(seat, card, suit))

    def can_call(self, seat: int, card: Card | str | None = None, suit: Suit | str | None = None) -> bool:
        return self.can(call_event(seat, card, suit))

    def call(self, seat: int, card: Card | str | None = None, suit: Suit | str | None = None) -> Event:
        return self.apply(call_event(seat, card, suit))

    def check_reveal(self, seat: int, card: Card | str) -> None:
        self.check(Event("reveal", seat=seat, card=_card(card)))

    def can_reveal(self, seat: int, card: Card | str) -> bool:
        return self.can(Event("reveal", seat=seat, card=_card(card)))

    def reveal(self, seat: int, card: Card | str) -> Event:
        return self.apply(Event("reveal", seat=seat, card=_card(card)))

    def check_take_talon(self, seat: int, cards: Iterable[Card | str]) -> None:
        self.check(cards_event("talon", seat, cards))

    def can_take_talon(self, seat: int, cards: Iterable[Card | str]) -> bool:
        return self.can(cards_event("talon", seat, cards))

    def take_talon(self, seat: int, cards: Iterable[Card | str]) -> Event:
        return self.apply(cards_event("talon", seat, cards))

    def check_discard(self, seat: int, cards: Iterable[Card | str]) -> None:
        self.check(cards_event("discard", seat, cards))

    def can_discard(self, seat: int, cards: Iterable[Card | str]) -> bool:
        return self.can(cards_event("discard", seat, cards))

    def discard(self, seat: int, cards: Iterable[Card | str]) -> Event:
        return self.apply(cards_event("discard", seat, cards))
