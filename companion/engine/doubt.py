"""The results a finished game's doubtful plays leave open.

Once every card of a game has been played, a play that was guessed (the camera missed it) or read
unsure can only have held the card of another doubtful play: each card is played once. The orders
of those cards that leave every trick but the last to the seat that won it (the next lead showed
who did) and bring no new problems are the games that may have been played; their points and
winners are the results the doubt leaves open.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from companion.cards import Card, trick_winner
from companion.engine.events import Event
from companion.engine.record import GameRecord
from companion.engine.replay import effective_log, replay
from companion.engine.state import GameState

#: What :func:`open_results` tries at most before it leaves the results unworked out: partial
#: orders (a card placed in a play) and whole orders replayed (6 plays give 720 at most).
PLACINGS = 50_000
REPLAYS = 720


class TooManyOrders(Exception):
    """The doubtful plays allow more orders than a :class:`Budget` lets be tried."""


@dataclass
class Budget:
    """How many more partial orders (``placings``) and whole orders (``replays``) may be tried."""

    placings: int = PLACINGS
    replays: int = REPLAYS

    def spend(self, kind: str) -> None:
        left = getattr(self, kind) - 1
        if left < 0:
            raise TooManyOrders(f"more than {getattr(type(self)(), kind)} {kind}")
        setattr(self, kind, left)


@dataclass(frozen=True, slots=True)
class OpenResult:
    """A result the doubtful plays allow: each side's points, the winning seats (``()``: a draw)
    and the cards of the doubtful plays, in log order, that give it."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    cards: tuple[Card, ...]


def orders(
    record: GameRecord, refs: Collection[int], budget: Budget | None = None, *, by_points: bool = False
) -> Iterator[tuple[tuple[Card, ...], GameState]]:
    """Each order of the cards of the plays ``refs`` (log indices) that leaves every trick but the
    last to the seat that won it and replays with no more problems: the cards, in log order, and
    the state they give; the record's own order among them. None at all when a ref is no play of a
    trick done. With a ``budget``, :class:`TooManyOrders` once it is spent. With ``by_points``, in
    a game without bidding (where a side may hang on who held a card), one order for each share
    of the cards' points among the sides, with the side that takes the last trick: every such
    order scores the same (each trick but the last keeps its winner), so the others are not
    replayed."""
    now = replay(record)
    at = {card: (n, i) for n, trick in enumerate(now.tricks) for i, (_, card) in enumerate(trick.plays)}
    cards = [card for card in cards_of(record, refs) if card in at]
    if len(cards) < len(refs):
        return
    slots = [at[card] for card in cards]
    last = len(now.tricks) - 1

    def winner(n: int, placed: tuple[Card, ...]) -> int:
        """The seat that wins trick ``n`` with the cards ``placed`` in the first doubtful plays."""
        instead = dict(zip(slots, placed, strict=False))
        trick = now.tricks[n]
        held = [instead.get((n, i), card) for i, (_, card) in enumerate(trick.plays)]
        return trick.plays[trick_winner(held, now.trump_suit)][0]

    def fits(placed: tuple[Card, ...]) -> bool:
        """Whether the trick of the card placed last keeps its winner, once its doubtful plays
        are all placed (the last trick's winner was shown by no lead: any)."""
        n = slots[len(placed) - 1][0]
        if n == last or any(m == n for m, _ in slots[len(placed) :]):
            return True
        return winner(n, placed) == now.tricks[n].winner

    tricks = sorted({n for n, _ in slots})
    alike = by_points and record.rules.auction == "none"

    def scored(order: tuple[Card, ...]) -> tuple[int | None, ...]:
        """The points of the doubtful plays each side takes with ``order``, and the side that
        takes the last trick."""
        rules = record.rules
        taker = {n: now.tricks[n].winner if n != last else winner(last, order) for n in tricks}
        dealt = [0] * len(rules.teams)
        for (n, _), card in zip(slots, order, strict=True):
            dealt[rules.side_of(taker[n])] += card.points
        return (*dealt, rules.side_of(taker[last]) if last in taker else None)

    def placings(placed: tuple[Card, ...], left: frozenset[Card]) -> Iterator[tuple[Card, ...]]:
        if not left:
            yield placed
        for card in sorted(left, key=str):
            if budget is not None:
                budget.spend("placings")
            if fits((*placed, card)):
                yield from placings((*placed, card), left - {card})

    winners = [trick.winner for trick in now.tricks[:-1]]
    kept: set[tuple[int | None, ...]] = set()
    for order in placings((), frozenset(cards)):
        if alike and scored(order) in kept:
            continue
        if budget is not None:
            budget.spend("replays")
        amends = tuple(
            Event("amend", ref=ref, card=card) for ref, card in zip(sorted(refs), order, strict=True)
        )
        after = replay(replace(record, events=(*record.events, *amends)))
        if len(after.issues) <= len(now.issues) and [t.winner for t in after.tricks[:-1]] == winners:
            if alike:
                kept.add(scored(order))
            yield order, after


@functools.lru_cache(maxsize=16)
def open_results(record: GameRecord, refs: frozenset[int]) -> tuple[OpenResult, ...]:
    """The distinct results (points and winners) of the orders of the doubtful plays ``refs`` of the
    finished game ``record`` (:func:`orders`), the record's own first. ``()`` when the game is not
    over, or the plays allow more orders than a :class:`Budget` tries."""
    now = replay(record)
    if not now.complete:
        return ()
    own = (side_points(now), now.winners)
    found = {own: OpenResult(*own, tuple(cards_of(record, refs)))}
    try:
        for cards, state in orders(record, refs, Budget(), by_points=True):
            key = (side_points(state), state.winners)
            found.setdefault(key, OpenResult(*key, cards))
    except TooManyOrders:
        return ()
    return tuple(found.values())


def winner_open(results: Sequence[OpenResult]) -> bool:
    """Whether the results a game's doubt leaves open (:func:`open_results`) have other winners
    than the first, the record's own."""
    return any(set(result.winners) != set(results[0].winners) for result in results[1:])


def plays_among(record: GameRecord, refs: Iterable[int]) -> frozenset[int]:
    """The log indices among ``refs`` that are plays, as the log's corrections leave them."""
    log = effective_log(record.events)[0]
    return frozenset(ref for ref in refs if (event := log[ref]) is not None and event.type == "play")


def cards_of(record: GameRecord, refs: Collection[int]) -> Iterator[Card]:
    """The cards of the plays among ``refs`` (log indices), in log order, as the log's corrections
    leave them."""
    log = effective_log(record.events)[0]
    for ref in sorted(refs):
        play = log[ref]
        if play is not None and play.type == "play" and play.card is not None:
            yield play.card


def side_points(state: GameState) -> tuple[int, ...]:
    """Each side's points: the teams' where seats play in teams, else each seat's."""
    return state.team_points if state.team_points is not None else state.points
