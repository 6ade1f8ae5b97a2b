"""The game under replay: the one place where events change the state.

:class:`Table` applies events one at a time and reports every inconsistency as
an :class:`~companion.engine.state.Issue` instead of failing; :meth:`Table.freeze`
returns the :class:`~companion.engine.state.GameState`. Each event type has one
handler in :data:`HANDLERS`; a new variant with new events adds handlers there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from companion.cards import Card, Rank, Suit, deck, trick_winner
from companion.engine import moves
from companion.engine.events import Event
from companion.engine.families.registry import family_for
from companion.engine.outcome import side_totals, winners
from companion.engine.rules import Rules
from companion.engine.state import GameState, Issue, Swap, Trick


def trick_reason(cards: Sequence[Card], best: int, trump: Suit | None) -> str:
    """One line that says why ``cards[best]`` took the trick."""
    card, led = cards[best], cards[0]
    if card.suit == trump and led.suit != trump:
        return f"{card}: trump beats the suit led"
    if card.suit == trump:
        return f"{card}: highest trump"
    if len([c for c in cards if c.suit == led.suit]) == 1:
        return f"{card}: led, nobody followed the suit or trumped"
    return f"{card}: highest card of the suit led"


class Table:
    """A game being replayed; ``apply`` events in log order, then ``freeze``."""

    def __init__(self, rules: Rules, players: Sequence[str], first: int) -> None:
        self.rules = rules
        self.players = tuple(players)
        self.first = first
        self.deck: frozenset[Card] = frozenset(deck(rules.deck))
        self.total_tricks, self.draw_rounds = rules.tricks, rules.draw_rounds
        self.issues: list[Issue] = []
        self.deal()

    def deal(self) -> None:
        """Start (or restart, after a redeal) from a fresh deal."""
        seats = self.rules.seats
        self.trump_card: Card | None = None
        self.trump_suit: Suit | None = self.rules.trump_suit
        self.face_up: Card | None = None
        self.stock = self.rules.deck - self.rules.talon - seats * self.rules.hand_size
        self.tricks: list[Trick] = []
        self.plays: list[tuple[int, Card]] = []
        self.leader = self.first
        self.points = [0] * seats
        self.cards_won = [0] * seats
        self.unplayed: set[Card] = set(self.deck)
        self.shown: set[Card] = set()  # seen, but not played: trump card, swaps, shown hands
        self.swaps: list[Swap] = []
        self.won: set[int] = set()
        self.epoch = [0] * seats  # bumped whenever a seat takes an unseen card
        self.known: list[set[Card]] = [set() for _ in range(seats)]
        self.full = [False] * seats  # the whole hand is known (open hands)
        self.owed: list[list[tuple[int, Card, frozenset[Card], int]]] = [[] for _ in range(seats)]
        self.last_drawer: int | None = None
        self.arrastre = False
        self.ended_by: str | None = None
        self.decided: int | None = None
        self.loser: int | None = None
        self.family = family_for(self.rules, self.first)  # the bidding, when the rules have one

    @property
    def played(self) -> frozenset[Card]:
        return self.deck - self.unplayed

    @property
    def complete(self) -> bool:
        return self.ended_by is not None or len(self.tricks) == self.total_tricks

    @property
    def to_play(self) -> int | None:
        if self.complete or self.waiting_for() is not None:
            return None
        return (self.leader + len(self.plays)) % self.rules.seats

    def waiting_for(self) -> tuple[str, str] | None:
        """What must happen before a card is played, as an issue code and words; None when play is open."""
        if self.family is not None:
            return self.family.waiting_for(self)
        return None if self.trump_suit is not None else ("no-trump", "the trump card was turned up")

    def issue(self, event: int | None, code: str, message: str) -> None:
        self.issues.append(Issue(event, code, message))

    def apply(self, index: int, event: Event) -> None:
        """Apply the event at log position ``index``."""
        if self.complete:
            self.issue(index, "after-end", f"{event.type} event after the game ended")
            return
        if event.seat is not None and event.seat >= self.rules.seats:
            self.issue(index, "no-such-seat", f"seat {event.seat} in a game of {self.rules.seats} seats")
            return
        if event.type != "swap":
            self.settle_last_draw()
        handler = self.family.handlers.get(event.type) if self.family is not None else None
        (handler or HANDLERS.get(event.type, _not_in_rules))(self, index, event)
        if self.family is not None:
            self.family.observe(self, index, event)

    def settle_last_draw(self) -> None:
        """The last drawer takes the face-up card once the next trick begins."""
        if self.last_drawer is not None and self.face_up is not None:
            self.receive(self.last_drawer, self.face_up)
            self.face_up = None
        self.last_drawer = None

    def receive(self, seat: int, card: Card) -> None:
        """``seat`` takes a card everyone saw: it is known in its hand, and proves no earlier revoke."""
        self.known[seat].add(card)
        self.owed[seat] = [
            (ref, played, owed - {card}, epoch) for ref, played, owed, epoch in self.owed[seat]
        ]

    def card_problem(self, seat: int, card: Card) -> str | None:
        """Why ``seat`` cannot be holding ``card`` now (None when it may)."""
        return _card_problem(self, seat, card, in_hand=False)

    def set_aside(self, seat: int, cards: Sequence[Card]) -> None:
        """``seat`` puts ``cards`` out of play, face down in its scoring pile (a remate discard)."""
        self.unplayed.difference_update(cards)
        self.known[seat].difference_update(cards)

    def holder(self, card: Card) -> int | None:
        """The seat known to hold ``card``, if any."""
        for seat, known in enumerate(self.known):
            if known and card in known:
                return seat
        return None

    def finish_trick(self) -> None:
        rules, cards = self.rules, [card for _, card in self.plays]
        best = trick_winner(cards, self.trump_suit)
        winner, points = self.plays[best][0], sum(card.points for card in cards)
        reason = trick_reason(cards, best, self.trump_suit)
        self.tricks.append(
            Trick(len(self.tricks) + 1, self.leader, tuple(self.plays), winner, points, reason)
        )
        self.points[winner] += points
        self.cards_won[winner] += len(cards)
        self.won.add(winner)
        self.plays, self.leader, self.arrastre = [], winner, False
        trump = self.trump_suit
        if (
            rules.cazar_tres
            and trump is not None
            and cards[best] == Card(Rank.AS, trump)
            and Card(Rank.TRES, trump) in cards
        ):
            self.ended_by, self.decided = "cazar-el-tres", rules.side_of(winner)
        if rules.goal == "under-12" and self.ended_by is None:
            over = [side for side, total in enumerate(side_totals(rules, self.points)) if total > 11]
            if over:
                self.ended_by, self.loser = "over-11", over[0]
        if len(self.tricks) <= self.draw_rounds:
            self.draw(winner)

    def draw(self, winner: int) -> None:
        """Every seat draws one card, the winner first; the last round ends with the face-up card."""
        seats = self.rules.seats
        self.stock -= seats
        order = [(winner + k) % seats for k in range(seats)]
        gets_face_up = order[-1] if self.stock == 0 and self.face_up is not None else None
        for seat in order:
            if seat != gets_face_up:
                self.epoch[seat] += 1
                self.full[seat] = False
                self.owed[seat].clear()
        self.last_drawer = gets_face_up

    def freeze(self) -> GameState:
        """The state reached so far, with end-of-game checks when the game is complete."""
        issues = list(self.issues)
        complete = self.complete
        if complete and self.ended_by is None:
            missing = self.unplayed
            if missing:
                names = " ".join(sorted(map(str, missing)))
                issues.append(Issue(None, "cards-missing", f"cards never played: {names}"))
            total = self.family.total_points() if self.family is not None else 120
            if sum(self.points) != total:
                issues.append(
                    Issue(None, "points-total", f"points add up to {sum(self.points)}, not {total}")
                )
            if self.family is not None:
                issues.extend(self.family.end_issues(self))
        rules = self.rules
        last = self.tricks[-1].winner if self.tricks else None
        won = winners(rules, self.points, self.cards_won, last, self.decided, self.loser) if complete else ()
        contract = self.family.contract(self) if self.family is not None else None
        if contract is not None:
            won = contract.winners(rules.seats)
        return GameState(
            rules=rules,
            players=self.players,
            first=self.first,
            trump_card=self.trump_card,
            trump_suit=self.trump_suit,
            face_up=self.face_up,
            stock=self.stock,
            tricks=tuple(self.tricks),
            current=tuple(self.plays),
            leader=self.leader,
            to_play=self.to_play,
            points=tuple(self.points),
            team_points=tuple(side_totals(rules, self.points)) if rules.seats in (4, 6) else None,
            winners=won,
            complete=complete,
            ended_by=self.ended_by,
            issues=tuple(issues),
            unseen=frozenset(self.unplayed - self.shown),
            played=self.played,
            swaps=tuple(self.swaps),
            held=tuple(frozenset(cards) for cards in self.known),
            contract=contract,
        )


def _trump(table: Table, index: int, event: Event) -> None:
    card = event.card
    assert card is not None
    if table.rules.trump_suit is not None:
        table.issue(
            index, "fixed-trump", f"trump card {card} turned up, but trumps are {table.rules.trump_suit}"
        )
        return
    if table.trump_card is not None:
        table.issue(index, "trump-again", f"trump card {card} turned up after {table.trump_card}")
        return
    if table.plays or table.tricks:
        table.issue(index, "trump-late", f"trump card {card} turned up after cards were played")
    if card not in table.deck:
        table.issue(index, "not-in-deck", f"{card} is not in the {table.rules.deck}-card deck")
    table.trump_card, table.trump_suit, table.face_up = card, card.suit, card
    table.shown.add(card)


def _card_problem(table: Table, seat: int, card: Card, in_hand: bool = True) -> str | None:
    if card not in table.unplayed:
        if card not in table.deck:
            return f"{card} is not in the {table.rules.deck}-card deck"
        return f"{card} was already played"
    if card == table.face_up:
        return f"{card} still lies face up under the stock"
    holder = table.holder(card)
    if holder is not None and holder != seat:
        return f"{card} is known to be in the hand of seat {holder}"
    if in_hand and table.rules.open_hands and table.full[seat] and card not in table.known[seat]:
        return f"{card} is not in the open hand of seat {seat}"
    return None


def _play(table: Table, index: int, event: Event) -> None:
    seat, card, rules = event.seat, event.card, table.rules
    assert seat is not None and card is not None
    trump = table.trump_suit
    waiting = table.waiting_for()
    if waiting is not None:
        table.issue(index, waiting[0], f"{card} played before {waiting[1]}")
    if seat != table.to_play and waiting is None:
        table.issue(index, "out-of-turn", f"seat {seat} played {card}, but seat {table.to_play} was to play")
    problem = _card_problem(table, seat, card)
    if problem:
        table.issue(index, "bad-card", problem)
    if rules.open_hands and not table.full[seat]:
        table.issue(index, "hand-unknown", f"seat {seat} played {card} before showing its open hand")
    for ref, owed_card, owed, epoch in table.owed[seat]:
        if epoch == table.epoch[seat] and card in owed:
            table.issue(
                ref,
                "revoke",
                f"seat {seat} played {owed_card} while holding {card} (played at event {index})",
            )
    table.owed[seat] = [entry for entry in table.owed[seat] if card not in entry[2]]
    trick = [played for _, played in table.plays]
    if table.arrastre and not trick and (trump is None or card != Card(Rank.AS, trump)):
        table.issue(
            index, "arrastre-card", f"arrastre announced, but {card} was led instead of the As of trumps"
        )
    last_trick = len(table.tricks) == table.total_tricks - 1
    hunted = moves.hunted_ace(rules, trump, table.unplayed, last_trick)
    if hunted is not None and card == hunted:
        table.issue(index, "ace-hunted", f"the As of trumps {card} played while the 3 of trumps is still out")
    if trick and (rules.follow_suit or table.arrastre):
        others = table.unplayed - {card}
        if hunted is not None:
            others -= {hunted}
        owed = moves.revoke_cards(rules, trick, card, trump, table.arrastre, others)
        shown = owed & table.known[seat]
        if shown:
            names = " ".join(sorted(map(str, shown)))
            table.issue(index, "revoke", f"seat {seat} played {card} while holding {names}")
        elif owed:
            table.owed[seat].append((index, card, owed, table.epoch[seat]))
    table.unplayed.discard(card)
    if table.known[seat]:
        table.known[seat].discard(card)
    table.plays.append((seat, card))
    if len(table.plays) == rules.seats:
        table.finish_trick()


def _swap(table: Table, index: int, event: Event) -> None:
    seat, card, rules = event.seat, event.card, table.rules
    assert seat is not None and card is not None
    face_up, trump = table.face_up, table.trump_suit
    if face_up is None or trump is None:
        table.issue(index, "no-face-up", f"seat {seat} swapped {card}, but no trump card lies face up")
        return
    if (card in table.deck and card not in table.unplayed) or card == face_up:
        table.issue(index, "bad-swap", f"seat {seat} cannot put {card} under the stock: it is not in a hand")
        return
    problem = (
        moves.swap_target_problem(rules, card, face_up, trump)
        or moves.swap_timing_problem(rules, seat, len(table.tricks), bool(table.plays), table.last_drawer)
        or _card_problem(table, seat, card)
    )
    if problem is None and rules.swap_needs_trick and seat not in table.won:
        problem = f"seat {seat} has not won a trick yet"
    if problem:
        table.issue(index, "bad-swap", problem)
    table.known[seat].discard(card)
    table.receive(seat, face_up)
    table.face_up = card
    table.shown.add(card)
    table.swaps.append(Swap(index, seat, card, face_up))


def _arrastre(table: Table, index: int, event: Event) -> None:
    if not table.rules.arrastre:
        table.issue(index, "no-arrastre", "arrastre is not played under these rules")
    elif table.plays or event.seat != table.leader:
        table.issue(
            index,
            "arrastre-late",
            f"only the leader may announce arrastre, before leading (seat {event.seat})",
        )
    else:
        table.arrastre = True


def _claim(table: Table, index: int, event: Event) -> None:
    seat, cards, rules = event.seat, frozenset(event.cards or ()), table.rules
    assert seat is not None
    if not rules.claims:
        table.issue(index, "no-claims", "claims are not allowed under these rules")
        return
    trump = table.trump_suit
    unplayed_trumps = [card for card in table.unplayed if card.suit == trump]
    needed = None
    if not table.plays and table.stock == 0:
        needed = moves.claim_cards(rules, unplayed_trumps, rules.tricks - len(table.tricks))
    elsewhere = [card for card in cards if table.holder(card) not in (None, seat)]
    if needed is None or cards != needed or elsewhere:
        shown = " ".join(sorted(map(str, cards)))
        want = " ".join(sorted(map(str, needed))) if needed else "nothing yet"
        table.issue(
            index, "bad-claim", f"seat {seat} claimed with {shown or 'no cards'}; a claim needs {want}"
        )
        return
    remaining = table.unplayed
    table.points[seat] += sum(card.points for card in remaining)
    table.cards_won[seat] += len(remaining)
    table.shown |= cards
    table.ended_by = "claim"


def _declare(table: Table, index: int, event: Event) -> None:
    seat, cards, rules = event.seat, frozenset(event.cards or ()), table.rules
    assert seat is not None
    trump = table.trump_suit
    if rules.mano_negra == "off":
        table.issue(index, "no-mano-negra", "mano negra is not played under these rules")
    elif trump is None or cards != moves.mano_negra_cards(trump) or not cards <= table.unplayed:
        table.issue(
            index, "bad-declare", f"seat {seat} showed {' '.join(sorted(map(str, cards)))}, not mano negra"
        )
    elif rules.mano_negra == "first-trick" and table.tricks:
        table.issue(index, "declare-late", "mano negra counts only on the first trick under these rules")
    else:
        table.shown |= cards
        table.ended_by, table.decided = "mano-negra", rules.side_of(seat)


def _redeal(table: Table, index: int, event: Event) -> None:
    cards = event.cards or ()
    if not table.rules.virar:
        table.issue(index, "no-redeal", "virar la baraja is not played under these rules")
    elif table.plays or table.tricks:
        table.issue(index, "redeal-late", "a redeal is only possible before the first card is played")
    elif not moves.redeal_allowed(table.rules, cards, table.trump_suit):
        shown = " ".join(map(str, cards))
        table.issue(
            index,
            "bad-redeal",
            f"seat {event.seat} showed {shown}: a redeal needs a hand without points or trumps",
        )
    else:
        table.deal()


def _hand(table: Table, index: int, event: Event) -> None:
    seat, cards = event.seat, set(event.cards or ())
    assert seat is not None
    rules = table.rules
    on_table = any(player == seat for player, _ in table.plays)
    expected = min(rules.hand_size, rules.tricks - len(table.tricks)) - on_table
    problems = [
        problem for card in sorted(cards, key=str) if (problem := _card_problem(table, seat, card, False))
    ]
    if len(cards) != expected:
        problems.append(f"seat {seat} should hold {expected} cards, not {len(cards)}")
    for problem in problems:
        table.issue(index, "bad-hand", problem)
    table.known[seat] = cards
    table.full[seat] = True
    table.shown |= cards


def _not_in_rules(table: Table, index: int, event: Event) -> None:
    table.issue(
        index,
        "not-in-rules",
        f"{event.type} events belong to the bidding families, not to {table.rules.name}",
    )


#: One handler per event type: ``handler(table, index, event)``; a bidding family handles its own first.
HANDLERS: Final[dict[str, Callable[[Table, int, Event], None]]] = {
    "trump": _trump,
    "play": _play,
    "swap": _swap,
    "arrastre": _arrastre,
    "claim": _claim,
    "declare": _declare,
    "redeal": _redeal,
    "hand": _hand,
}
