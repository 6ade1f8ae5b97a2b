"""Chilean brisca with an auction (remate) for three: 32 cards, ten each, two in a talon.

Seats bid points in turn from the first, from 100 up in tens, or pass; the last bidder
left takes the talon into hand (``talon``, shown to all), puts two cards into their
scoring pile (``discard``) and names the trump suit (``call`` with a suit). Whoever holds
caballo and rey of trumps may show them (``declare``) for 40 points; the last trick is
worth 10 more: 170 points in all. A bidder who reaches the bid scores it, otherwise the
other two share it. There are no partners.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from companion.cards import Card, Rank, Suit
from companion.engine.events import Event
from companion.engine.families.bidding import Bid
from companion.engine.families.contract import Contract, remate_scores
from companion.engine.families.family import BiddingFamily, Handler
from companion.engine.rules import Rules

if TYPE_CHECKING:
    from companion.engine.table import Table

#: The lowest bid, the step between bids and the highest bid (every point there is).
OPENING_BID: Final = 100
BID_STEP: Final = 10
MAX_BID: Final = 170
#: Caballo and rey of trumps shown together, and the last trick.
DECLARATION: Final = 40
LAST_TRICK: Final = 10


def declaration_cards(trump: Suit) -> frozenset[Card]:
    """Caballo and rey of trumps: the pair worth 40."""
    return frozenset({Card(Rank.CABALLO, trump), Card(Rank.REY, trump)})


class Remate(BiddingFamily):
    """The remate family: auction, talon, discards, named trumps, the 40 and the last trick."""

    name = "remate"

    def __init__(self, rules: Rules, first: int) -> None:
        super().__init__(rules, first)
        self.talon: tuple[Card, ...] = ()
        self.discards: tuple[Card, ...] = ()
        self.named = False
        self.declared: int | None = None
        self.last_trick: int | None = None

    def extra_handlers(self) -> Mapping[str, Handler]:
        return {"talon": self._talon, "discard": self._discard, "call": self._call, "declare": self._declare}

    def bid_problem(self, bid: Bid) -> str | None:
        if bid.rank is not None or bid.points is None:
            return "a remate bid is a number of points"
        if bid.points < OPENING_BID or bid.points > MAX_BID or bid.points % BID_STEP:
            return f"bids run from {OPENING_BID} to {MAX_BID} in steps of {BID_STEP}"
        best = self.auction.best
        if best is not None and bid.points <= best.points:  # type: ignore[operator]
            return f"it does not outbid {best} (seat {best.seat})"
        return None

    def _bidder_problem(self, event: Event, what: str) -> str | None:
        winner = self.auction.winner
        if not self.auction.closed:
            return f"{what} before the bidding ended"
        if event.seat is not None and event.seat != winner:
            return f"seat {event.seat}: {what}, but seat {winner} won the bidding"
        return None

    def _talon(self, table: Table, index: int, event: Event) -> None:
        cards, bidder = event.cards or (), self.auction.winner
        problem = self._bidder_problem(event, "the talon taken")
        if problem is None and self.talon:
            problem = f"the talon was already taken: {' '.join(map(str, self.talon))}"
        if problem is None and len(set(cards)) != self.rules.talon:
            problem = f"the talon holds {self.rules.talon} cards, not {len(set(cards))}"
        if problem is None and bidder is not None:
            problem = self.card_problem(table, bidder, cards)
        if problem is not None or bidder is None:
            table.issue(index, "bad-talon", problem or "nobody bid")
            return
        self.talon = cards
        self.show(table, bidder, cards)

    def _discard(self, table: Table, index: int, event: Event) -> None:
        cards, bidder = event.cards or (), self.auction.winner
        problem = self._bidder_problem(event, "cards discarded")
        if problem is None and not self.talon:
            problem = "cards discarded before the talon was taken"
        if problem is None and self.discards:
            problem = f"the bidder already discarded {' '.join(map(str, self.discards))}"
        if problem is None and len(set(cards)) != self.rules.talon:
            problem = f"the bidder discards {self.rules.talon} cards, not {len(set(cards))}"
        if problem is None and (table.plays or table.tricks):
            problem = "cards discarded after play began"
        if problem is None and bidder is not None:
            problem = self.card_problem(table, bidder, cards)
        if problem is not None or bidder is None:
            table.issue(index, "bad-discard", problem or "nobody bid")
            return
        self.discards = cards
        table.points[bidder] += sum(card.points for card in cards)
        table.cards_won[bidder] += len(cards)
        table.set_aside(bidder, cards)

    def _call(self, table: Table, index: int, event: Event) -> None:
        problem = self._bidder_problem(event, "trumps named")
        if problem is None and self.named:
            problem = f"trumps were already named: {table.trump_suit}"
        if problem is None and (event.suit is None or event.card is not None):
            problem = "the bidder names a suit, not a card"
        if problem is None and (table.plays or table.tricks):
            problem = "trumps named after play began"
        if problem is not None:
            table.issue(index, "bad-call", problem)
            return
        self.named, table.trump_suit = True, event.suit

    def _declare(self, table: Table, index: int, event: Event) -> None:
        seat, cards, trump = event.seat, frozenset(event.cards or ()), table.trump_suit
        assert seat is not None
        shown = " ".join(sorted(map(str, cards)))
        problem = None
        if trump is None or not self.named:
            problem = f"seat {seat} showed {shown} before trumps were named"
        elif self.declared is not None:
            problem = f"seat {self.declared} already declared the 40"
        elif cards != declaration_cards(trump):
            problem = f"seat {seat} showed {shown}: the 40 is caballo and rey of trumps ({trump})"
        else:
            problem = self.card_problem(table, seat, tuple(cards))
        if problem is not None:
            table.issue(index, "bad-declare", problem)
            return
        self.declared = seat
        table.points[seat] += DECLARATION
        self.show(table, seat, tuple(cards))

    def observe(self, table: Table, index: int, event: Event) -> None:
        if event.type == "play" and len(table.tricks) == self.rules.tricks and self.last_trick is None:
            self.last_trick = table.tricks[-1].winner
            table.points[self.last_trick] += LAST_TRICK

    def waiting_for(self, table: Table) -> tuple[str, str] | None:
        if not self.auction.closed:
            return "bidding", "the bidding ended"
        if not self.talon:
            return "no-talon", "the bidder took the talon"
        if not self.discards:
            return "no-discard", "the bidder discarded two cards"
        if not self.named:
            return "no-call", "the bidder named the trump suit"
        return None

    def total_points(self) -> int:
        return 120 + LAST_TRICK + (DECLARATION if self.declared is not None else 0)

    def contract(self, table: Table) -> Contract:
        bidder, best = self.auction.winner, self.auction.best
        target = best.points if best is not None else None
        side_points = table.points[bidder] if bidder is not None else 0
        over = table.complete and table.ended_by is None and bidder is not None and target is not None
        made = side_points >= target if over and target is not None else None
        return Contract(
            family=self.name,
            speeches=tuple(self.auction.speeches),
            declarer=bidder,
            bid=best,
            target=target,
            side=(bidder,) if bidder is not None else (),
            side_points=side_points,
            made=made,
            scores=remate_scores(self.rules.seats, bidder, target, made)
            if made is not None and bidder is not None and target is not None
            else (),
            talon=self.talon,
            discards=self.discards,
            declared=self.declared,
            last_trick=self.last_trick,
        )
