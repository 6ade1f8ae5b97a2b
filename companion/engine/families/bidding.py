"""Whose turn it is to speak, and when an auction is over: shared by every family that bids.

>>> auction = Auction(seats=3, first=1)
>>> auction.bid(Bid(1, None, 100)); auction.pass_(2); auction.pass_(0)
>>> auction.winner, auction.closed
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from companion.cards import Rank

#: The ranks a caller may bid, weakest bid first: each one outbids those before it.
BID_ORDER: Final[tuple[Rank, ...]] = (
    Rank.AS,
    Rank.TRES,
    Rank.REY,
    Rank.CABALLO,
    Rank.SOTA,
    Rank.SIETE,
    Rank.SEIS,
    Rank.CINCO,
    Rank.CUATRO,
    Rank.DOS,
)
#: The points a side needs when the bid names no other target.
BASE_TARGET: Final = 61


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: a rank to call, a points target, or both (the 2, or an obligated call, at a target)."""

    seat: int
    rank: Rank | None
    points: int | None

    @property
    def target(self) -> int:
        """The points the bidder's side must reach."""
        return self.points if self.points is not None else BASE_TARGET

    @property
    def key(self) -> tuple[int, int]:
        """Bids compare by this key: the 2 and every points bid outbid every other rank."""
        if self.points is not None or self.rank == Rank.DOS:
            return (1, self.target)
        return (0, BID_ORDER.index(self.rank) if self.rank in BID_ORDER else -1)

    def __str__(self) -> str:
        rank = f"the {int(self.rank)}" if self.rank is not None else ""
        points = f"{self.points} points" if self.points is not None else ""
        return " at ".join(part for part in (rank, points) if part)


@dataclass(frozen=True, slots=True)
class Speech:
    """One turn of the auction: ``bid`` (with its :class:`Bid`), ``pass`` or ``solo``."""

    seat: int
    action: str
    bid: Bid | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.bid is not None and self.bid.rank is not None:
            out["rank"] = int(self.bid.rank)
        if self.bid is not None and self.bid.points is not None:
            out["points"] = self.bid.points
        return out


class Auction:
    """Seats speak in turn from ``first``; it is over when one bidder is left, or all passed."""

    def __init__(self, seats: int, first: int) -> None:
        self.seats = seats
        self.turn: int | None = first
        self.passed: set[int] = set()
        self.best: Bid | None = None
        self.speeches: list[Speech] = []
        self.closed = False
        self.winner: int | None = None
        self.solo = False

    def turn_problem(self, seat: int, action: str) -> tuple[str, str] | None:
        """Why ``seat`` may not speak now, as an issue ``(code, message)``; None when it may."""
        if self.closed:
            return "bid-closed", f"seat {seat} spoke ({action}) after the bidding ended"
        if seat in self.passed:
            return "bid-after-pass", f"seat {seat} spoke ({action}) after passing"
        if seat != self.turn:
            return "bid-out-of-turn", f"seat {seat} spoke ({action}), but seat {self.turn} was to speak"
        return None

    def bid(self, bid: Bid) -> None:
        self.speeches.append(Speech(bid.seat, "bid", bid))
        self.best = bid
        self._advance(bid.seat)

    def pass_(self, seat: int) -> None:
        self.speeches.append(Speech(seat, "pass"))
        self.passed.add(seat)
        self._advance(seat)

    def play_solo(self, seat: int) -> None:
        """``seat`` interrupts the bidding to play alone."""
        self.speeches.append(Speech(seat, "solo"))
        self.solo = True
        self._close(seat)

    def _close(self, winner: int | None) -> None:
        self.closed, self.winner, self.turn = True, winner, None

    def _advance(self, seat: int) -> None:
        active = [s for s in range(self.seats) if s not in self.passed]
        if not active:
            self._close(self.best.seat if self.best is not None else None)
        elif self.best is not None and active == [self.best.seat]:
            self._close(self.best.seat)
        else:
            self.turn = next(s for k in range(1, self.seats + 1) if (s := (seat + k) % self.seats) in active)
