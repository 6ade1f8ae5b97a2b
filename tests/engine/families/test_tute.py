"""chile-4: the obligations of tute (asistir, montar, fallar, pisar) and provable revokes."""

import pytest

from companion.cards import Card, Suit
from companion.engine import GameRecord, random_game, replay, rules_for
from companion.engine.families import tute
from companion.engine.moves import legal_cards

from .helpers import codes, state

CHILE = rules_for("chile-4")


def cards(text):
    return [Card.parse(card) for card in text.split()]


@pytest.mark.parametrize(
    ("trick", "hand", "legal", "played", "why"),
    [
        ("5C", "4C 1E", "4C", "1E", "asistir: follow suit"),
        ("5C", "6C 4C 1O", "6C", "4C", "montar: beat the card on the table"),
        ("5C", "6C 4C 1O", "6C", "1O", "asistir: follow suit"),
        ("1C", "6C 4C 1O", "6C 4C", "4C", None),  # nothing beats the As: any copas
        ("5C 2O", "6C 4C 3O", "6C 4C", "4C", None),  # the trick is trumped: no need to beat
        ("5C", "2O 1E", "2O", "1E", "fallar: trump"),
        ("5C 4O", "7O 2O 1E", "7O", "2O", "pisar: overtrump"),
        ("5C 4O", "7O 2O 1E", "7O", "1E", "pisar: overtrump"),
        ("5C 1O", "2O 1E", "2O 1E", "1E", None),  # cannot overtrump the As: any card
        ("5O", "7O 4O 1E", "7O", "4O", "montar: beat the card on the table"),  # trumps led
        ("6C 5C", "7C 4C", "7C", "4C", "montar: beat the card on the table"),  # even over a partner
        ("", "7C 4C 1O", "7C 4C 1O", "1O", None),  # the leader owes nothing
    ],
)
def test_each_obligation(trick, hand, legal, played, why):
    on_table, held, card = cards(trick), cards(hand), Card.parse(played)
    assert sorted(legal_cards(CHILE, held, on_table, Suit.OROS, False, set(), False)) == sorted(cards(legal))
    owed = tute.owed(on_table, card, Suit.OROS, [c for c in held if c != card])
    assert {tute.obligation(on_table, card, other, Suit.OROS) for other in owed} == ({why} if why else set())


def test_without_trumps_only_the_suit_is_owed():
    assert tute.owed(cards("5C"), Card.parse("1E"), None, cards("4C 2O")) == frozenset(cards("4C"))


def test_a_revoke_is_reported_at_once_when_the_owed_card_is_known():
    # seat 1 took the face-up As of oros with its 7: everyone knows it holds oros
    game = state("chile-4", "trump 1O; swap 1 7O; 0 5O; 1 4C")
    assert codes(game) == [(3, "revoke")] and "1O" in game.issues[0].message


def _tricks(game):
    plays = [(index, event) for index, event in enumerate(game.events) if event.type == "play"]
    return [plays[k : k + 4] for k in range(0, len(plays), 4)]


def _swap_plays(game, i, j):
    events = list(game.events)
    events[i], events[j] = (
        events[i].__class__("play", seat=events[i].seat, card=events[j].card),
        (events[j].__class__("play", seat=events[j].seat, card=events[i].card)),
    )
    return GameRecord(game.rules, game.players, game.first, tuple(events))


def _revokes_by_swapping(first_trick, last_trick, seeds=40):
    """Per obligation: a random game where one seat plays a card it held later instead, breaking it."""
    found = {}
    for seed in range(seeds):
        game = random_game("chile-4", seed)
        tricks, trump = _tricks(game), replay(game).trump_suit
        for t in range(first_trick, last_trick):
            for position in range(1, 4):
                i, played = tricks[t][position]
                on_table = [event.card for _, event in tricks[t][:position]]
                for later in tricks[t + 1 :]:
                    j, other = next((j, e) for j, e in later if e.seat == played.seat)
                    if played.card in tute.owed(on_table, other.card, trump, [played.card]):
                        why = tute.obligation(on_table, other.card, played.card, trump)
                        found.setdefault(why, (game, i, j, played.card))
    return found


def test_each_broken_obligation_is_proven_by_a_later_play_without_a_draw_between():
    rules = rules_for("chile-4")
    found = _revokes_by_swapping(rules.draw_rounds, rules.tricks - 1)  # after the last draw
    assert set(found) == {
        "asistir: follow suit",
        "montar: beat the card on the table",
        "fallar: trump",
        "pisar: overtrump",
    }
    for game, i, j, _owed in found.values():
        issues = replay(_swap_plays(game, i, j)).issues
        revoke = next(issue for issue in issues if issue.code == "revoke")
        assert revoke.event == i and f"played {game.events[j].card} while holding" in revoke.message


def test_a_revoke_is_not_proven_across_a_draw():
    rules = rules_for("chile-4")
    found = _revokes_by_swapping(0, rules.draw_rounds - 1, seeds=10)  # the seat draws before playing it
    shown = {e.card for game, *_ in found.values() for e in game.events if e.type in ("trump", "swap")}
    cases = [(game, i, j) for game, i, j, owed in found.values() if owed not in shown]
    assert cases
    for game, i, j in cases:
        assert all(
            issue.event != i for issue in replay(_swap_plays(game, i, j)).issues if issue.code == "revoke"
        )
