"""Missed plays guessed from the sides the next cards came from, over random legal games."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from companion.engine import Event, GameRecord, random_game, replay
from companion.pipeline.missed import (
    guess_freed,
    left_in_turn,
    missed_before,
    only_way,
    playable,
    read_otherwise,
    taken_lacking,
    taken_short,
    unread,
    won_by,
)

PRESETS = ["brisca-2", "brisca-3", "brisca-4", "brisca-6"]


def _seen_without(game: GameRecord, missed: int) -> GameRecord:
    """What the camera told when the play ``missed`` went unseen: the log before it, and the next
    card given to the seat whose turn it was."""
    after = game.events[missed + 1]
    return replace(game, events=(*game.events[:missed], replace(after, seat=game.events[missed].seat)))


def _plays(game: GameRecord, index: int) -> list[int]:
    """The indices of the play events from ``index`` on that have another play right after them."""
    events = game.events
    return [i for i in range(index, len(events) - 1) if events[i].type == events[i + 1].type == "play"]


def _seats(record: GameRecord) -> list[list[int]]:
    """Who played each card, trick by trick, the trick under way last."""
    state = replay(record)
    plays = [trick.plays for trick in state.tricks] + [state.current]
    return [[seat for seat, _ in trick] for trick in plays]


def _guessed(game: GameRecord, pick: float) -> tuple[int, GameRecord]:
    """A play of ``game`` missed (chosen by ``pick``, never the first) and the record once the
    next card, which came from the side of its own seat, told of it."""
    candidates = _plays(game, 2)
    missed = candidates[int(pick * len(candidates))]
    truth, seen = game.events, _seen_without(game, missed)
    assume(truth[missed].seat != truth[missed + 1].seat)  # else no side tells of the missed card
    then = replay(replace(game, events=truth[: missed + 2])).to_play  # the side the card after came from
    events = missed_before(seen, missed, truth[missed + 1].seat, then)
    assert events is not None
    assert events[0].type == "amend" and events[0].ref == missed
    assert events[0].card != truth[missed + 1].card
    return missed, replace(seen, events=(*seen.events, *events))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True))
def test_a_missed_play_puts_every_card_back_with_the_seat_that_played_it(preset, seed, pick):
    """Whatever play of a game goes unseen (but the game's first), the guess puts the next card
    with the seat it came from, and every card before it with its seat; the log keeps what was
    told (the guess amends it)."""
    game = random_game(preset, seed)
    missed, guessed = _guessed(game, pick)
    assert replay(guessed).valid
    assert _seats(guessed) == _seats(replace(game, events=game.events[: missed + 2]))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True))
def test_a_missed_last_card_that_won_its_trick_puts_the_next_lead_with_its_seat(preset, seed, pick):
    """A trick's last card goes unseen, and its seat, the trick's winner, leads the next: the lead is
    taken for that seat's card in the trick, and the card after it comes from the seat after the
    leader. The guess wins the trick for that seat, which leads the next trick with its card."""
    game = random_game(preset, seed)
    truth = game.events
    closing = [
        i
        for i in _plays(game, 2)
        if i + 2 < len(truth) and truth[i + 2].type == "play" and truth[i].seat == truth[i + 1].seat
    ]
    assume(closing)  # a game whose last cards never won their tricks, but for the game's last trick
    missed = closing[int(pick * len(closing))]
    seen = _seen_without(game, missed)
    assert not replay(seen).current  # the lead closed the trick, given to the missed card's seat
    events = missed_before(seen, missed, truth[missed].seat, truth[missed + 2].seat)
    assert events is not None
    assert events[0].type == "amend" and events[0].ref == missed and events[0].card != truth[missed + 1].card
    guessed = replace(seen, events=(*seen.events, *events))
    after = replay(guessed)
    assert after.valid and after.tricks[-1].winner == truth[missed].seat
    assert after.to_play == truth[missed + 2].seat
    assert _seats(guessed) == _seats(replace(game, events=truth[: missed + 2]))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31))
@example(seed=23)  # brisca-6: the lead's card was known to be in its true seat's hand
def test_a_guess_that_lost_a_trick_its_card_won_is_changed_when_the_next_lead_comes_from_its_winner(
    preset, seed
):
    """The card after the missed one closed the trick, which the guess left to the wrong seat: the
    next lead, given to that seat, came from the side of the trick's true winner. The guess is
    changed to a card that lets that seat win, and the lead given to it."""
    game = random_game(preset, seed)
    truth = game.events
    for missed in _plays(game, 2):
        seen = _seen_without(game, missed)
        lead = truth[missed + 2] if missed + 2 < len(truth) else None
        if lead is None or lead.type != "play" or truth[missed].seat == truth[missed + 1].seat:
            continue
        events = missed_before(seen, missed, truth[missed + 1].seat)  # the side after it unknown
        guessed = replay(replace(seen, events=(*seen.events, *(events or ()))))
        if events is None or guessed.current or guessed.tricks[-1].winner == lead.seat:
            continue
        if lead.card in guessed.played:  # the guess is changed as its card is led (guess_freed)
            continue
        told = replace(seen, events=(*seen.events, *events, replace(lead, seat=guessed.to_play)))
        break
    else:
        assume(False)  # no missed card in this game would have won its trick unseen
    amended = won_by(told, len(told.events) - 1, [missed], lead.seat)
    assert amended is not None
    fixed = replace(told, events=(*told.events, *amended))
    assert replay(fixed).valid
    assert _seats(fixed) == _seats(replace(game, events=truth[: missed + 3]))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True))
def test_a_card_misread_as_one_that_lost_its_trick_is_read_otherwise_when_the_next_lead_comes_from_its_side(
    preset, seed, pick
):
    """A trick's winning card, read unsure, was taken for a card still unplayed that left the trick
    to another seat; the next lead, given to that seat, came from the side of the true winner.
    Of the cards it was read as, the first that gives the trick back to that side is taken, and
    the lead given to it: every card is then with its seat, the misread one as it truly was."""
    game = random_game(preset, seed)
    state, indices = replay(game), [i for i, e in enumerate(game.events) if e.type == "play"]
    seats = state.rules.seats
    cases = []
    for trick in state.tricks[:-1]:
        lead = indices[seats * trick.n]
        won = indices[
            seats * (trick.n - 1) + next(k for k, p in enumerate(trick.plays) if p[0] == trick.winner)
        ]
        before = replay(replace(game, events=game.events[:lead]))
        for card in sorted(playable(replay(replace(game, events=game.events[:won]))), key=str):
            misread = (*game.events[:won], replace(game.events[won], card=card), *game.events[won + 1 : lead])
            wrong = replay(replace(game, events=misread))
            if wrong.valid and wrong.tricks[-1].winner != trick.winner and card not in before.played:
                cases.append((won, lead, card, wrong.tricks[-1].winner))
                break
    assume(cases)
    won, lead, card, loser = cases[int(pick * len(cases))]
    truth = game.events
    told = replace(game, events=(*truth[:won], replace(truth[won], card=card), *truth[won + 1 : lead]))
    told = replace(told, events=(*told.events, replace(truth[lead], seat=loser)))
    amended = read_otherwise(told, lead, {won: [card, truth[won].card]}, truth[lead].seat)
    assert amended is not None and amended[0].card == truth[won].card
    fixed = replace(told, events=(*told.events, *amended))
    assert replay(fixed).valid
    assert _seats(fixed) == _seats(replace(game, events=truth[: lead + 1]))
    assert read_otherwise(told, lead, {won: [card]}, truth[lead].seat) is None  # no other reading: none


def test_a_guess_played_later_is_changed_to_a_card_that_leaves_each_trick_to_its_winner():
    game = random_game("brisca-4", 11)
    first = _plays(game, 2)[0]
    seen = _seen_without(game, first)
    events = missed_before(seen, first, game.events[first + 1].seat)
    assert events is not None
    guessed = replace(seen, events=(*seen.events, *events))
    taken = events[0].card
    (amend,) = guess_freed(guessed, first, taken) or ()
    assert amend.ref == first and amend.card not in (taken, None)
    before, after = replay(guessed), replay(replace(guessed, events=(*guessed.events, amend)))
    assert [t.winner for t in after.tricks] == [t.winner for t in before.tricks]
    assert taken not in after.played and amend.card in after.played and after.valid


def _winners(record: GameRecord) -> list[int]:
    return [trick.winner for trick in replay(record).tricks]


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_a_guess_played_last_whose_place_no_card_left_can_take_takes_another_guess(preset, seed):
    """Two plays were missed: the first guessed as the game's last card, the second as the first's.
    The last card, played surely read, frees the first guess; where the one card left, put there,
    would give its trick to another seat, the first guess takes the second's card and the second
    the card left: every card is then with its seat, as played."""
    game = random_game(preset, seed)
    events = game.events
    plays = [i for i, event in enumerate(events) if event.type == "play"]
    last = plays[-1]
    taken = events[last].card
    for first, second in itertools.combinations(plays[:-1], 2):
        left, given = events[second].card, events[first].card
        guessed = list(events[:last])
        guessed[first], guessed[second] = (
            replace(events[first], card=taken),
            replace(events[second], card=given),
        )
        told = replace(game, events=tuple(guessed))
        alone = replace(told, events=(*told.events, Event("amend", ref=first, card=left)))
        if _winners(told) == _winners(replace(game, events=events[:last])) != _winners(alone):
            break
    else:
        assume(False)  # in this game the card left always fits the first guess's place
    guesses = {first: taken, second: given}
    assert guess_freed(told, first, taken, guesses) == (
        Event("amend", ref=first, card=given),
        Event("amend", ref=second, card=left),
    )
    assert guess_freed(told, first, taken) is None  # without the other guess, no card left does
    fixed = replace(told, events=(*told.events, *guess_freed(told, first, taken, guesses), events[last]))
    assert replay(fixed).valid and replay(fixed).played == replay(game).played
    assert replay(fixed).tricks == replay(game).tricks


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True))
def test_an_unread_play_is_guessed_for_the_seat_to_play_of_the_suit_read(preset, seed, pick):
    """Whatever play of a game lands unread, its suit read right: the guess is that seat's, of that
    suit, a card the rules allow with no new problems, and the card itself where it was the one
    card of its suit left."""
    game = random_game(preset, seed)
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    played = plays[int(pick * len(plays))]
    truth, before = game.events[played], replace(game, events=game.events[:played])
    guess = unread(before, truth.card.suit)
    assert guess is not None and guess.seat == truth.seat and guess.card.suit == truth.card.suit
    assert replay(replace(before, events=(*before.events, guess))).valid
    if [card.suit for card in playable(replay(before))].count(truth.card.suit) == 1:
        assert guess.card == truth.card


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    picks=st.tuples(st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True)),
)
def test_two_guesses_of_a_finished_game_are_settled_only_when_their_cards_could_not_change_places(
    preset, seed, picks
):
    """Two plays of a finished game taken for guesses: they are pinned down exactly when the game
    with their cards the other way round gives a trick before the last to another seat."""
    game = random_game(preset, seed)
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    chosen = sorted({plays[int(pick * len(plays))] for pick in picks})
    assume(len(chosen) == 2)
    first, second = chosen
    events = list(game.events)
    events[first], events[second] = (
        replace(events[first], card=game.events[second].card),
        replace(events[second], card=game.events[first].card),
    )
    swapped = replay(replace(game, events=tuple(events)))
    moved = [t.winner for t in swapped.tricks[:-1]] != [t.winner for t in replay(game).tricks[:-1]]
    assert only_way(game, [first, second]) == (moved or not swapped.valid)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True))
def test_a_trick_taken_away_a_card_short_gets_a_guess_that_leaves_it_to_the_next_leader(preset, seed, pick):
    """Whatever trick but the last goes away without its last card seen, the guess is that seat's
    and gives the trick to the seat that won it, who leads next; the rules allow it. Two cards
    short, no guess."""
    game = random_game(preset, seed)
    state = replay(game)
    n = int(pick * (len(state.tricks) - 1))
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    last, one_before = plays[(n + 1) * state.rules.seats - 1], plays[(n + 1) * state.rules.seats - 2]
    before = replace(game, events=game.events[:last])
    guess = taken_short(before, state.tricks[n].winner)
    assert guess is not None and guess.seat == game.events[last].seat
    after = replay(replace(before, events=(*before.events, guess)))
    assert after.valid and after.tricks[n].winner == state.tricks[n].winner
    assert taken_short(replace(game, events=game.events[:one_before]), state.tricks[n].winner) is None


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), short=st.integers(1, 5))
def test_the_last_trick_taken_away_short_gets_the_cards_left_in_turn(preset, seed, short):
    """The game's last trick goes away with its lead seen but ``short`` of its other cards: the
    cards left are played by the seats that played them, in turn, and the game ends valid; one card
    short, it is that very card. Short of a card of the trick before too, nothing is told."""
    game = random_game(preset, seed)
    state = replay(game)
    short = min(short, state.rules.seats - 1)
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    cut = plays[-short]
    found = left_in_turn(replace(game, events=game.events[:cut]))
    assert found is not None
    truth = [game.events[i] for i in plays[-short:]]
    assert [play.seat for play in found] == [play.seat for play in truth]
    assert {play.card for play in found} == {play.card for play in truth}
    after = replay(replace(game, events=(*game.events[:cut], *found)))
    assert after.complete and after.valid
    assert left_in_turn(replace(game, events=game.events[: plays[-state.rules.seats - 1]])) is None


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), pick=st.floats(0, 1, exclude_max=True), short=st.integers(1, 5))
def test_a_trick_taken_away_short_of_cards_by_its_winner_gets_guesses_that_leave_it_to_that_winner(
    preset, seed, pick, short
):
    """Whatever trick goes away with its lead seen but ``short`` of its other cards, by the hand of
    the seat that won it: the guesses are the seats' that played them, in turn, and give the trick
    to that seat; the rules allow them. One card short, the guess is :func:`taken_short`'s."""
    game = random_game(preset, seed)
    state = replay(game)
    seats = state.rules.seats
    n, short = int(pick * len(state.tricks)), min(short, seats - 1)
    plays = [i for i, event in enumerate(game.events) if event.type == "play"]
    cut = plays[(n + 1) * seats - short]
    before = replace(game, events=game.events[:cut])
    winner = state.tricks[n].winner
    guesses = taken_lacking(before, winner)
    assert guesses is not None
    assert [g.seat for g in guesses] == [
        game.events[i].seat for i in plays[(n + 1) * seats - short : (n + 1) * seats]
    ]
    after = replay(replace(before, events=(*before.events, *guesses)))
    assert after.valid and after.tricks[n].winner == winner
    if short == 1 and n < len(state.tricks) - 1:
        assert guesses == (taken_short(before, winner),)
