"""Briscola a chiamata for five: bid a rank, call a card, play with its hidden holder.

Every card is dealt (eight each), no trump card is turned up. Seats bid in turn from
the first: a rank to call (a lower rank outbids a higher one, the 2 outbids every rank),
then, once the 2 is called, only higher points targets: the 2 again, or an obligated call
of the lowest card the bidder does not hold. A seat may interrupt with ``solo``. The
winner calls a card of the bid rank; its suit is trumps and its holder the hidden
partner, known when it is shown (``reveal``) or played. Options: ``buia`` (trumps named
after the first trick, which is played without them), ``a_punti`` (only targets are bid;
the called card and the trump suit are named at the start of play).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from companion.cards import Card, Rank, Suit
from companion.engine.events import Event
from companion.engine.families.bidding import BASE_TARGET, BID_ORDER, Bid
from companion.engine.families.contract import Contract, call_scores, multiplier
from companion.engine.families.family import BiddingFamily, Handler
from companion.engine.rules import Rules
from companion.engine.state import Issue

if TYPE_CHECKING:
    from companion.engine.table import Table

#: The highest target a side can bid: every point of the deck.
MAX_TARGET: Final = 120


def obligated_card(hand: frozenset[Card], suit: Suit) -> Card | None:
    """The lowest card of ``suit`` (in bidding order, the 2 first) that ``hand`` lacks."""
    return next((Card(rank, suit) for rank in reversed(BID_ORDER) if Card(rank, suit) not in hand), None)


def hand_of(table: Table, seat: int) -> frozenset[Card]:
    """The cards ``seat`` played: its whole hand once a chiamata game is over."""
    return frozenset(card for trick in table.tricks for player, card in trick.plays if player == seat)


class Chiamata(BiddingFamily):
    """The chiamata family: auction, call, hidden partner, contract."""

    name = "chiamata"

    def __init__(self, rules: Rules, first: int) -> None:
        super().__init__(rules, first)
        self.called: Card | None = None
        self.partner: int | None = None
        self.revealed: int | None = None

    def extra_handlers(self) -> Mapping[str, Handler]:
        return {"solo": self._solo, "call": self._call, "reveal": self._reveal}

    def bid_problem(self, bid: Bid) -> str | None:
        if self.rules.a_punti and (bid.rank is not None or bid.points is None):
            return "in chiamata a punti only points targets are bid"
        if not self.rules.a_punti and bid.rank is None:
            return "a bid names a rank to call"
        if bid.rank is not None and bid.rank not in BID_ORDER:
            return f"there is no {int(bid.rank)} in the 40-card deck"
        if bid.points is not None and not BASE_TARGET <= bid.points <= MAX_TARGET:
            return f"targets run from {BASE_TARGET} to {MAX_TARGET}"
        if bid.rank not in (None, Rank.DOS) and bid.points is not None and bid.points <= BASE_TARGET:
            return f"an obligated call needs a target above {BASE_TARGET}"
        best = self.auction.best
        if best is not None and bid.key <= best.key:
            return f"it does not outbid {best} (seat {best.seat})"
        return None

    def _solo(self, table: Table, index: int, event: Event) -> None:
        assert event.seat is not None
        if self.speaks(table, index, event):
            self.auction.play_solo(event.seat)

    def call_problem(self, table: Table, event: Event) -> tuple[str, str] | None:
        """Why the ``call`` event is wrong, as ``(code, message)``."""
        seat, card, auction, best = event.seat, event.card, self.auction, self.auction.best
        if not auction.closed:
            return "call-early", f"seat {seat} called before the bidding ended"
        if auction.solo:
            return "bad-call", f"seat {auction.winner} plays solo: nobody calls a card"
        if self.called is not None:
            return "call-again", f"seat {seat} called {card}, but {self.called} was already called"
        if seat != auction.winner:
            return "bad-call", f"seat {seat} called, but seat {auction.winner} won the bidding"
        if card is None or card not in table.deck:
            return "bad-call", f"seat {seat} called {card or event.suit}: a call names a card of the deck"
        if not self.rules.a_punti and best is not None and card.rank != best.rank:
            return "bad-call", f"seat {seat} called {card}, but bid {best}"
        if not self.rules.a_punti and event.suit not in (None, card.suit):
            return "bad-call", f"seat {seat} called {card}: its suit {card.suit} is trumps, not {event.suit}"
        if self.rules.buia and not table.tricks:
            return "call-early", "in chiamata buia the trump suit is named after the first trick"
        if table.plays or len(table.tricks) > (1 if self.rules.buia else 0):
            return "call-late", f"seat {seat} called {card} after play began"
        return None

    def _call(self, table: Table, index: int, event: Event) -> None:
        """Reported when wrong, yet applied whenever it can be: the trump suit is then known."""
        problem = self.call_problem(table, event)
        if problem is not None:
            table.issue(index, *problem)
        card = event.card
        if card is None or self.auction.solo or self.called is not None or not self.auction.closed:
            return
        self.called = card
        table.trump_suit = event.suit or card.suit
        holder = next((p for trick in table.tricks for p, played in trick.plays if played == card), None)
        if holder is not None:
            self.partner, self.revealed = holder, index

    def _reveal(self, table: Table, index: int, event: Event) -> None:
        seat, card = event.seat, event.card
        assert seat is not None and card is not None
        if self.called is None or card != self.called:
            table.issue(
                index, "bad-reveal", f"seat {seat} showed {card}, but the called card is {self.called}"
            )
            return
        problem = table.card_problem(seat, card)
        if problem is not None:
            table.issue(index, "bad-reveal", problem)
            return
        self.show(table, seat, (card,))
        if self.partner is None:
            self.partner, self.revealed = seat, index

    def observe(self, table: Table, index: int, event: Event) -> None:
        if event.type == "play" and event.card == self.called and self.partner is None:
            self.partner, self.revealed = event.seat, index

    def waiting_for(self, table: Table) -> tuple[str, str] | None:
        if not self.auction.closed:
            return "bidding", "the bidding ended"
        if self.auction.solo or self.called is not None or (self.rules.buia and not table.tricks):
            return None
        return "no-call", "the caller named the called card"

    def end_issues(self, table: Table) -> list[Issue]:
        best, called, caller = self.auction.best, self.called, self.auction.winner
        obligated = best is not None and best.rank not in (None, Rank.DOS) and best.points is not None
        if not obligated or called is None or caller is None or self.auction.solo or self.rules.a_punti:
            return []
        hand = hand_of(table, caller)
        if Card(Rank.DOS, called.suit) in hand and obligated_card(hand, called.suit) == called:
            return []
        return [
            Issue(
                None,
                "bad-obligated-call",
                f"seat {caller} made an obligated call of {called}, but it is not the lowest card of "
                f"{called.suit} missing from a hand that holds the 2",
            )
        ]

    def contract(self, table: Table) -> Contract:
        auction, seats = self.auction, self.rules.seats
        declarer, best = auction.winner, auction.best
        target = BASE_TARGET if auction.solo else best.target if best is not None else None
        times = multiplier(target) if target is not None and not auction.solo else 1
        partner = None if auction.solo else self.partner
        side = (
            () if declarer is None else (declarer, *((partner,) if partner not in (None, declarer) else ()))
        )
        side_points = sum(table.points[seat] for seat in side)
        over = table.complete and table.ended_by is None and declarer is not None and target is not None
        made = side_points >= target if over and target is not None else None
        return Contract(
            family=self.name,
            speeches=tuple(auction.speeches),
            declarer=declarer,
            bid=best,
            solo=auction.solo,
            target=target,
            multiplier=times,
            called=self.called,
            partner=partner,
            revealed=self.revealed,
            side=side,
            side_points=side_points,
            made=made,
            scores=call_scores(seats, declarer, partner, made, times)
            if made is not None and declarer is not None
            else (),
        )
