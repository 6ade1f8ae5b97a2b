"""The obligations of tute, played in ``chile-4`` (rules ``follow_suit`` and ``must_beat``).

A follower must follow the suit led (asistir) and beat the best card of that suit on the
table when it can (montar), unless the trick is already trumped; without the suit it must
trump (fallar) and, when a trump is already on the table, overtrump it if it can (pisar);
a follower who can do neither plays any card. Partners are no exception.

:func:`owed` answers, for a card played, which cards would have made it a revoke had the
seat held one: a later play of any of them proves the revoke.

>>> from companion.cards import Card, Suit
>>> trick = [Card.parse("5C")]
>>> sorted(map(str, owed(trick, Card.parse("4C"), Suit.OROS, map(Card.parse, ["6C", "2C", "1O"]))))
['6C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.cards import Card, Suit, beats, trick_winner


def owed(trick: Sequence[Card], card: Card, trump: Suit | None, others: Iterable[Card]) -> frozenset[Card]:
    """The cards among ``others`` whose holding makes playing ``card`` onto ``trick`` a revoke."""
    if not trick:
        return frozenset()
    led, best = trick[0].suit, trick[trick_winner(tuple(trick), trump)]
    trumped = best.suit == trump and led != trump
    others = list(others)
    beating = {other for other in others if beats(other, best, trump)}
    if card.suit == led:
        return (
            frozenset()
            if trumped or beats(card, best, trump)
            else frozenset(c for c in beating if c.suit == led)
        )
    following = {other for other in others if other.suit == led}
    if trump is None:
        return frozenset(following)
    if trumped or card.suit == trump:
        overtrump = set() if beats(card, best, trump) else {other for other in beating if other.suit == trump}
        return frozenset(following | overtrump)
    return frozenset(following | {other for other in others if other.suit == trump})


def obligation(trick: Sequence[Card], card: Card, held: Card, trump: Suit | None) -> str:
    """The name of the obligation that holding ``held`` broke when ``card`` was played onto ``trick``."""
    led = trick[0].suit
    if held.suit == led:
        return "montar: beat the card on the table" if card.suit == led else "asistir: follow suit"
    if any(played.suit == trump for played in trick) or card.suit == trump:
        return "pisar: overtrump"
    return "fallar: trump"
