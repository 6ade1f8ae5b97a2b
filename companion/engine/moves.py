"""Pure legality rules shared by the replay (which validates) and the simulator (which plays).

Every function answers from the facts it is given; none keeps state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from companion.cards import Card, Rank, Suit
from companion.engine.families import tute
from companion.engine.rules import Rules

#: Face-up cards the 7 of trumps may take (8 and 9 only exist in the 48-card deck).
SEVEN_TAKES: Final = frozenset({Rank.AS, Rank.TRES, Rank.REY, Rank.CABALLO, Rank.SOTA, Rank.OCHO, Rank.NUEVE})
#: Face-up cards the 2 of trumps may take.
TWO_TAKES: Final = frozenset({Rank.SIETE, Rank.SEIS, Rank.CINCO, Rank.CUATRO})


def arrastre_key(card: Card, trump: Suit | None) -> tuple[bool, int]:
    """Order of obligation under arrastre: trumps first, then by trick order."""
    return (card.suit == trump, card.strength)


def revoke_cards(
    rules: Rules,
    trick: Sequence[Card],
    card: Card,
    trump: Suit | None,
    arrastre: bool,
    others: Iterable[Card],
) -> frozenset[Card]:
    """The cards among ``others`` whose holding makes playing ``card`` onto ``trick`` a revoke.

    Under arrastre a follower owes its best card (trumps first); under the
    follow-suit rule it owes the suit led, else a trump, and with ``must_beat``
    the obligations of tute (:mod:`companion.engine.families.tute`). The leader owes nothing.
    """
    if not trick:
        return frozenset()
    if arrastre:
        key = arrastre_key(card, trump)
        return frozenset(other for other in others if arrastre_key(other, trump) > key)
    if rules.follow_suit and rules.must_beat:
        return tute.owed(trick, card, trump, others)
    if rules.follow_suit:
        led = trick[0].suit
        if card.suit == led:
            return frozenset()
        owed = {led} if card.suit == trump else {led, trump}
        return frozenset(other for other in others if other.suit in owed)
    return frozenset()


def hunted_ace(rules: Rules, trump: Suit | None, unplayed: Collection[Card], last_trick: bool) -> Card | None:
    """Cazar el tres: the As of trumps, while nobody may play it (the 3 of trumps is out), else None.

    A card nobody may play is owed by nobody: holding it proves no revoke.
    """
    if not rules.cazar_tres or trump is None or last_trick or Card(Rank.TRES, trump) not in unplayed:
        return None
    return Card(Rank.AS, trump)


def legal_cards(
    rules: Rules,
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    arrastre: bool,
    unplayed: Collection[Card],
    last_trick: bool,
) -> list[Card]:
    """The cards of a known ``hand`` that may be played onto ``trick``."""
    hunted = hunted_ace(rules, trump, unplayed, last_trick)
    playable = [card for card in hand if card != hunted]
    legal = [
        card
        for card in playable
        if not revoke_cards(
            rules, trick, card, trump, arrastre, (other for other in playable if other != card)
        )
    ]
    return legal or playable or list(hand)


def swap_target_problem(rules: Rules, put: Card, face_up: Card, trump: Suit) -> str | None:
    """Why ``put`` may not take ``face_up`` (None when the exchange is allowed)."""
    if put.suit != trump or put.rank not in (Rank.SIETE, Rank.DOS):
        return f"only the 7 or the 2 of trumps can be put under the stock, not {put}"
    if put.rank == Rank.SIETE:
        if not rules.swap_seven or face_up.rank not in SEVEN_TAKES:
            return f"the 7 of trumps cannot take the face-up {face_up}"
    elif not rules.swap_two or face_up.rank not in TWO_TAKES:
        return f"the 2 of trumps cannot take the face-up {face_up}"
    return None


def swap_timing_problem(
    rules: Rules, seat: int, completed: int, mid_trick: bool, last_drawer: int | None
) -> str | None:
    """Why a swap by ``seat`` is too late or badly timed (None when allowed).

    ``completed`` counts finished tricks; ``last_drawer`` is the seat about to
    draw the face-up card while the last drawing turn is under way, else None.
    """
    rounds = rules.draw_rounds
    if mid_trick and not rules.swap_mid_trick:
        return "a swap must wait until the trick is over"
    if last_drawer is not None:
        if rules.swap_until != "drawn":
            return "no swap during the last drawing turn"
        if seat == last_drawer:
            return f"seat {seat} draws the face-up card itself"
        return None
    limit = rounds - 1 if rules.swap_until == "last-turn" else rounds
    if completed >= limit:
        return f"no swap after trick {limit} (rule swap_until={rules.swap_until})"
    return None


def claim_cards(rules: Rules, unplayed_trumps: Iterable[Card], cards_left: int) -> frozenset[Card] | None:
    """The trumps a side must show to claim the remaining tricks, or None when no claim is possible."""
    needed = min(cards_left, 3)
    top = sorted(unplayed_trumps, key=lambda card: card.strength, reverse=True)[:needed]
    if cards_left > 3 or len(top) < needed or needed == 0:
        return None
    return frozenset(top)


def mano_negra_cards(trump: Suit) -> frozenset[Card]:
    """Rey, 3 and As of trumps: shown together they win the game (mano negra)."""
    return frozenset(Card(rank, trump) for rank in (Rank.REY, Rank.TRES, Rank.AS))


def redeal_allowed(rules: Rules, cards: Sequence[Card], trump: Suit | None) -> bool:
    """Virar la baraja: a full hand dealt without points and without trumps."""
    return (
        len(set(cards)) == rules.hand_size
        and trump is not None
        and all(card.points == 0 and card.suit != trump for card in cards)
    )
