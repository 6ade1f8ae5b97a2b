"""The settled contract of a bidding game: who bid what, with whom, and what each seat scores.

>>> multiplier(62), multiplier(71), multiplier(85)
(1, 2, 3)
>>> call_scores(5, caller=0, partner=3, made=True, times=1)
(2, -1, -1, 1, -1)
>>> call_scores(5, caller=0, partner=0, made=False, times=2)
(-8, 2, 2, 2, 2)
>>> remate_scores(3, bidder=1, bid=120, made=False)
(60, 0, 60)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.cards import Card
from companion.engine.families.bidding import BASE_TARGET, Bid, Speech


def multiplier(target: int) -> int:
    """Stakes of a chiamata contract: single up to 70 points, double from 71, triple from 81..."""
    return 1 + max(0, target - BASE_TARGET) // 10


def call_scores(seats: int, caller: int, partner: int | None, made: bool, times: int) -> tuple[int, ...]:
    """Chiamata scores: caller 2, partner 1, each opponent 1 the other way; alone, the caller 4.

    ``partner`` is None or the caller for a solo or a caller who held the called card.
    """
    sign = times if made else -times
    alone = partner is None or partner == caller
    return tuple(
        sign * (4 if alone else 2) if seat == caller else sign if seat == partner else -sign
        for seat in range(seats)
    )


def remate_scores(seats: int, bidder: int, bid: int, made: bool) -> tuple[int, ...]:
    """Remate scores: the bid to the bidder who reached it, else half the bid to each other seat."""
    if made:
        return tuple(bid if seat == bidder else 0 for seat in range(seats))
    share = bid // (seats - 1)
    return tuple(0 if seat == bidder else share for seat in range(seats))


@dataclass(frozen=True, slots=True)
class Contract:
    """What the bidding settled and how it ended; ``made`` and ``scores`` are set once the game is over.

    ``declarer`` won the bidding (caller, soloist or remate bidder; None when everyone
    passed); ``side`` lists the seats known to play with them; ``revealed`` is the
    index of the event that showed the partner.
    """

    family: str
    speeches: tuple[Speech, ...]
    declarer: int | None
    bid: Bid | None
    solo: bool = False
    target: int | None = None
    multiplier: int = 1
    called: Card | None = None
    partner: int | None = None
    revealed: int | None = None
    side: tuple[int, ...] = ()
    side_points: int = 0
    made: bool | None = None
    scores: tuple[int, ...] = ()
    talon: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    declared: int | None = None
    last_trick: int | None = None

    def winners(self, seats: int) -> tuple[int, ...]:
        """The seats that won the game: the declarer's side when the contract was made, else the rest."""
        if self.made is None:
            return ()
        return self.side if self.made else tuple(seat for seat in range(seats) if seat not in self.side)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form that ``companion score`` prints under ``contract``."""
        return {
            "family": self.family,
            "bidding": [speech.to_dict() for speech in self.speeches],
            "declarer": self.declarer,
            "solo": self.solo,
            "bid": str(self.bid) if self.bid is not None else None,
            "target": self.target,
            "multiplier": self.multiplier,
            "called": str(self.called) if self.called is not None else None,
            "partner": self.partner,
            "revealed": self.revealed,
            "side": list(self.side),
            "side_points": self.side_points,
            "made": self.made,
            "scores": list(self.scores),
            "talon": [str(card) for card in self.talon],
            "discards": [str(card) for card in self.discards],
            "declared": self.declared,
            "last_trick": self.last_trick,
        }
