"""What a bidding family adds to a replay: its events, when play may start, its contract.

The replay's :class:`~companion.engine.table.Table` holds one family object per deal
(:func:`family_for`); it passes the events the family handles to it, asks it whether
play may start, tells it about every event applied, and asks it for the contract and
its final checks when the game is frozen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from companion.cards import Card
from companion.engine.events import Event
from companion.engine.families.bidding import Auction, Bid
from companion.engine.families.contract import Contract
from companion.engine.rules import Rules
from companion.engine.state import Issue

if TYPE_CHECKING:
    from companion.engine.table import Table

Handler = Callable[["Table", int, Event], None]


class BiddingFamily:
    """The auction every bidding family shares; subclasses say which bids are good and settle."""

    name = ""

    def __init__(self, rules: Rules, first: int) -> None:
        self.rules = rules
        self.auction = Auction(rules.seats, first)
        self.handlers: Mapping[str, Handler] = {
            "bid": self._bid,
            "pass": self._pass,
            "trump": self._trump,
            **self.extra_handlers(),
        }

    # -- what subclasses define ------------------------------------------------------------

    def extra_handlers(self) -> Mapping[str, Handler]:
        """The family's own events beyond ``bid`` and ``pass``."""
        return {}

    def bid_problem(self, bid: Bid) -> str | None:
        """Why ``bid`` is not a good bid now (None when it is)."""
        raise NotImplementedError

    def waiting_for(self, table: Table) -> tuple[str, str] | None:
        """What must happen before the next card is played, as ``(code, what)``; None when play is open."""
        raise NotImplementedError

    def observe(self, table: Table, index: int, event: Event) -> None:
        """Called after every event the table applied."""

    def total_points(self) -> int:
        """The points a complete game hands out."""
        return 120

    def end_issues(self, table: Table) -> list[Issue]:
        """Inconsistencies that only the whole game can show."""
        return []

    def contract(self, table: Table) -> Contract:
        raise NotImplementedError

    # -- the shared auction -----------------------------------------------------------------

    def bidding_open(self) -> tuple[str, str] | None:
        return None if self.auction.closed else ("bidding", "the bidding ended")

    def speaks(self, table: Table, index: int, event: Event) -> bool:
        """Report a problem with the turn; whether the speech still counts (out of turn, it does)."""
        assert event.seat is not None
        problem = self.auction.turn_problem(event.seat, event.type)
        if problem is not None:
            table.issue(index, *problem)
        return problem is None or problem[0] == "bid-out-of-turn"

    def _bid(self, table: Table, index: int, event: Event) -> None:
        assert event.seat is not None
        if not self.speaks(table, index, event):
            return
        bid = Bid(event.seat, event.rank, event.points)
        problem = self.bid_problem(bid)
        if problem is not None:
            table.issue(index, "bad-bid", f"seat {event.seat} bid {bid or 'nothing'}: {problem}")
            return
        self.auction.bid(bid)
        self.after_speech(table)

    def _pass(self, table: Table, index: int, event: Event) -> None:
        assert event.seat is not None
        if self.speaks(table, index, event):
            self.auction.pass_(event.seat)
            self.after_speech(table)

    def after_speech(self, table: Table) -> None:
        if self.auction.closed and self.auction.winner is None:
            table.ended_by = "all-passed"

    def _trump(self, table: Table, index: int, event: Event) -> None:
        table.issue(
            index,
            "no-trump-card",
            f"{event.card} turned up, but in {self.rules.name} the trump suit is called",
        )

    def show(self, table: Table, seat: int, cards: tuple[Card, ...]) -> None:
        """Everyone saw ``cards`` go into (or lie in) the hand of ``seat``."""
        for card in cards:
            table.receive(seat, card)
        table.shown.update(cards)

    def card_problem(self, table: Table, seat: int, cards: tuple[Card, ...]) -> str | None:
        """The first reason why ``seat`` cannot be holding ``cards``."""
        return next((problem for card in cards if (problem := table.card_problem(seat, card))), None)
