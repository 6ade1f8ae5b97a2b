"""The frozen result of a replay: tricks, points, winners and the issues found."""

from __future__ import annotations

from dataclasses import dataclass

from companion.cards import Card, Suit
from companion.engine.families.contract import Contract
from companion.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Issue:
    """An inconsistency in a record: the index of the event it concerns, a code, a sentence."""

    event: int | None
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick; ``reason`` says in one line why its winner won."""

    n: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Swap:
    """A trump swap: ``seat`` put ``put`` under the stock and took ``took``."""

    event: int
    seat: int
    put: Card
    took: Card


@dataclass(frozen=True)
class GameState:
    """Everything known about a game after replaying its record."""

    rules: Rules
    players: tuple[str, ...]
    first: int
    trump_card: Card | None
    trump_suit: Suit | None
    face_up: Card | None
    stock: int
    tricks: tuple[Trick, ...]
    current: tuple[tuple[int, Card], ...]
    leader: int
    to_play: int | None
    points: tuple[int, ...]
    team_points: tuple[int, ...] | None
    winners: tuple[int, ...]
    complete: bool
    ended_by: str | None
    issues: tuple[Issue, ...]
    unseen: frozenset[Card]
    played: frozenset[Card]
    swaps: tuple[Swap, ...]
    held: tuple[frozenset[Card], ...]  # per seat, the cards it is known to hold (the trump card
    # taken in a swap or drawn last, an open hand)
    contract: Contract | None = None  # the bidding families: what was bid, with whom, the scores

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.rules.teams

    @property
    def valid(self) -> bool:
        return not self.issues

    def holder(self, card: Card) -> int | None:
        """The seat known to hold ``card``, if any."""
        return next((seat for seat, cards in enumerate(self.held) if card in cards), None)
