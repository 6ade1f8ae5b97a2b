"""Plays the camera missed, told by the sides the next cards came from.

A card that lands unseen (white print on a white card, under a hand, a stream that stalled) leaves
its seat's turn open: the next card, brought from the side of a later seat, is played by the seat
whose card was missed, and every card after it by the wrong seat. When two cards in a row came from
the sides of the seats that would have played them had the seats before the first been missed,
those seats' plays go into the log as guesses: cards they may hold, of the fewest points, that
leave each trick to the seat the next lead came from. A trick taken away one card short had its
last card played unseen, a guess that leaves the trick to the side the next lead came from (or to
the hand that took it, which may take a trick short of more cards). A
trick's last card missed otherwise, when its seat won the trick and led the next, leaves no side
out of turn until the card after that lead: it comes from the seat after the leader while the
rules gave the trick to another. A card of the last trick read unsure (or brought from the side
of another seat than the one it was given to), taken for a card that left that trick to another
seat than the one the next lead came from, was the first other card it was read as that gives it
to that seat. A card that landed in turn but could not be read is played as a guess too. The
game's last trick taken away short of the cards left had them played by the seats to play, in
turn. A guess is changed when its card is played later, surely read.

Pure functions of game records; the recogniser applies what they return (``amend`` and ``play``
events, appended: the log keeps what was played before).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from companion.cards import Card, Suit, deck, trick_winner
from companion.engine import Event, GameRecord, GameState, replay
from companion.engine.doubt import orders
from companion.engine.replay import effective_log


def missed_before(
    record: GameRecord, ref: int, seat: int, then: int | None = None
) -> tuple[Event, ...] | None:
    """Events that tell the play ``ref`` (the last event of ``record``) came after missed plays:
    its log entry becomes the first missed play (an ``amend`` to a guessed card), the other missed
    plays follow, guessed, then its card played by ``seat``, after which ``then`` (when given: the
    side the card after it came from) is to play. None when no run of seats from the one that
    played it to the end of its trick does that with guesses the rules allow.

    When ``seat`` played it and it closed a trick, its seat's card in that trick was missed (a
    guess that wins the trick), and it led the next."""
    events = record.events
    play = events[ref]
    if ref != len(events) - 1 or play.type != "play" or play.card is None:
        return None
    again = replace(play, seat=seat)
    log: tuple[Event, ...] = events[:ref]
    state = replay(replace(record, events=log))
    if play.seat == seat and len(state.current) != state.rules.seats - 1:
        return None
    for _ in range(state.rules.seats - 1):
        closes = len(state.current) == state.rules.seats - 1
        for guess, after in _allowed(
            record, log, state, _likely(playable(state) - {play.card}, state.trump_suit)
        ):
            if closes and after.to_play != seat:
                continue
            if after.to_play != seat or then is None:
                break
            if replay(replace(record, events=(*log, guess, again))).to_play == then:
                break
        else:
            return None
        log, state = (*log, guess), after
        if state.to_play == seat:
            first, *more = log[ref:]
            return (replace(first, type="amend", ref=ref, seat=None), *more, again)
        if closes:
            return None
    return None


def guess_freed(
    record: GameRecord, ref: int, card: Card, others: Mapping[int, Card] | None = None
) -> tuple[Event, ...] | None:
    """Amends of the guessed play ``ref`` to another card than ``card`` (played now, surely read)
    that leave every trick with the winner it had: to the likeliest card left, else to the card
    guessed for another missed play (``others``: their log indices and guesses), which then takes
    a card left. None when no such amends do."""
    now = replay(record)
    winners = [trick.winner for trick in now.tricks]
    left = _likely(playable(now) - {card}, now.trump_suit)
    alone = ((Event("amend", ref=ref, card=other),) for other in left)
    paired = (
        (Event("amend", ref=ref, card=taken), Event("amend", ref=other, card=instead))
        for other, taken in (others or {}).items()
        if other != ref
        for instead in left
    )
    for amends in itertools.chain(alone, paired):
        after = replay(replace(record, events=(*record.events, *amends)))
        if len(after.issues) <= len(now.issues) and [t.winner for t in after.tricks] == winners:
            return amends
    return None


def won_by(record: GameRecord, lead: int, guesses: Iterable[int], seat: int) -> tuple[Event, ...] | None:
    """Events that give the last trick to ``seat``, the side the lead after it (the play ``lead``,
    the last event of ``record``) came from: a guessed play of that trick (``guesses``: their log
    indices) amended to the likeliest card that makes ``seat`` win it, and the lead amended to
    ``seat`` (:func:`read_otherwise`, each guess read as every card it may be). None when the lead
    is ``seat``'s already, or no guess of that trick can do it."""
    now = replay(record)
    if len(now.current) != 1:
        return None
    likely = _likely(playable(now) - {now.current[0][1]}, now.trump_suit)
    return read_otherwise(record, lead, {ref: likely for ref in guesses}, seat)


