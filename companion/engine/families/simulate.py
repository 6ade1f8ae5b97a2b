"""The simulator's side of the bidding families: random legal bids, calls, talons and declarations.

:func:`bid` runs the auction and what follows it (the call; the talon, discards and trumps
of remate) right after the deal; :func:`before_play` does what may happen between cards
(buia's late call, a partner's reveal, the 40 of remate). Both act for
:class:`companion.engine.simulate` and emit events through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from companion.cards import Card, Rank, Suit, deck
from companion.engine.events import Event
from companion.engine.families.bidding import BASE_TARGET, BID_ORDER
from companion.engine.families.chiamata import MAX_TARGET, Chiamata, hand_of, obligated_card
from companion.engine.families.remate import BID_STEP, MAX_BID, OPENING_BID, Remate, declaration_cards

if TYPE_CHECKING:
    from companion.engine.simulate import _Simulation

#: Chance that a seat passes once somebody has bid, plays solo, shows the called card early.
PASS_CHANCE: Final = 0.45
SOLO_CHANCE: Final = 0.015
REVEAL_CHANCE: Final = 0.1
#: Chance that a seat holding the 40 declares it before its next card.
DECLARE_CHANCE: Final = 0.5


def _chiamata_speech(sim: _Simulation, family: Chiamata, seat: int) -> Event:
    rng, best, hand = sim.rng, family.auction.best, frozenset(sim.hands[seat])
    if rng.random() < SOLO_CHANCE:
        return Event("solo", seat=seat)
    if best is not None and rng.random() < PASS_CHANCE:
        return Event("pass", seat=seat)
    raise_to = best.target + rng.randint(1, 4) if best is not None else BASE_TARGET + rng.randrange(4)
    if family.rules.a_punti:
        return (
            Event("bid", seat=seat, points=raise_to) if raise_to <= MAX_TARGET else Event("pass", seat=seat)
        )
    if best is None or best.key[0] == 0:
        step = BID_ORDER.index(best.rank) + 1 if best is not None and best.rank is not None else 0
        return Event("bid", seat=seat, rank=BID_ORDER[min(step + rng.randrange(3), len(BID_ORDER) - 1)])
    if raise_to > MAX_TARGET:
        return Event("pass", seat=seat)
    twos = [suit for suit in Suit if Card(Rank.DOS, suit) in hand]
    if twos and rng.random() < 0.5:
        card = obligated_card(hand, rng.choice(twos))
        if card is not None and card.rank != Rank.DOS:
            return Event("bid", seat=seat, rank=card.rank, points=max(raise_to, BASE_TARGET + 1))
    return Event("bid", seat=seat, rank=Rank.DOS, points=raise_to)


def _chiamata_card(sim: _Simulation, family: Chiamata, caller: int) -> Card:
    rng, best = sim.rng, family.auction.best
    hand = frozenset(sim.hands[caller]) | hand_of(sim.table, caller)  # as dealt: buia calls after a trick
    if family.rules.a_punti or best is None or best.rank is None:
        return rng.choice(deck(sim.rules.deck))  # a card of its own: the caller plays alone
    if best.points is not None and best.rank != Rank.DOS:
        suits = [
            s for s in Suit if Card(Rank.DOS, s) in hand and obligated_card(hand, s) == Card(best.rank, s)
        ]
        return Card(best.rank, rng.choice(suits))
    return Card(best.rank, rng.choice(list(Suit)))


def _remate_speech(sim: _Simulation, family: Remate, seat: int) -> Event:
    best = family.auction.best
    if best is None or best.points is None:
        return Event("bid", seat=seat, points=OPENING_BID + BID_STEP * sim.rng.randrange(3))
    raise_to = best.points + BID_STEP * sim.rng.randint(1, 2)
    if raise_to > MAX_BID or sim.rng.random() < PASS_CHANCE:
        return Event("pass", seat=seat)
    return Event("bid", seat=seat, points=raise_to)


def _remate_contract(sim: _Simulation, bidder: int) -> None:
    hand = sim.hands[bidder]
    sim.emit(Event("talon", seat=bidder, cards=tuple(sim.stock)))
    hand.extend(sim.stock)
    sim.stock = []
    discards = tuple(sim.rng.sample(hand, sim.rules.talon))
    sim.emit(Event("discard", seat=bidder, cards=discards))
    for card in discards:
        hand.remove(card)
    trump = max(Suit, key=lambda suit: (sum(card.suit == suit for card in hand), sim.rng.random()))
    sim.emit(Event("call", seat=bidder, suit=trump))


def bid(sim: _Simulation) -> None:
    """Run the auction after the deal, then settle the contract as far as play allows."""
    family = sim.table.family
    while family is not None and not family.auction.closed:
        seat = family.auction.turn
        assert seat is not None
        if isinstance(family, Chiamata):
            sim.emit(_chiamata_speech(sim, family, seat))
        elif isinstance(family, Remate):
            sim.emit(_remate_speech(sim, family, seat))
    caller = family.auction.winner if family is not None else None
    if caller is None:
        return
    if isinstance(family, Chiamata) and not family.auction.solo and not family.rules.buia:
        sim.emit(Event("call", seat=caller, card=_chiamata_card(sim, family, caller)))
    elif isinstance(family, Remate):
        _remate_contract(sim, caller)


def before_play(sim: _Simulation) -> None:
    """Between two cards: buia's call after the first trick, a partner's reveal, the 40 of remate."""
    family, table, rng = sim.table.family, sim.table, sim.rng
    if isinstance(family, Chiamata):
        caller = family.auction.winner
        if family.waiting_for(table) is not None and caller is not None:
            sim.emit(Event("call", seat=caller, card=_chiamata_card(sim, family, caller)))
        called = family.called
        holder = next((seat for seat, hand in enumerate(sim.hands) if called in hand), None)
        if family.partner is None and holder is not None and rng.random() < REVEAL_CHANCE:
            sim.emit(Event("reveal", seat=holder, card=called))
    elif isinstance(family, Remate) and table.trump_suit is not None and family.declared is None:
        pair = declaration_cards(table.trump_suit)
        holder = next((seat for seat, hand in enumerate(sim.hands) if pair <= set(hand)), None)
        if holder is not None and rng.random() < DECLARE_CHANCE:
            sim.emit(Event("declare", seat=holder, cards=tuple(sorted(pair, key=str))))
