"""Seeded random games: real hands are dealt, and every move is a random legal one.

The simulator knows the hands; the record it writes holds only what the table
shows (the trump card, plays, swaps and declarations), as a camera would see it.

>>> record = random_game("brisca-2", seed=7)
>>> from companion.engine.replay import replay
>>> state = replay(record)
>>> state.complete, state.valid, sum(state.points)
(True, True, 120)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.cards import Card, Rank, deck
from companion.engine import moves
from companion.engine.events import Event
from companion.engine.families import simulate as families
from companion.engine.match import game_rules, replay_match
from companion.engine.record import GameRecord, MatchRecord, MatchRules
from companion.engine.rules import Rules, rules_for
from companion.engine.table import Table

#: Probability that a seat takes an optional action (swap, arrastre, claim...) when it can.
CHANCE = 0.5
#: Redeals allowed in one game before the simulator plays whatever it was dealt.
MAX_REDEALS = 3


class _Simulation:
    def __init__(
        self, rules: Rules, rng: random.Random, players: Sequence[str] | None, first: int | None
    ) -> None:
        self.rng = rng
        self.record = GameRecord.create(
            rules, players, rng.randrange(rules.seats) if first is None else first
        )
        self.rules = rules
        self.table = Table(rules, self.record.players, self.record.first)
        self.events: list[Event] = []
        self.hands: list[list[Card]] = []
        self.stock: list[Card] = []

    def emit(self, event: Event) -> None:
        self.table.apply(len(self.events), event)
        self.events.append(event)

    def deal(self) -> None:
        rules, size = self.rules, self.rules.hand_size
        cards = list(deck(rules.deck))
        self.rng.shuffle(cards)
        self.hands = [cards[seat * size : (seat + 1) * size] for seat in range(rules.seats)]
        self.stock = cards[rules.seats * size :]
        if rules.trump_suit is None and rules.auction == "none":
            self.emit(Event("trump", card=self.stock[-1]))

    def show_hands(self) -> None:
        if self.rules.open_hands:
            for seat, hand in enumerate(self.hands):
                self.emit(Event("hand", seat=seat, cards=tuple(hand)))

    def maybe_redeal(self) -> bool:
        for seat, hand in enumerate(self.hands):
            if moves.redeal_allowed(self.rules, hand, self.table.trump_suit) and self.rng.random() < CHANCE:
                self.emit(Event("redeal", seat=seat, cards=tuple(hand)))
                return True
        return False

    def maybe_declare(self) -> None:
        trump, mode = self.table.trump_suit, self.rules.mano_negra
        if trump is None or mode == "off" or (mode == "first-trick" and self.table.tricks):
            return
        needed = moves.mano_negra_cards(trump)
        for seat, hand in enumerate(self.hands):
            if needed <= set(hand) and self.rng.random() < CHANCE:
                self.emit(Event("declare", seat=seat, cards=tuple(sorted(needed, key=str))))
                return

    def maybe_claim(self) -> None:
        table = self.table
        if not self.rules.claims or table.plays or table.stock or table.complete:
            return
        trumps = [card for card in table.unplayed if card.suit == table.trump_suit]
        needed = moves.claim_cards(self.rules, trumps, self.rules.tricks - len(table.tricks))
        for seat, hand in enumerate(self.hands):
            if needed and needed <= set(hand) and self.rng.random() < CHANCE:
                self.emit(Event("claim", seat=seat, cards=tuple(sorted(needed, key=str))))
                return

    def maybe_swap(self, seats: Sequence[int]) -> None:
        table, rules = self.table, self.rules
        face_up, trump = table.face_up, table.trump_suit
        if face_up is None or trump is None or not self.stock:
            return
        for seat in seats:
            if rules.swap_needs_trick and seat not in table.won:
                continue
            timing = moves.swap_timing_problem(
                rules, seat, len(table.tricks), bool(table.plays), table.last_drawer
            )
            for put in self.hands[seat]:
                legal = put.suit == trump and not moves.swap_target_problem(rules, put, face_up, trump)
                if legal and timing is None and self.rng.random() < CHANCE:
                    self.hands[seat].remove(put)
                    self.hands[seat].append(face_up)
                    self.stock[-1] = put
                    self.emit(Event("swap", seat=seat, card=put))
                    return

    def play_one(self, seat: int) -> None:
        table, rules, hand = self.table, self.rules, self.hands[seat]
        trump = table.trump_suit
        ace = Card(Rank.AS, trump) if trump is not None else None
        trick = [card for _, card in table.plays]
        last = len(table.tricks) == rules.tricks - 1
        options = moves.legal_cards(rules, hand, trick, trump, table.arrastre, table.unplayed, last)
        if rules.arrastre and not trick and ace in options and self.rng.random() < CHANCE:
            self.emit(Event("arrastre", seat=seat))
            options = [ace]
        card = self.rng.choice(options)
        hand.remove(card)
        tricks_before = len(table.tricks)
        self.emit(Event("play", seat=seat, card=card))
        if len(table.tricks) > tricks_before and tricks_before < rules.draw_rounds and not table.complete:
            winner = table.tricks[-1].winner
            order = [(winner + k) % rules.seats for k in range(rules.seats)]
            for drawer in order[:-1]:
                self.hands[drawer].append(self.stock.pop(0))
            if table.last_drawer is not None:
                self.maybe_swap(order[:-1])
            self.hands[order[-1]].append(self.stock.pop(0))
            self.show_hands()

    def run(self) -> GameRecord:
        self.deal()
        redeals = 0
        while self.rules.virar and redeals < MAX_REDEALS and self.maybe_redeal():
            redeals += 1
            self.deal()
        self.show_hands()
        if self.table.family is not None:
            families.bid(self)
        while not self.table.complete:
            self.maybe_declare()
            self.maybe_claim()
            if self.table.family is not None:
                families.before_play(self)
            seat = self.table.to_play
            if seat is None:
                break
            self.maybe_swap([seat])
            self.play_one(seat)
        return GameRecord(self.rules, self.record.players, self.record.first, tuple(self.events))


def random_game(
    rules: Rules | str | Mapping[str, Any],
    seed: int,
    players: Sequence[str] | None = None,
    first: int | None = None,
) -> GameRecord:
    """A complete random legal game under ``rules``, the same for the same ``seed``.

    The first leader is drawn at random unless ``first`` is given.
    """
    return _Simulation(rules_for(rules), random.Random(seed), players, first).run()


def random_match(
    rules: Rules | str | Mapping[str, Any],
    seed: int,
    match: MatchRules | None = None,
    players: Sequence[str] | None = None,
) -> MatchRecord:
    """Random games, the deal rotating, until the match is decided."""
    empty = MatchRecord(rules_for(rules), GameRecord.create(rules, players).players, 0, match or MatchRules())
    record = replace(empty, first=random.Random(seed).randrange(empty.rules.seats))
    while not replay_match(record).complete:
        index = len(record.games)
        first = (record.first + index) % record.rules.seats
        game = random_game(game_rules(record, index), seed * 1000 + index, record.players, first)
        record = replace(record, games=(*record.games, replace(game, rules=record.rules)))
    return record