def read_otherwise(
    record: GameRecord, lead: int, readings: Mapping[int, Sequence[Card]], seat: int
) -> tuple[Event, ...] | None:
    """Events that give the last trick to ``seat``, the side the lead after it (the play ``lead``,
    the last event of ``record``) came from: a play of that trick read unsure (``readings``: the
    other cards each such play, by its log index, was read as, likeliest first) amended to the
    first of them that makes ``seat`` win it with no more problems (the latest play first), and
    the lead amended to ``seat``. None when the lead is ``seat``'s already, or no such reading can
    do it."""
    now = replay(record)
    if lead != len(record.events) - 1 or len(now.current) != 1 or now.current[0][0] == seat or not now.tricks:
        return None
    trick, log = now.tricks[-1], effective_log(record.events)[0]
    issues = [issue for issue in now.issues if issue.event != lead]  # the lead's own go with its seat
    for ref in sorted(readings, reverse=True):
        played = log[ref]
        if played is None or (played.seat, played.card) not in trick.plays:
            continue
        for card in readings[ref]:
            events = (
                Event("amend", ref=ref, card=card),
                Event("amend", ref=lead, seat=seat),
            )
            after = replay(replace(record, events=(*record.events, *events)))
            if len(after.issues) <= len(issues) and after.tricks[-1].winner == seat:
                return events
    return None


def unread(record: GameRecord, suit: Suit | None) -> Event | None:
    """The play of the seat to play, whose card landed but could not be read: the likeliest card
    the rules let it play with no new problems, those of ``suit`` (the suit vision read) first.
    None when the game waits for no play, or no card is allowed."""
    state = replay(record)
    if state.to_play is None:
        return None
    cards = likely_of(playable(state), state.trump_suit, suit)
    return next((play for play, _ in _allowed(record, record.events, state, cards)), None)


def likely_of(cards: Iterable[Card], trump: Suit | None, suit: Suit | None) -> list[Card]:
    """``cards`` in the order a card misread is guessed: those of ``suit`` (the suit vision read)
    first, each part in the order a missed card is guessed."""
    return sorted(_likely(cards, trump), key=lambda c: c.suit != suit)


def taken_short(record: GameRecord, seat: int) -> Event | None:
    """The last play of the trick under way, which was taken away one card short: the likeliest
    card the seat to play may have played unseen that leaves the trick to ``seat``, the side the
    next lead came from. None when the trick lacks more than one card, or no card does that."""
    return short_by(record, lambda play, after: after.to_play == seat)


def taken_lacking(record: GameRecord, seat: int, most: int = 300) -> tuple[Event, ...] | None:
    """The plays the trick under way lacks, taken away without them by the hand of ``seat``, who
    won it: for each seat still to play, in turn, the likeliest card the rules let it play that
    leaves ``seat`` winning the trick once ``seat`` has played, and lets the seats after it do so
    too. None when the trick has no card yet, or no such cards are found in ``most`` tries."""
    state = replay(record)
    if not state.current:
        return None
    tricks = len(state.tricks)
    fits = functools.partial(_leaves, seat=seat, tricks=tricks)
    return next(_closings(record, state, fits, most), None)


