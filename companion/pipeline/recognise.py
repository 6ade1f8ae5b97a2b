"""Recognition: table-state changes + the rules -> game events.

Vision proposes, rules dispose: each new card's fused probabilities are narrowed to the cards the
rules still allow (the engine's ``unseen``; for the trump spot, the current trump card or a swap
card), and the best consistent card is played by the seat whose turn the engine says it is, checked
against where it lies. A card that stays doubtful is played anyway while in view, flagged for
confirmation with its alternatives, so the game goes on and nothing is silently guessed. A trick is
gathered before the next is led: a card that shows while the last trick still lies there is held
back (one of its cards, moved or seen anew), and a card at the trump spot is no swap while the
face-up trump card is still seen there. A swap the camera missed shows when the card it took is
played: it goes into the record then (in the last drawing turn, when the last drawer was to take
that card). A card found only after the trick's last card, though it came to rest with it, was
tossed first (almost exactly onto the card under it) when that last card was brought from the side
of the seat to play next: the last play is amended to it, and the last card is played again by the
next seat; the log keeps both. A card played as a doubtful reading, nearly as likely another card,
was that other card when the card it was taken for is played later, surely read: the play is
amended, its flag settled. A swap seen at the trump spot goes to the seat to play, a guess amended
when another seat plays, surely read, the card it took; a card there that reads as neither the trump
card nor a card that may take its place (under the hand that swaps it) is watched until it does. A
card missed altogether (white print on a white card, a stalled stream) shows when two cards in a row
came from the sides of later seats than the rules expect, when the trick under way went from the
table a card short before the next lead came (from a side not to play, or clear of where the trick
lay), when a hand took the trick under way away, a card short or its last card from another side
than its seat's, from the side of the seat that won it (the winner takes the trick), or, a trick's
last card, when the card after the next lead came from the seat after the leader while the rules
gave the trick to another: the missed plays go into the log as flagged guesses
(:mod:`companion.pipeline.missed`), changed as their cards show up. Where the play area reaches into
the trump spot (many players), a card there is at the trump spot only near where the face-up trump
card lay. The camera does not see the hands: a play is not refused for a hand never shown (open
hands, ``brisca-descubierta``), which every card would be alike, though the engine still records it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from companion.cards import Card, Rank
from companion.engine import Event, Game, GameState, OpenResult, Trick, open_results, replay
from companion.engine.doubt import side_points
from companion.errors import IllegalAction
from companion.pipeline.config import RecogniseConfig
from companion.pipeline.missed import (
    guess_freed,
    left_in_turn,
    likely_of,
    missed_before,
    only_way,
    playable,
    read_otherwise,
    short_by,
    taken_lacking,
    taken_short,
    unread,
    won_by,
)
from companion.pipeline.track import TableCard, TableState
from companion.session import LiveSession, View
from companion.table.profile import CARD_MM, Layout
from companion.vision.readings import Face

Alternatives = tuple[tuple[Card, float], ...]

#: The engine's issues that no reading of a card can settle, since the camera does not see the hands.
UNSEEN_HANDS = frozenset({"hand-unknown"})


class Zones(Protocol):
    """Where things lie on the table (a ``TableProfile`` offers these)."""

    @property
    def layout(self) -> Layout: ...

    @property
    def stock_half_mm(self) -> float: ...

    def nearest_seat(self, point_mm: tuple[float, float] | np.ndarray) -> int: ...


@dataclass(frozen=True)
class Recognised:
    """One thing the recogniser told the game, for printing, evaluation and evidence.

    ``kind`` is one of ``trump``, ``play``, ``swap``, ``trick``, ``collected``,
    ``check`` (an earlier play flagged by what was seen since), ``game-over``; ``rest_t``
    is when the card behind it came to rest; ``doubt`` says why the event was flagged for
    confirmation (None when sure).
    """

    kind: str
    t: float
    text: str
    seat: int | None = None
    card: Card | None = None
    rest_t: float | None = None
    doubt: str | None = None
    alternatives: Alternatives = ()
    trick: int | None = None
    game: int = 1
    ids: frozenset[int] = frozenset()  # the table cards it concerns (a collected trick's)


@dataclass(frozen=True)
class Choice:
    """The best card the rules allow, how sure vision is of it, and why it is doubtful."""

    card: Card | None
    probability: float
    doubt: str | None
    alternatives: Alternatives


def at_trump_spot(zones: Zones, point_mm: tuple[float, float] | np.ndarray, margin: float) -> bool:
    """Whether a point lies in the stock zone or within ``margin`` mm of it, where the trump card
    sticks out from under the stock."""
    offset = np.abs(np.asarray(point_mm, dtype=np.float64) - zones.layout.stock)
    return bool(np.all(offset <= zones.stock_half_mm + margin))


def in_play(zones: Zones, point_mm: tuple[float, float] | np.ndarray, margin: float) -> bool:
    """Whether a point lies in the play area, or within ``margin`` mm of it (a card tossed a bit far)."""
    offset = np.asarray(point_mm, dtype=np.float64) - zones.layout.play_center
    return bool(np.linalg.norm(offset) <= zones.layout.play_radius + margin)


def choose(identity: Alternatives, allowed: Collection[Card], config: RecogniseConfig) -> Choice:
    """The most probable card of ``allowed`` given the fused ``identity``.

    Probabilities are renormalised over the allowed cards (a card already played
    cannot be played again); the reading is doubtful when little of vision's
    belief falls on allowed cards, or the best allowed card is not clearly ahead.
    """
    consistent = [(card, p) for card, p in identity if card in allowed]
    mass = sum(p for _, p in consistent)
    if not consistent or mass <= 0.0:
        seen = identity[0][0] if identity else "nothing"
        return Choice(None, 0.0, f"read as {seen}, which the rules do not allow here", identity[:3])
    ranked = tuple((card, p / mass) for card, p in consistent)
    (best, p_best), p_next = ranked[0], ranked[1][1] if len(ranked) > 1 else 0.0
    if mass < config.min_mass:
        doubt = f"read as {identity[0][0]} ({identity[0][1]:.2f}), which the rules exclude; {best} is allowed"
    elif p_best < config.sure or p_best - p_next < config.margin:
        doubt = f"unsure between {best} ({p_best:.2f}) and {ranked[1][0]} ({p_next:.2f})"
    else:
        doubt = None
    return Choice(best, p_best, doubt, ranked[:3])


@dataclass(frozen=True)
class Played:
    """A table card the recogniser played: its play's index in the log and the seat that played it,
    the reading it was played as, when it came to rest and was played, and the seat it was brought
    from (or lies before)."""

    ref: int
    seat: int
    choice: Choice
    rested: float
    t: float
    side: int
    sure: bool  # read surely, flagged at most for the side it came from
    at: tuple[float, float]  # where it lay (table mm)


@dataclass(frozen=True)
class Guess:
    """A missed or unread play's guessed card and the seat that played it (its flag is on the play),
    or the other reading a doubtful play was amended to."""

    card: Card
    seat: int


class Recogniser:
    """Stateful stage: ``update(table_state) -> [Recognised]``, applying events to a live session."""

    def __init__(self, session: LiveSession, zones: Zones, config: RecogniseConfig | None = None) -> None:
        self.session = session
        self.zones = zones
        self.config = config or RecogniseConfig()
        self.game = 1
        self._roles: dict[int, str] = {}  # card id -> "trump", "spot" (watched there), "play", "ignored"
        self._placed_at: dict[int, float] = {}
        self._uncollected: list[tuple[int, frozenset[int]]] = []  # (trick n, its card ids)
        self._trick_ids: list[int] = []
        self._plays: dict[int, Played] = {}  # table card id -> its play
        self._trump_at: tuple[float, float] | None = None  # where the face-up trump card was seen
        self._guesses: dict[int, Guess] = {}  # a missed or unread play's log index -> its guess
        self._unexplained: tuple[int, int] | None = None  # (card id, log length) no missed play explained
        self._last_seen: dict[int, float] = {}  # a trick card's id -> when it was last seen
        self._reached: dict[int, tuple[float, tuple[float, float]] | None] = {}  # a trick card's id ->
        # the last arm that reached over it unseen (when, where it crossed the edge), until it showed bare
        self._taken_tried: tuple[frozenset[int], int] | None = None  # (trick ids, log length) tried
        self._left_tried: tuple[frozenset[int], int] | None = None  # the same, for the cards left
        self._trick_gone_at: float | None = None  # when the table lost the last card of the trick under way
        self._cleared: dict[int, float] = {}  # trick cards seen taken away (their place seen bare) -> when
        self._over = False

    def update(self, table: TableState) -> list[Recognised]:
        out: list[Recognised] = []
        new = []
        for card in table.cards:
            if card.placed and card.face is Face.UP:
                self._placed_at.setdefault(card.id, table.t)
                if card.id not in self._roles:
                    new.append(card)
                elif self._roles[card.id] in ("trump", "spot") and not self._over:
                    if self._roles[card.id] == "trump":
                        self._trump_at = card.position
                    out += self._trump_replaced(card, table.t)
        present = {card.id for card in table.cards}
        self._last_seen.update(
            (card.id, card.last_seen) for card in table.cards if card.id in self._trick_ids
        )
        watched = set(self._trick_ids).union(*(ids for _, ids in self._uncollected))
        self._reached.update(  # the arm that took a card away reached over it before its place showed bare
            (card.id, card.reached_over)
            for card in table.cards
            if card.id in watched and card.id not in self._cleared
        )
        for taken in table.cleared.intersection(watched):
            self._cleared.setdefault(taken, table.t)
        if not self._trick_ids or present.intersection(self._trick_ids):
            self._trick_gone_at = None
        elif self._trick_gone_at is None:
            self._trick_gone_at = table.t
        out += self._collected(present, table.t)
        out += self._last_card_unseen(present, new, table.t)
        out += self._taken_by_hand(present, table.t)
        for card in self._in_turn(new):
            if self._lies_at_trump_spot(card):
                out += self._at_trump_spot(card, table) or []
            elif in_play(self.zones, card.position, self.config.play_margin):
                out += self._missed_before_last(card, table.t)
                taken = self._taken_short(card, table, present)  # where no missed play explains it
                if taken is None:  # a card of the trick, unseen since it came, may be gone: wait
                    break
                out += taken
                events = self._played(card, table)
                if events is None:  # a doubtful card is watched longer; later cards wait their turn
                    break
                out += events
        return out

    def _in_turn(self, cards: list[TableCard]) -> list[TableCard]:
        """``cards`` in the order they came to rest; of those that came to rest at one moment (found
        together as the table lay still: one tossed over the other before it did), the one brought
        from the side of the seat to play (or lying before it) comes first, else the first the
        tracker lists (the proposer finds cards on a pile from the one underneath). An arm brings
        one card: of several brought from one side, those first seen before the last were laid
        before it came near them (while the stream stalled), and where they lie tells their seat."""
        state = self.session.view().state
        seat = state.to_play
        rest = sorted(cards, key=lambda c: c.still_since)
        ordered = []
        while rest:
            together = self._one_arm_each([card for card in rest if card.still_since == rest[0].still_since])
            played = [
                card for card in together if in_play(self.zones, card.position, self.config.play_margin)
            ]
            first = next((card for card in played if self._played_from(card)[0] == seat), together[0])
            ordered.append(first)
            rest = [card for card in rest if card.id != first.id]
            if seat is not None and first in played:
                seat = (seat + 1) % state.rules.seats
        return ordered

    def _one_arm_each(self, together: list[TableCard]) -> list[TableCard]:
        """``together``, but for the cards in play brought from a side that another of them, first
        seen later, was brought from too, and lying clear of it (beyond half a card's short side):
        those without the side (:meth:`_played_from` then tells where they lie). An arm brings one
        card: the others lay there before it came near them. (A card lying mostly under the other
        keeps its side: the tracker lists the one underneath first.)"""

        def side(card: TableCard) -> int | None:
            if card.brought_from is None or not in_play(self.zones, card.position, self.config.play_margin):
                return None
            return self.zones.nearest_seat(card.brought_from)

        sides = {card.id: side(card) for card in together}
        last: dict[int, TableCard] = {}
        for card in together:
            seat = sides[card.id]
            if seat is not None and (seat not in last or card.first_seen > last[seat].first_seen):
                last[seat] = card

        def laid_before(card: TableCard) -> bool:
            seat = sides[card.id]
            if seat is None or card.first_seen >= last[seat].first_seen:
                return False
            return bool(np.hypot(*np.subtract(card.position, last[seat].position)) > min(CARD_MM) / 2)

        return [replace(card, brought_from=None) if laid_before(card) else card for card in together]

    # --- the trump spot ------------------------------------------------------------------

    def _lies_at_trump_spot(self, card: TableCard) -> bool:
        """Whether a new card lies at the trump spot: in its zone, and where the play area reaches
        into that zone too (with many players the stock lies near the middle), near where the
        face-up trump card lay, once it is known; a card farther away there was played."""
        if not at_trump_spot(self.zones, card.position, self.config.trump_margin):
            return False
        if self._trump_at is None or not in_play(self.zones, card.position, self.config.play_margin):
            return True
        return self._by_trump_card(card)

    def _by_trump_card(self, card: TableCard) -> bool:
        """Whether ``card`` lies within ``trump_reach`` of where the face-up trump card was seen."""
        if self._trump_at is None:
            return False
        return bool(np.hypot(*np.subtract(card.position, self._trump_at)) <= self.config.trump_reach)

    def _at_trump_spot(self, card: TableCard, table: TableState) -> list[Recognised] | None:
        state, t = self.session.view().state, table.t
        if self._over:
            self._next_deal()
            state = self.session.view().state
        if state.trump_card is None:
            choice = choose(card.identity, set(state.unseen), self.config)
            if not self._decided(choice, card, t):
                return None
            self._roles[card.id] = "ignored"
            if choice.card is None:  # no card at all: a shadow, an empty spot
                return []
            self._apply(Event("trump", card=choice.card), choice, t)
            self._roles[card.id] = "trump"
            return [self._event("trump", t, f"trump card {choice.card}", card, choice)]
        if state.face_up is None:  # the face-up card was drawn: what shows there now is no card
            self._roles[card.id] = "ignored"
            return []
        trump = state.face_up
        freed = self._guess_at_spot(card, trump, t)
        if freed:  # the swap is taken in the next frame, its card no longer a missed play's
            return freed
        swaps = swap_cards(state, trump)
        if _mass(card, {trump, *swaps}) < self.config.spot_mass:  # the stock, a shadow, a card under a hand
            self._roles[card.id] = "spot"  # watched: a card swapped under a hand reads once the hand lifts
            return []
        choice = choose(card.identity, {trump, *swaps}, self.config)
        if choice.card == trump:  # the same card, seen anew
            self._roles[card.id] = "trump"
            return []
        if self._face_up_shows(table, trump, card.still_since):  # not swapped: it is there, seen more whole
            return None
        if not self._decided(choice, card, t):
            return None
        self._roles[card.id] = "trump"
        if choice.card is None:  # neither the trump card nor a card that may replace it
            self._roles[card.id] = "ignored"
            return []
        seat = self._swap(choice, t)
        short = [] if seat is not None else self._short_before_swap(card, choice.card, table, t)
        if short:
            seat = self._swap(choice, t)
        if seat is None:
            why = choice.doubt or f"{choice.card} at the trump spot: no seat may swap it"
            flagged = replace(choice, doubt=why)
            return [self._event("swap", t, f"unexplained {choice.card} at the trump spot", card, flagged)]
        name = seat_name(self.session.view().state, seat)
        return [*short, self._event("swap", t, f"{name} swaps {trump} for {choice.card}", card, choice, seat)]

    def _guess_at_spot(self, card: TableCard, face_up: Card, t: float) -> list[Recognised]:
        """A card at the trump spot, surely read as a card guessed for a missed play that may take
        the place of ``face_up`` under the stock, was swapped for it: that play was another card,
        the likeliest that leaves every trick's winner as it was (:func:`guess_freed`)."""
        guessed = {guess.card for guess in self._guesses.values()}.intersection(takers_of(face_up))
        if card.card not in guessed or card.confidence < self.config.sure:
            return []
        ref = next(ref for ref, guess in self._guesses.items() if guess.card == card.card)
        return self._freed(ref, card.card, (), f"not the {card.card}, which lies at the trump spot now", t)

    def _short_before_swap(
        self, card: TableCard, swapped: Card, table: TableState, t: float
    ) -> list[Recognised]:
        """A swap for ``swapped`` no seat may make while the trick under way lacks its last card,
        every card of it gone from the table before ``card`` came to the trump spot: that trick was
        taken away, its last card played unseen, and the swap is the next move of the player who
        took it (a guess, the likeliest card after which a seat may swap, :func:`short_by`)."""
        if not self._trick_ids:
            return []
        present = {seen.id for seen in table.cards}
        if present.intersection(self._trick_ids) or self._trick_seen_since(card.still_since, t):
            return []
        view = self.session.view()

        def then_swaps(play: Event, after: GameState) -> bool:
            return _no_worse(
                view, (*view.record.events, play, Event("swap", seat=after.to_play, card=swapped))
            )

        guess = short_by(view.record, then_swaps)
        return [] if guess is None else self._played_unseen((guess,), present, t)

    def _face_up_shows(self, table: TableState, face_up: Card, since: float) -> bool:
        """Whether the card taken for the face-up trump card was seen where it lay, as itself, since
        ``since`` (when a card came to rest beside it): a swap takes it away. Once the stock is drawn,
        the whole of it shows, a second card beside its end that may be misread."""
        return any(
            self._roles.get(card.id) == "trump"
            and card.last_seen >= since
            and card.probability(face_up) >= self.config.sure
            for card in table.cards
        )

    def _trump_replaced(self, card: TableCard, t: float) -> list[Recognised]:
        """The card at the trump spot, watched on: once it is surely a card that may take the
        face-up one's place (swapped under a hand), the swap is played, as soon as the rules allow."""
        state = self.session.view().state
        if state.face_up is None:
            return []
        face_up = state.face_up
        swaps = swap_cards(state, face_up)
        if _mass(card, {face_up, *swaps}) < self.config.spot_mass:
            return []
        choice = choose(card.identity, {face_up, *swaps}, self.config)
        if choice.card in (None, face_up) or choice.doubt is not None:
            return []
        seat = self._swap(choice, t)
        if seat is None:
            return []
        self._roles[card.id] = "trump"
        name = seat_name(state, seat)
        return [self._event("swap", t, f"{name} swaps {face_up} for {choice.card}", card, choice, seat)]

    def _swap(self, choice: Choice, t: float) -> int | None:
        """Swap by the seat to play (the usual moment), else the first seat the rules allow: a guess,
        amended if another seat plays the card the swap took (:meth:`_swapped_by`)."""
        state = self.session.view().state
        first = state.to_play if state.to_play is not None else state.leader
        n = state.rules.seats
        for seat in [(first + k) % n for k in range(n)]:
            try:
                self._apply(Event("swap", seat=seat, card=choice.card), choice, t)
            except IllegalAction:
                continue
            return seat
        return None

    # --- plays ---------------------------------------------------------------------------------

    def _played(self, card: TableCard, table: TableState) -> list[Recognised] | None:
        state, t = self.session.view().state, table.t
        if self._over or state.trump_card is None:
            if self._over:
                self._roles[card.id] = "ignored"
                return []
            return None
        seat = state.to_play
        if seat is None:
            self._roles[card.id] = "ignored"
            return []
        misread = None
        if card.confidence >= self.config.sure and card.card in self._on_table():
            misread = self._misread_play(card, table)
            if misread is None:
                self._roles[card.id] = "ignored"  # a card of a trick still lying there, seen anew
                return []
        early = not state.current and bool(self._uncollected)  # a lead while the last trick lies there
        if early and t - self._placed_at[card.id] < self.config.gather_wait_s:
            return None  # a trick is gathered before the next is led: one of its cards, seen anew
        choice = choose(card.identity, self._allowed(state), self.config)
        if misread is None and not self._decided(choice, card, t):
            return None  # a misread found is decided at once: the other card may be hidden next
        if early and choice.doubt is None:
            choice = replace(
                choice, doubt=f"led while trick {self._uncollected[-1][0]} still lay on the table"
            )
        tricks_before = len(state.tricks)
        if choice.card is not None and self._under_last(card, seat, t, choice.doubt is None):
            reordered = self._reorder(card, choice, seat, t)
            if reordered:
                return reordered + self._closed(tricks_before, t)
        out = (
            self._swap_behind_play(card, seat, t)
            or self._swap_in_last_draw(card, seat, t)
            or self._swapped_by(choice, seat, t)
            or self._doubt_settled(card, seat, t, misread)
            or self._guess_taken(choice, seat, t)
        )
        if misread is not None and not out:
            self._roles[card.id] = "ignored"
            return []
        if out:
            state = self.session.view().state
            choice = choose(card.identity, self._allowed(state), self.config)
        held = self._played_by_holder(card, choice, seat, t)
        if held:
            return out + held + self._closed(tricks_before, t)
        lies_at, where = self._played_from(card)
        if lies_at != seat and not state.tricks and not state.current:
            state, seat = self._first_is(lies_at), lies_at
        seat_doubt = None
        if lies_at != seat and choice.doubt is None:
            seat_doubt = f"seat {seat} is to play but the card {where} seat {lies_at}"
            choice = replace(choice, doubt=seat_doubt)
        if choice.card is None:
            guessed = self._unread(card, choice, seat, t) if lies_at == seat else []
            if guessed:
                return out + guessed + self._closed(tricks_before, t)
            self._roles[card.id] = "ignored"
            unreadable = f"unreadable card before seat {lies_at}"
            return [*out, self._event("play", t, unreadable, card, choice, seat)]
        choice = self._play(seat, choice, t)
        self._roles[card.id] = "play"
        self._trick_ids.append(card.id)
        sure = choice.doubt in (None, seat_doubt)
        self._plays[card.id] = Played(
            self._last_ref(), seat, choice, card.still_since, t, lies_at, sure, card.position
        )
        name = seat_name(state, seat)
        out.append(self._event("play", t, f"{name} plays {choice.card}", card, choice, seat))
        return out + self._closed(tricks_before, t)

    def _played_by_holder(self, card: TableCard, choice: Choice, seat: int, t: float) -> list[Recognised]:
        """``card``, surely read, is one another seat is known to hold (the trump card it took in a
        swap, or drew last), and came from that seat's side: that seat played it, and the seats
        from ``seat``, the seat to play, up to it played unseen, guessed (:func:`missed_before`).
        Taken when the log has no more problems so. (From the side of the seat to play, it tells
        rather of a swap the camera missed.)"""
        view = self.session.view()
        holder = view.state.holder(choice.card) if choice.card is not None else None
        if holder in (None, seat) or choice.doubt is not None or self._played_from(card)[0] != holder:
            return []
        assert holder is not None
        record = view.record
        probe = replace(record, events=(*record.events, Event("play", seat=seat, card=choice.card)))
        found = missed_before(probe, len(record.events), holder)
        if found is None:
            return []
        first, *more, again = found
        missed = (replace(first, type="play", ref=None, seat=seat), *more)
        if not _no_worse(view, (*record.events, *missed, again)):
            return []
        evidence = f"the {choice.card} played next is known to be {seat_name(view.state, holder)}'s"
        out = [self._guessed(event, evidence, t) for event in missed]
        self._apply(again, choice, t)
        self._roles[card.id] = "play"
        self._trick_ids.append(card.id)
        self._plays[card.id] = Played(
            self._last_ref(), holder, choice, card.still_since, t, holder, True, card.position
        )
        text = f"{seat_name(view.state, holder)} plays {choice.card}"
        return [*out, self._event("play", t, text, card, choice, holder)]

    def _unread(self, card: TableCard, choice: Choice, seat: int, t: float) -> list[Recognised]:
        """``card``, brought from the side of ``seat``, the seat to play, landed but reads as no card
        the rules allow: ``seat`` played it, and its card is a guess (:func:`unread`), changed when
        that card is played later or the next lead shows who won the trick."""
        if card.brought_from is None:
            return []  # no arm seen bringing it: a card already there, seen anew
        view = self.session.view()
        guess = unread(view.record, choice.alternatives[0][0].suit if choice.alternatives else None)
        if guess is None or guess.card is None:
            return []
        guessed = Choice(guess.card, 0.0, f"{choice.doubt}: a guess", ())  # no pick the rules refuse
        self._apply(guess, guessed, t)
        ref = self._last_ref()
        self._guesses[ref] = Guess(guess.card, seat)
        self._roles[card.id] = "play"
        self._trick_ids.append(card.id)
        self._plays[card.id] = Played(ref, seat, guessed, card.still_since, t, seat, False, card.position)
        text = f"{seat_name(view.state, seat)} plays a card that could not be read: {guess.card}"
        return [self._event("play", t, text, card, guessed, seat)]

    def _settle_flags(self, ref: int) -> None:
        """Resolve the flags raised on the log's event ``ref``: the evidence since settled them."""
        for flag in self.session.view().flags:
            if flag.seq == ref:
                self.session.resolve(flag.id)

    def _last_ref(self) -> int:
        """The log index of the event applied last."""
        return len(self.session.view().record.events) - 1

    def _closed(self, tricks_before: int, t: float) -> list[Recognised]:
        """The trick done, and the game over, when the play just made did that."""
        after = self.session.view().state
        out = []
        if len(after.tricks) > tricks_before:
            out.append(self._trick_done(after, t))
        if after.complete and not self._over:
            self._over = True
            if self._guesses and only_way(self.session.view().record, self._guesses):
                for ref in self._guesses:  # the cards nobody else played, each in the one place left
                    self._settle_flags(ref)
            view = self.session.view()
            open_to = open_results(view.record, view.flagged_plays())[1:]
            out.append(Recognised("game-over", t, _result(after, open_to), game=self.game))
        return out

    def _under_last(self, card: TableCard, seat: int, t: float, sure: bool) -> bool:
        """Whether ``card`` was played before the trick's last card: it came to rest no later than
        that card, which was read surely and brought from the side of ``seat``, the seat to play now,
        but showed only after it was played (tossed almost exactly onto the card under it, it showed
        once the arm had gone; cards found at one moment are already in turn, see :meth:`_in_turn`).
        ``card`` read unsure (not ``sure``) must lie under that card, within a quarter of a card's
        short side of it: laid while the stream stalled, it showed with the card tossed onto it,
        read from what shows of it."""
        if not self._trick_ids:
            return False
        last = self._plays[self._trick_ids[-1]]
        if card.still_since > last.rested or t <= last.t or last.side != seat or not last.sure:
            return False
        return sure or np.hypot(*np.subtract(card.position, last.at)) <= min(CARD_MM) / 4

    def _reorder(self, card: TableCard, choice: Choice, seat: int, t: float) -> list[Recognised]:
        """Amend the trick's last play to ``card`` (the seat before ``seat`` played it) and play the
        last card again, by ``seat``; nothing changes when the engine would find more problems in
        that log than now. The last play's flag (its card came from the side of ``seat``) is settled."""
        view = self.session.view()
        state, last_id = view.state, self._trick_ids[-1]
        last, before = self._plays[last_id], (seat - 1) % state.rules.seats
        again = replace(last.choice, doubt=None)
        amend = Event("amend", ref=last.ref, card=choice.card)
        play = Event("play", seat=seat, card=again.card)
        if not _no_worse(view, (*view.record.events, amend, play)):
            return []
        self._settle_flags(last.ref)
        self._apply(amend, choice, t)
        self._apply(play, again, t)
        self._roles[card.id] = "play"
        self._trick_ids.insert(-1, card.id)
        self._plays[card.id] = Played(
            last.ref, before, choice, card.still_since, last.t, before, True, card.position
        )
        # the last card, brought from the side of ``seat``, is played again by it
        self._plays[last_id] = replace(last, ref=self._last_ref(), seat=seat)
        text = f"{seat_name(state, before)} played {choice.card}, found under {again.card} when the arm left"
        replayed = self._event("play", t, f"{seat_name(state, seat)} plays {again.card}", card, again, seat)
        return [
            self._event("amend", t, text, card, choice, before),
            replace(replayed, rest_t=last.rested),
        ]

    def _played_from(self, card: TableCard) -> tuple[int, str]:
        """The seat that put ``card`` there, and how that shows: the side the arm that brought it
        reached in from, else where it lies."""
        if card.brought_from is not None:
            return self.zones.nearest_seat(card.brought_from), "was brought from the side of"
        return self.zones.nearest_seat(card.position), "lies before"

    def _swap_behind_play(self, card: TableCard, seat: int, t: float) -> list[Recognised]:
        """``seat`` plays the face-up trump card: it must have swapped it, unseen (under a hand).
        The swap is added when vision is sure of the card and the rules let it happen now."""
        state = self.session.view().state
        face_up = state.face_up
        if face_up is None or state.stock == 0 or card.probability(face_up) < self.config.sure:
            return []
        for taker in swap_cards(state, face_up):
            choice = Choice(taker, card.probability(face_up), None, ())
            try:
                self._apply(Event("swap", seat=seat, card=taker), choice, t)
            except IllegalAction:
                continue
            name = seat_name(state, seat)
            text = f"{name} swapped {face_up} for {taker} (seen when the {face_up} was played)"
            return [self._event("swap", t, text, card, choice, seat)]
        return []

    def _swapped_by(self, choice: Choice, seat: int, t: float) -> list[Recognised]:
        """``seat`` plays the card a swap seen at the trump spot took, a swap given to another seat
        (the seat to play, where nothing showed who swapped): ``seat`` swapped. The swap is amended
        when vision is sure of the card and the log, with this play, replays with no more problems."""
        view = self.session.view()
        state, events = view.state, view.record.events
        swap = next((s for s in state.swaps if s.took == choice.card and s.seat != seat), None)
        if swap is None or choice.doubt is not None or events[swap.event].source != "camera":
            return []
        amend = Event("amend", ref=swap.event, seat=seat)
        if not _no_worse(view, (*events, amend, Event("play", seat=seat, card=choice.card))):
            return []
        self._apply(amend, choice, t)
        name = seat_name(state, seat)
        text = f"{name} swapped {swap.put} for {swap.took} (seen when the {swap.took} was played)"
        return [Recognised("amend", t, text, seat=seat, card=swap.put, game=self.game)]

    def _doubt_settled(self, card: TableCard, seat: int, t: float, misread: int | None) -> list[Recognised]:
        """``card`` is surely a card played before, in this game, as a doubtful reading (or from the
        table card ``misread``, :meth:`_misread_play`) nearly as likely another card still unseen:
        that play was the other card. The play is amended, its flag settled, when the log with
        ``card`` played by ``seat`` replays with no more problems. The other card is a guess still:
        played later too, it frees the play (:meth:`_guess_taken`). A card ``misread`` whose
        readings the rules allow no other card is amended to a flagged guess, of the suit it was
        played as first (:func:`likely_of`)."""
        view = self.session.view()
        allowed = playable(view.state)
        if card.card is None or card.confidence < self.config.sure or card.card in allowed:
            return []
        doubtful = (i for i, p in self._plays.items() if p.choice.card == card.card and not p.sure)
        earlier = misread if misread is not None else next(doubtful, None)
        if earlier is None:
            return []
        play = self._plays[earlier]
        taken = play.choice
        read = [(c, p) for c, p in taken.alternatives if c != card.card and c in allowed][:1]
        next_p = read[0][1] if read else 0.0
        sure = taken.probability >= self.config.sure and taken.probability - next_p >= self.config.margin
        if sure and earlier != misread:  # a sure reading gives way only to a card lying there at once
            return []
        tried = read
        if misread is not None:
            left = likely_of(allowed - {card.card}, view.state.trump_suit, card.card.suit)
            tried = [*read, *((c, 0.0) for c in left)]
        now = Event("play", seat=seat, card=card.card)
        other = next(
            (
                (c, p)
                for c, p in tried
                if _no_worse(view, (*view.record.events, Event("amend", ref=play.ref, card=c), now))
            ),
            None,
        )
        if other is None:
            return []
        amend = Event("amend", ref=play.ref, card=other[0])
        name = seat_name(view.state, play.seat)
        doubt = None  # read nearly as likely: that card; read surely once, only the next card it was read as
        if sure or other not in read:
            doubt = f"{name}'s card was read as {card.card}, which lies elsewhere, surely read: a guess"
        self._settle_flags(play.ref)
        settled = Choice(other[0], other[1], doubt, taken.alternatives)
        self._apply(amend, settled, t)
        self._plays[earlier] = replace(play, choice=settled, sure=doubt is None)
        self._guesses[play.ref] = Guess(other[0], play.seat)  # the other reading: a guess still
        text = f"{name} played {other[0]}, not {card.card}: the {card.card} is played now, surely read"
        if doubt:
            text += f" [check: {doubt}]"
        return [Recognised("amend", t, text, seat=play.seat, card=other[0], doubt=doubt, game=self.game)]

    def _swap_in_last_draw(self, card: TableCard, seat: int, t: float) -> list[Recognised]:
        """``seat`` plays the card that lay face up when the stock ran out, which the engine gave the
        last drawer: it swapped it in the last drawing turn, a moment before the last drawer took
        it. The swap goes into the record there when vision is sure of the card and the record,
        with the swap and this play, replays with no more problems than before (the card put face
        up instead may have been played since, by the last drawer)."""
        view = self.session.view()
        state, record = view.state, view.record
        rules = state.rules
        face_up = state.swaps[-1].put if state.swaps else state.trump_card
        if (
            state.stock != 0
            or face_up is None
            or face_up in state.played
            or len(state.tricks) < rules.draw_rounds
        ):
            return []
        if card.probability(face_up) < self.config.sure or any(
            e.type not in ("trump", "play", "swap") for e in record.events
        ):
            return []
        plays = [i for i, event in enumerate(record.events) if event.type == "play"]
        turn = plays[rules.draw_rounds * rules.seats - 1] + 1  # the last drawing turn came after that play
        p = card.probability(face_up)
        for taker in takers_of(face_up):
            swap = Event(
                "swap",
                seat=seat,
                card=taker,
                t=record.events[turn - 1].t,
                source="camera",
                confidence=round(p, 4),
            )
            events = (*record.events[:turn], swap, *record.events[turn:])
            if not _no_worse(view, (*events, Event("play", seat=seat, card=face_up))):
                continue
            self.session.load(replace(record, events=events), view.setup)
            name = seat_name(state, seat)
            text = f"{name} swapped {face_up} for {taker} in the last drawing turn (seen when it was played)"
            return [self._event("swap", t, text, card, Choice(taker, p, None, ()), seat)]
        return []

    # --- missed plays ---------------------------------------------------------------------------

    def _missed_before_last(self, card: TableCard, t: float) -> list[Recognised]:
        """``card``, new and surely read, was brought from the side of a seat not to play, and so
        was the last card played (or that card closed a trick the rules gave another seat): the
        camera missed a card before that one, or misread one. Either a guessed card of the trick
        before it (the last card led) was one that left that trick to the side the lead came from
        (:func:`won_by`), or a card of it read unsure, or brought from the side of another seat than
        the one it was given to, was another card it was read as that did
        (:func:`read_otherwise`), or the seats from the one the last card was given to, up to the one
        it came from, played unseen (:func:`missed_before`; the last card's own seat, whose card in
        the trick was missed, when it won the trick and led that card). Taken when it leaves the
        side of ``card`` to play and the log with no more problems; the last play's flag (the side
        it came from) is settled."""
        if self._over or not self._plays or card.brought_from is None or card.confidence < self.config.sure:
            return []  # every new card in every frame: the cheap tests first
        view = self.session.view()
        state, record = view.state, view.record
        if state.to_play is None or card.card in self._on_table():
            return []
        side = self.zones.nearest_seat(card.brought_from)
        last_id = max(self._plays, key=lambda i: self._plays[i].ref)
        last = self._plays[last_id]
        tried = (card.id, len(record.events))
        if side == state.to_play or not last.sure or tried == self._unexplained:
            return []
        if last.side == last.seat and (state.current or state.tricks[-1].winner == last.seat):
            return []  # the last card came in turn, and led or won (its trick's card may have been missed)
        explanations = (
            (lambda: won_by(record, last.ref, self._guesses, last.side), self._tell_won_by),
            (
                lambda: read_otherwise(record, last.ref, self._unsure_reads(), last.side),
                self._tell_read_otherwise,
            ),
            (lambda: missed_before(record, last.ref, last.side, side), self._tell_missed),
        )
        for explain, tell in explanations:  # each only where those before it explain nothing
            events = explain()
            if events is None:
                continue
            if _leaves_to(view, events, side) is not None:
                self._settle_flags(last.ref)
                return tell(last_id, events, t)
        self._unexplained = tried  # not asked again while the card waits and nothing is played
        return []

    def _taken_short(self, card: TableCard, table: TableState, present: set[int]) -> list[Recognised] | None:
        """The trick under way, one card short, was taken away whole, its last card played unseen,
        and ``card``, surely read, leads the next: the trump card under the stock stayed in view
        (unless the draw after this trick takes it), and either ``card`` came from the side of a seat
        not to play and every card of the trick was last seen before it came to rest, or it came
        from the side of the seat to play, every card of the trick had gone from the table when it
        came to rest, and it lies clear of where they lay, as they lay clear of each other (none was
        hidden under a card tossed over it). The missed card is a guess (:func:`taken_short`): the
        likeliest that leaves the trick to the side ``card`` came from. None while a card of the
        trick, unseen since ``card`` came from a side not to play, is not yet gone for the tracker
        (it may be under a hand), or while the cards of the trick, unseen since ``card`` came from
        the side to play, lay clear of it and are not yet seen taken away nor gone
        (:meth:`_unseen_beside`): ``card`` waits."""
        if not self._trick_ids or card.brought_from is None or self._over:
            return []  # every new card in every frame: the cheap tests first
        t = table.t
        if self._trick_seen_since(card.still_since, t):
            return []  # a card of the trick seen since: so it had not gone either
        view = self.session.view()
        state = view.state
        last_draw = state.stock <= state.rules.seats  # the trump card goes with the draw after this trick
        trump_seen = last_draw or any(self._at_the_stock(seen) for seen in table.cards)
        if card.confidence < self.config.sure or card.card not in self._allowed(state) or not trump_seen:
            return []
        side = self.zones.nearest_seat(card.brought_from)
        in_turn = side == state.to_play
        if in_turn and not self._gone_clear(card, present):
            return None if present.intersection(self._trick_ids) and self._unseen_beside(card) else []
        guess = taken_short(view.record, side)
        if guess is None or guess.card is None or guess.seat is None:
            return []
        if not in_turn and present.intersection(self._trick_ids):
            return None
        return self._played_unseen((guess,), present, t)

    def _taken_by_hand(self, present: set[int], t: float) -> list[Recognised]:
        """The trick under way went from the table, a card of it seen taken away (its place seen
        bare), with an arm that reached over its cards while they went unseen, after its last card
        came to rest and before that place showed bare: the seat on that arm's side won the trick
        (the winner takes it). Its last card brought from the side of a seat after the one it was
        given to, the seats from that one on played unseen (:meth:`_taken_after_missed`); else the
        cards it lacks were played unseen, guesses that leave the trick to that seat
        (:func:`taken_lacking`)."""
        if self._over or not self._trick_ids or present.intersection(self._trick_ids):
            return []  # every frame: the cheap tests first
        arms = self._taking_arms(self._trick_ids)
        if not arms:
            return []
        view = self.session.view()
        state, record = view.state, view.record
        tried = (frozenset(self._trick_ids), len(record.events))
        if tried == self._taken_tried:
            return []
        self._taken_tried = tried
        side = self._taker(arms)
        missed = self._taken_after_missed(side, present, t)
        if missed:
            return missed
        guesses = taken_lacking(record, side)
        if guesses is None:
            return []
        evidence = f"the trick was taken away without it, by the hand of {seat_name(state, side)}"
        return self._played_unseen(guesses, present, t, evidence)

    def _taking_arms(self, ids: Collection[int]) -> list[tuple[float, tuple[float, float]]]:
        """The arms (when, where they crossed the edge) that took the cards ``ids`` away: the last
        arm that reached over each while it went unseen, after the last of them came to rest and
        before their place first showed bare (none where no place showed bare)."""
        bare = min((self._cleared[i] for i in ids if i in self._cleared), default=None)
        if bare is None:
            return []
        rested = max(self._plays[i].rested for i in ids)
        arms = [self._reached.get(i) for i in ids]
        return [arm for arm in arms if arm is not None and rested < arm[0] <= bare]

    def _taker(self, arms: Sequence[tuple[float, tuple[float, float]]]) -> int:
        """The seat on whose side the latest of ``arms`` (:meth:`_taking_arms`) reached in."""
        return self.zones.nearest_seat(max(arms)[1])

    def _taken_by_other(self, n: int, ids: frozenset[int], t: float) -> list[Recognised]:
        """Trick ``n``, complete, collected: where every arm that took it away, once its last card was
        played, came from another side than its winner's (as its cards were read), the trick's least
        surely read play is flagged: the winner takes the trick, so one of its cards may have been
        misread. (An arm from the winner's side among them may have taken it: with six at the
        table, an arm reaching in between two seats may be either's.)"""
        state = self.session.view().state
        plays = [self._plays[i] for i in ids if i in self._plays]
        arms = self._taking_arms(ids) if len(plays) == len(ids) and n <= len(state.tricks) else []
        done = max((play.t for play in plays), default=t)
        arms = [arm for arm in arms if arm[0] > done]  # not the arm that brought the last card
        if not arms:
            return []
        winner = state.tricks[n - 1].winner
        sides = {state.rules.side_of(self.zones.nearest_seat(edge)) for _, edge in arms}
        if state.rules.side_of(winner) in sides:
            return []
        side = self._taker(arms)
        doubt = (
            f"trick {n} was taken away by the hand of {seat_name(state, side)}, "
            f"but its cards as read give it to {seat_name(state, winner)}"
        )
        least = min(plays, key=lambda play: (play.choice.probability, play.ref))
        self.session.question(least.ref, doubt, least.choice.alternatives)
        text = f"trick {n}: {seat_name(state, least.seat)}'s {least.choice.card} [check: {doubt}]"
        return [
            Recognised(
                "check",
                t,
                text,
                seat=least.seat,
                card=least.choice.card,
                doubt=doubt,
                alternatives=least.choice.alternatives,
                trick=n,
                game=self.game,
            )
        ]

    def _taken_after_missed(self, side: int, present: set[int], t: float) -> list[Recognised]:
        """The last card of the trick under way was brought from the side of a seat after the one
        it was given to, and ``side``'s hand took the trick: the seats from the one it was given to
        on played unseen, guesses that close the trick and leave it to ``side``
        (:func:`missed_before`), and the card was its side's."""
        view = self.session.view()
        record = view.record
        last_id = max(self._trick_ids, key=lambda i: self._plays[i].ref)
        last = self._plays[last_id]
        if last.side == last.seat or last.ref != len(record.events) - 1:
            return []
        events = missed_before(record, last.ref, last.side, side)
        if events is None:
            return []
        after = _leaves_to(view, events, side)
        if after is None or after.current:
            return []
        self._settle_flags(last.ref)
        return [*self._tell_missed(last_id, events, t), *self._collected(present, t)]

    def _at_the_stock(self, card: TableCard) -> bool:
        """Whether ``card`` is the trump card under the stock, or lies where it lies (the card seen
        there may be one the rules no longer expect there: a swap taken for a missed play)."""
        return self._roles.get(card.id) == "trump" or self._by_trump_card(card)

    def _unseen_beside(self, card: TableCard) -> bool:
        """Whether every card of the trick under way, none seen since ``card`` came to rest, lay
        beyond its half length from it: not under it, so taken away or under a hand. ``card`` waits
        while they are so, until the table shows their places bare or the tracker drops them."""
        spots = [self._plays[i].at for i in self._trick_ids]
        return all(np.hypot(*np.subtract(spot, card.position)) > max(CARD_MM) / 2 for spot in spots)

    def _trick_seen_since(self, since: float, t: float) -> bool:
        """Whether a card of the trick under way was seen at or after ``since`` (a card with no
        sighting kept counts as seen at ``t``, now)."""
        return max(self._last_seen.get(i, t) for i in self._trick_ids) >= since

    def _played_unseen(
        self,
        guesses: Sequence[Event],
        present: set[int],
        t: float,
        evidence: str = "the trick was taken away without it",
    ) -> list[Recognised]:
        """The guessed last plays of a trick taken away without them, applied and told, and the
        trick done and collected."""
        told = [self._guessed(guess, evidence, t) for guess in guesses]
        return [*told, self._trick_done(self.session.view().state, t), *self._collected(present, t)]

    def _guessed(
        self, event: Event, evidence: str, t: float, seat: int | None = None, ref: int | None = None
    ) -> Recognised:
        """Apply ``event``, a guess of the card ``seat`` (the event's, when None) played unseen
        (``evidence``: how that shows), remembered under the log index ``ref`` of the play it makes
        (the new entry when None), and tell it, flagged."""
        seat = event.seat if seat is None else seat
        assert seat is not None and event.card is not None
        name = seat_name(self.session.view().state, seat)
        why = f"{name}'s card was not seen ({evidence}): a guess"
        self._apply(event, Choice(event.card, 0.0, why, ()), t)
        self._guesses[self._last_ref() if ref is None else ref] = Guess(event.card, seat)
        text = f"{name} played a card the camera missed: {event.card} [check: {why}]"
        return Recognised("play", t, text, seat=seat, card=event.card, doubt=why, game=self.game)

    def _gone_clear(self, card: TableCard, present: set[int]) -> bool:
        """Whether the cards of the trick under way were seen taken away (their places seen bare),
        but for those gone from the table before (hidden under them), or had gone from the table
        when ``card`` came to rest and lay clear of it and of each other: taken away, not covered."""
        cleared = self._cleared.keys() & set(self._trick_ids)
        if cleared and not present.intersection(set(self._trick_ids) - cleared):
            return True
        gone = self._trick_gone_at
        if gone is None or gone > card.still_since:
            return False
        spots = [self._plays[i].at for i in self._trick_ids] + [card.position]
        reach = max(CARD_MM)
        return all(np.hypot(*np.subtract(a, b)) > reach for i, a in enumerate(spots) for b in spots[:i])

    def _tell_won_by(self, last_id: int, events: tuple[Event, ...], t: float) -> list[Recognised]:
        """Apply :func:`won_by`'s amendments: a guess changed, the lead given to the trick's winner."""
        guess_amend, lead_amend = events
        reguessed = self._reguess(guess_amend, "one that leaves the trick to the seat that led next", t)
        return [reguessed, *self._lead_given(last_id, lead_amend, t)]

    def _unsure_reads(self) -> dict[int, list[Card]]:
        """The plays read unsure, or flagged for the side they came from (their arrival was not as
        told, so neither may their reading be), by log index, each with the other cards it was
        read as."""
        return {
            play.ref: [card for card, _ in play.choice.alternatives if card != play.choice.card]
            for play in self._plays.values()
            if (not play.sure or play.side != play.seat) and play.choice.alternatives
        }

    def _tell_read_otherwise(self, last_id: int, events: tuple[Event, ...], t: float) -> list[Recognised]:
        """Apply :func:`read_otherwise`'s amendments: a play read unsure changed to another card it was
        read as, flagged in place of its flag before, and the lead given to the trick's winner."""
        amend, lead_amend = events
        assert amend.card is not None
        earlier = next(i for i, play in self._plays.items() if play.ref == amend.ref)
        play = self._plays[earlier]
        name = seat_name(self.session.view().state, play.seat)
        doubt = (
            f"read as {play.choice.card} or {amend.card}: the {amend.card} leaves the trick to the next lead"
        )
        p = dict(play.choice.alternatives).get(amend.card, 0.0)
        choice = Choice(amend.card, p, doubt, play.choice.alternatives)
        self._settle_flags(amend.ref)
        self._apply(amend, choice, t)
        self._plays[earlier] = replace(play, choice=choice)
        text = f"{name} played {amend.card}, not {play.choice.card} [check: {doubt}]"
        told = Recognised("amend", t, text, seat=play.seat, card=amend.card, doubt=doubt, game=self.game)
        return [told, *self._lead_given(last_id, lead_amend, t)]

    def _lead_given(self, last_id: int, lead_amend: Event, t: float) -> list[Recognised]:
        """Give the last card played, a lead, to the seat it came from, the trick before's winner
        now; tell that trick again, and the lead."""
        last = self._plays[last_id]
        self._apply(lead_amend, replace(last.choice, doubt=None), t)
        self._plays[last_id] = replace(last, seat=last.side)
        state = self.session.view().state
        lead = f"{seat_name(state, last.side)} plays {last.choice.card}"
        return [
            self._trick_told(state.tricks[-1], t),
            Recognised("play", t, lead, last.side, last.choice.card, last.rested, game=self.game),
        ]

    def _tell_missed(self, last_id: int, events: tuple[Event, ...], t: float) -> list[Recognised]:
        """Apply :func:`missed_before`'s events: the missed plays guessed, the last card played again
        by the seat it came from, flagged still where its reading was in doubt."""
        last, state = self._plays[last_id], self.session.view().state
        tricks_before = len(state.tricks) - (not state.current)  # before the last card, the log's last play
        *missed, again = events
        evidence = (
            "it won the trick, and the card after its lead came from the seat after it"
            if again.seat == last.seat
            else "the next cards came from the seats after it"
        )
        # the first missed play amends the last card's log entry, and names no seat: that card's
        out = [self._guessed(event, evidence, t, last.seat, last.ref) for event in missed[:1]]
        out += [self._guessed(event, evidence, t) for event in missed[1:]]
        read = replace(last.choice, doubt=None if last.sure else last.choice.doubt)
        self._apply(again, read, last.t)
        self._plays[last_id] = replace(last, ref=self._last_ref(), seat=last.side)
        text = f"{seat_name(state, last.side)} plays {last.choice.card}"
        if read.doubt:
            text += f" [check: {read.doubt}]"
        again_told = Recognised(
            "play", t, text, last.side, last.choice.card, last.rested, doubt=read.doubt, game=self.game
        )
        told = self._retold_trick(last_id, tricks_before, t)
        leads = self._trick_ids == [last_id] and bool(told)  # after the trick the missed plays closed
        return [*out, *told, again_told] if leads else [*out, again_told, *told]

    def _retold_trick(self, moved: int, tricks_before: int, t: float) -> list[Recognised]:
        """Which table cards lie in which trick, once missed plays went in before the play of
        ``moved`` (that card may now lead the next trick, or close its own): the trick the missed
        plays closed is told again."""
        state = self.session.view().state
        entry = next((e for e in self._uncollected if moved in e[1]), None)
        ids = [i for i in self._trick_ids if i != moved]
        if entry is not None:  # the card had closed the trick, as it was played before
            self._uncollected.remove(entry)
            ids = [*entry[1] - {moved}]
        if len(state.tricks) == tricks_before:
            self._trick_ids = [*ids, moved]
            return []
        leads = bool(state.current)
        self._trick_ids = ids if leads else [*ids, moved]
        told = self._trick_done(state, t)
        self._trick_ids = [moved] if leads else []
        return [told]

    def _guess_taken(self, choice: Choice, seat: int, t: float) -> list[Recognised]:
        """``seat`` plays, surely read, the card guessed for a missed play: that play was another
        card, the likeliest that leaves every trick's winner as it was (:func:`guess_freed`)."""
        ref = next((r for r, g in self._guesses.items() if g.card == choice.card), None)
        if ref is None or choice.doubt is not None or choice.card is None:
            return []
        play = Event("play", seat=seat, card=choice.card)
        return self._freed(ref, choice.card, (play,), f"not the {choice.card}, which is played now", t)

    def _freed(self, ref: int, card: Card, then: tuple[Event, ...], why: str, t: float) -> list[Recognised]:
        """The guess ``ref`` was not ``card`` (``why``, ``then``: the events that show it): it
        becomes the likeliest card that leaves every trick's winner as it was, with no more problems
        once ``then`` follows (:func:`guess_freed`). Where only another guess's card does, that
        guess takes a card left."""
        view = self.session.view()
        others = {other: guess.card for other, guess in self._guesses.items()}
        amends = guess_freed(view.record, ref, card, others)
        if amends is None or not _no_worse(view, (*view.record.events, *amends, *then)):
            return []
        first, *more = amends  # more: the other guess that gave up its card, if any
        name = seat_name(view.state, self._guesses[ref].seat)
        told = [self._reguess(first, why, t)]
        return told + [self._reguess(a, f"not the {first.card}, now {name}'s missed play", t) for a in more]

    def _reguess(self, amend: Event, why: str, t: float) -> Recognised:
        """Amend a missed play's guess to another card (``why``: which), flagged in place of the
        guess before."""
        guess = self._guesses[amend.ref]
        self._settle_flags(amend.ref)
        name = seat_name(self.session.view().state, guess.seat)
        doubt = f"{name}'s card was not read: a guess, {why}"
        self._apply(amend, Choice(amend.card, 0.0, doubt, ()), t)
        self._guesses[amend.ref] = replace(guess, card=amend.card)
        text = f"{name} played a card the camera missed: {amend.card}, not {guess.card} [check: {doubt}]"
        return Recognised("amend", t, text, seat=guess.seat, card=amend.card, doubt=doubt, game=self.game)

    def _last_card_unseen(self, present: set[int], new: list[TableCard], t: float) -> list[Recognised]:
        """The game's last trick, short of as many cards as are left, was taken away: the seats to
        play played those cards unseen (:func:`left_in_turn`). One card short, that card is sure,
        unless guesses of cards missed before are still open: it is what they leave, a guess too.
        More, which seat played which is a guess, and a card of the trick must have been seen taken
        away (its place seen bare), not just gone. (While a card not yet played lies in play, the
        trick's cards may only be hidden, and that card the next: it is read first.)"""
        if self._over or not self._trick_ids or set(self._trick_ids) & present:
            return []  # every frame: the cheap tests first
        if any(in_play(self.zones, card.position, self.config.play_margin) for card in new):
            return []
        view = self.session.view()
        state, record = view.state, view.record
        short = state.rules.seats - len(state.current)
        if short > 1 and not self._cleared.keys() & set(self._trick_ids):
            return []  # so many unseen at once may only lie under an arm: seen taken away only
        tried = (frozenset(self._trick_ids), len(record.events))
        if tried == self._left_tried:
            return []
        self._left_tried = tried
        plays = left_in_turn(record)
        if plays is None:
            return []
        tricks_before = len(state.tricks)
        if len(plays) > 1:
            evidence = "the last trick was taken away without it: one of the cards left"
            told = [self._guessed(play, evidence, t) for play in plays]
            return [*told, *self._closed(tricks_before, t)]
        (play,) = plays
        seat, card = play.seat, play.card
        assert seat is not None and card is not None
        name = seat_name(state, seat)
        guessed = {
            flag.seq for flag in view.flags
        } & self._guesses.keys()  # open guesses: it is what they leave
        doubt = f"{name}'s card was not seen: a guess, the card the guesses before leave" if guessed else None
        choice = self._play(seat, Choice(card, 0.0 if guessed else 1.0, doubt, ()), t)
        if guessed:
            self._guesses[self._last_ref()] = Guess(card, seat)
        text = f"{name} plays {card}: the one card left, taken away before it showed"
        flag = f" [check: {choice.doubt}]" if choice.doubt else ""
        played = Recognised("play", t, text + flag, seat, card, doubt=choice.doubt, game=self.game)
        return [played, *self._closed(tricks_before, t)]

    def _allowed(self, state: GameState) -> set[Card]:
        """The cards a new card may be read as: those that may still come out of a hand, and the
        cards guessed for missed plays (a guess is changed when its card is played)."""
        return playable(state) | {guess.card for guess in self._guesses.values()}

    def _misread_play(self, card: TableCard, table: TableState) -> int | None:
        """The table card played as the card ``card`` is surely read as, where it lies on the
        ``table`` apart from ``card`` and is read less than surely as that card: one of the two was
        misread, and the sure reading tells which (:meth:`_doubt_settled`, :meth:`_guess_taken`).
        None where ``card`` may be that card seen anew. Apart: seen now beyond a quarter of a card's
        short side from it, or, unseen now (an arm over it), beyond that whole side (a card nudged
        may be found anew near where it lies remembered)."""
        short = min(CARD_MM)
        for other in table.cards:
            play = self._plays.get(other.id)
            if (
                play is None
                or play.choice.card != card.card
                or other.probability(card.card) >= self.config.sure
            ):
                continue
            gap = float(np.hypot(*np.subtract(card.position, other.position)))
            if gap > (short / 4 if other.last_seen >= table.t else short):
                return other.id
        return None

    def _on_table(self) -> set[Card]:
        """Cards played and still lying on the table: this trick's and uncollected ones'."""
        ids = [*self._trick_ids, *(i for _, trick in self._uncollected for i in trick)]
        cards = (self._plays[i].choice.card for i in ids if i in self._plays)
        return {card for card in cards if card is not None}

    def _first_is(self, seat: int) -> GameState:
        """The first card of the game lies before ``seat``: that seat leads (the record is restarted
        with it as ``first``, its events replayed through the engine). A swap seen before it was
        given to the seat then taken to lead, the seat to play (see :meth:`_swap`): it is ``seat``'s."""
        view = self.session.view()
        old = view.record.first
        events = tuple(
            replace(event, seat=seat) if event.type == "swap" and event.seat == old else event
            for event in view.record.events
        )
        record = replace(view.record, first=seat, events=events)
        self.session.load(record, replace(view.setup, first=seat))
        return self.session.view().state

    def _trick_done(self, state: GameState, t: float) -> Recognised:
        trick = state.tricks[-1]
        self._uncollected.append((trick.n, frozenset(self._trick_ids)))
        self._trick_ids = []
        return self._trick_told(trick, t)

    def _trick_told(self, trick: Trick, t: float) -> Recognised:
        """A trick done, for the console and the scoreboard."""
        state = self.session.view().state
        cards = " ".join(str(card) for _, card in trick.plays)
        text = (
            f"trick {trick.n}: {cards} -> {seat_name(state, trick.winner)} wins {trick.points} "
            f"({trick.reason}); points {_points(side_points(state))}"
        )
        return Recognised("trick", t, text, seat=trick.winner, trick=trick.n, game=self.game)

    def _collected(self, present: set[int], t: float) -> list[Recognised]:
        done = [(n, ids) for n, ids in self._uncollected if not ids & present]
        self._uncollected = [item for item in self._uncollected if item not in done]
        return [
            event
            for n, ids in done
            for event in (*self._taken_by_other(n, ids, t), self._collect_event(n, ids, t))
        ]

    def _collect_event(self, n: int, ids: frozenset[int], t: float) -> Recognised:
        return Recognised("collected", t, f"trick {n} collected", trick=n, game=self.game, ids=ids)

    # --- helpers ---------------------------------------------------------------------------------

    def _decided(self, choice: Choice, card: TableCard, t: float) -> bool:
        """Sure now, or doubtful for longer than the config lets a card be watched and seen now: a
        doubtful card not seen since (a hand resting on a pile a moment, taken for a card) waits
        until it shows again, or is gone."""
        if choice.doubt is None:
            return True
        return t - self._placed_at[card.id] >= self.config.doubt_wait_s and card.last_seen >= t

    def _play(self, seat: int, choice: Choice, t: float) -> Choice:
        """Play the best reading the engine accepts (it knows cards held by other seats); when it
        accepts none, the best one goes in anyway, flagged with the engine's reason. Returns what
        was played."""
        refusals: list[str] = []
        for card, p in choice.alternatives or ((choice.card, choice.probability),):
            tried = replace(choice, card=card, probability=p)
            if refusals:
                tried = replace(tried, doubt=f"{'; '.join(refusals)}; read as {card} instead")
            try:
                self._apply(Event("play", seat=seat, card=card), tried, t)
                return tried
            except IllegalAction as refused:
                refusals.append(str(refused))
        forced = replace(choice, doubt="; ".join(refusals))
        self._apply(Event("play", seat=seat, card=choice.card), forced, t, check=False)
        return forced

    def _apply(self, event: Event, choice: Choice, t: float, check: bool = True) -> None:
        """Send ``event`` through the engine, stamped with the time, source and confidence."""
        stamped = replace(event, t=round(t, 3), source="camera", confidence=round(choice.probability, 4))

        def action(game: Game) -> Event:
            return game.apply(stamped, check=check, ignore=UNSEEN_HANDS)

        self.session.apply(action, doubt=choice.doubt, alternatives=choice.alternatives)

    def _event(
        self, kind: str, t: float, text: str, card: TableCard, choice: Choice, seat: int | None = None
    ) -> Recognised:
        flag = f" [check: {choice.doubt}]" if choice.doubt else ""
        return Recognised(
            kind,
            t,
            text + flag,
            seat=seat,
            card=choice.card,
            rest_t=card.still_since,
            doubt=choice.doubt,
            alternatives=choice.alternatives,
            game=self.game,
        )

    def _next_deal(self) -> None:
        """Start the next game, the next seat leading; what lay on the table is forgotten."""
        setup = self.session.view().setup
        self.session.new_game(replace(setup, first=(setup.first + 1) % len(setup.players)))
        self._roles = {card_id: "ignored" for card_id in self._roles}
        self._uncollected, self._trick_ids, self._plays, self._over = [], [], {}, False
        self._guesses, self._last_seen, self._reached, self._cleared = {}, {}, {}, {}
        self._trump_at = None
        self.game += 1


def seat_name(state: GameState, seat: int) -> str:
    """Who sits at ``seat`` (two players on four seats hold seats {0, 2} and {1, 3})."""
    return state.players[seat % len(state.players)]


def swap_cards(state: GameState, face_up: Card) -> list[Card]:
    """The cards not seen yet that may take the place of ``face_up`` under the stock (which of
    them may, the engine says)."""
    takers = takers_of(face_up)
    return [c for c in state.unseen if c in takers]


def takers_of(face_up: Card) -> list[Card]:
    """The cards that may take the place of ``face_up`` under the stock: the 7 and the 2 of its suit."""
    return [Card(rank, face_up.suit) for rank in (Rank.SIETE, Rank.DOS) if rank != face_up.rank]


def _no_worse(view: View, events: Sequence[Event]) -> bool:
    """Whether the game's log amended to ``events`` replays with no more problems than now."""
    return len(replay(replace(view.record, events=tuple(events))).issues) <= len(view.state.issues)


def _leaves_to(view: View, events: Sequence[Event], side: int) -> GameState | None:
    """The state once ``events`` are appended to the game's log, where they leave ``side`` to play
    with no more problems than now; else None."""
    after = replay(replace(view.record, events=(*view.record.events, *events)))
    return after if after.to_play == side and len(after.issues) <= len(view.state.issues) else None


def _mass(card: TableCard, cards: set[Card]) -> float:
    """How much of vision's belief about ``card`` falls on ``cards``."""
    return sum(p for c, p in card.identity if c in cards)


def _points(points: Sequence[int]) -> str:
    return "-".join(map(str, points))


def _result(state: GameState, open_to: Sequence[OpenResult] = ()) -> str:
    """The game's result, and the others its flagged plays leave open (``open_to``)."""
    text = f"game over: points {_points(side_points(state))}; winner {_winners(state, state.winners)}"
    if open_to:
        others = "; ".join(f"{_points(r.points)}, winner {_winners(state, r.winners)}" for r in open_to)
        text += f" (the plays to confirm may also give {others})"
    return text


def _winners(state: GameState, seats: Sequence[int]) -> str:
    return ", ".join(dict.fromkeys(seat_name(state, s) for s in seats)) or "nobody"