def _closings(
    record: GameRecord, state: GameState, fits: Callable[[Event, GameState], bool], most: float = math.inf
) -> Iterator[tuple[Event, ...]]:
    """The runs of plays that close the trick under way after ``record`` (whose state is
    ``state``), each seat's the likeliest first, each play one the rules allow with no new
    problems and whose play ``fits`` (given the play and the state after it); at most ``most``
    plays tried in all (every one when not given)."""
    tricks, tries = len(state.tricks), itertools.count()

    def closing(log: tuple[Event, ...], state: GameState) -> Iterator[tuple[Event, ...]]:
        if len(state.tricks) > tricks:
            yield ()
            return
        for play, after in _allowed(record, log, state, _likely(playable(state), state.trump_suit)):
            if next(tries) >= most:
                return
            if fits(play, after):
                yield from ((play, *rest) for rest in closing((*log, play), after))

    return closing(record.events, state)


def _leaves(play: Event, after: GameState, seat: int, tricks: int) -> bool:
    """Whether, after ``play``, ``seat`` wins the trick (number ``tricks`` + 1) if it has played in
    it; the trick done, whether ``seat`` won it."""
    if len(after.tricks) > tricks:
        return after.tricks[tricks].winner == seat
    seats = [s for s, _ in after.current]
    return seat not in seats or seats[trick_winner([c for _, c in after.current], after.trump_suit)] == seat


def short_by(record: GameRecord, fits: Callable[[Event, GameState], bool]) -> Event | None:
    """The last play of the trick under way, which was taken away one card short: the likeliest
    card the seat to play may have played unseen whose play ``fits`` what was seen next (given the
    play and the state after it). None when the trick lacks more than one card, or no card fits."""
    state = replay(record)
    if len(state.current) != state.rules.seats - 1:
        return None
    plays = _allowed(record, record.events, state, _likely(playable(state), state.trump_suit))
    return next((play for play, after in plays if fits(play, after)), None)


def left_in_turn(record: GameRecord) -> tuple[Event, ...] | None:
    """The plays that close the game's last trick, taken away short of as many cards as are left:
    the cards left, one for each seat still to play, in turn, in the first order the rules allow
    with no new problems (each seat the likeliest card left first). One card short, that card
    whatever problems it brings (it is the one left). None when more or fewer cards are left than
    the trick lacks, or no order of several is allowed."""
    state = replay(record)
    left = playable(state)
    if state.to_play is None or not state.current or len(left) != state.rules.seats - len(state.current):
        return None
    if len(left) == 1:
        return (Event("play", seat=state.to_play, card=next(iter(left))),)
    return next(_closings(record, state, lambda play, after: True), None)  # every order: at most 5! of them


def only_way(record: GameRecord, guesses: Collection[int], most: int = 5) -> bool:
    """Whether the guessed plays ``guesses`` (log indices) of a finished game can hold their cards
    in no other order: any other makes a trick before the last (the next lead showed who won it)
    go to another seat, or breaks a rule (:func:`companion.engine.doubt.orders`). False for more
    than ``most`` guesses (too many orders), or a guess voided since."""
    return len(guesses) <= most and len(list(itertools.islice(orders(record, guesses), 2))) == 1


def playable(state: GameState) -> set[Card]:
    """Cards that may still come out of a hand: not played, and not the card under the stock."""
    under_stock = {state.face_up} if state.face_up is not None and state.stock > 0 else set()
    return set(deck(state.rules.deck)) - state.played - under_stock


def _allowed(
    record: GameRecord, log: tuple[Event, ...], state: GameState, cards: Iterable[Card]
) -> Iterator[tuple[Event, GameState]]:
    """The plays of ``cards``, in that order, by the seat to play after ``log`` (whose state is
    ``state``) that bring the game no new problems, each with the state after it."""
    for card in cards:
        play = Event("play", seat=state.to_play, card=card)
        after = replay(replace(record, events=(*log, play)))
        if len(after.issues) <= len(state.issues):
            yield play, after


def _likely(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """Cards in the order a missed card is guessed: fewest points first (half a deck is worth
    none, so a guess rarely moves the score much), then not trumps, then lowest rank."""
    return sorted(cards, key=lambda c: (c.points, c.suit == trump, c.rank, str(c)))
