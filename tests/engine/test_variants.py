"""Golden records for each variant and option of the rules."""

import pytest

from companion.cards import Card, Rank, deck, trick_winner
from companion.engine import Event, GameRecord, random_game, replay, rules_for
from companion.engine.moves import revoke_cards

from .helpers import record, upto_trick


def codes(state):
    return [(issue.event, issue.code) for issue in state.issues]


def opts(preset="brisca-2", **options):
    return {"preset": preset, "options": options}


def test_two_players_on_a_four_hand_layout():
    state = replay(record("brisca-2x2", "trump 3O; 0 1C; 1 3C; 2 12C; 3 2O"))
    assert state.tricks[0].winner == 3 and state.winners == ()
    assert state.team_points == (0, 25) and len(state.players) == 2 and state.valid


ARRASTRE = opts(arrastre=True)


@pytest.mark.parametrize(
    ("rules", "events", "expected"),
    [
        (ARRASTRE, "trump 12O; 0 5C; 1 4C; swap 1 7O; arrastre 0; 0 1O; 1 12O", []),
        # seat 1 took the 12O from under the stock: it had to give it to the As
        (ARRASTRE, "trump 12O; 0 5C; 1 4C; swap 1 7O; arrastre 0; 0 1O; 1 6E", [(6, "revoke")]),
        (ARRASTRE, "trump 12O; arrastre 0; 0 5C", [(2, "arrastre-card")]),
        (ARRASTRE, "trump 12O; 0 5C; arrastre 1", [(2, "arrastre-late")]),
        ("brisca-2", "trump 12O; arrastre 0; 0 1O", [(1, "no-arrastre")]),
    ],
)
def test_arrastre(rules, events, expected):
    assert codes(replay(record(rules, events))) == expected


OPEN_FOLLOW = opts("brisca-descubierta", follow_suit=True)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12O 2O 6E; 0 1O; 1 2O", []),  # followed, need not beat
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12O 2O 6E; 0 1O; 1 6E", [(4, "revoke")]),  # had oros
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12B 2C 6E; 0 1O; 1 12B", []),  # no oros: trumps
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12B 2C 6E; 0 1O; 1 6E", [(4, "revoke")]),  # had to trump
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12B 2C 6E; 0 4C; 1 6E", [(4, "revoke")]),  # had copas
    ],
)
def test_follow_suit_with_open_hands(events, expected):
    assert codes(replay(record(OPEN_FOLLOW, events))) == expected


def test_a_revoke_is_proven_when_the_seat_later_plays_the_suit():
    rules = rules_for(opts(follow_suit=True))
    for seed in range(300):
        game = random_game(rules, seed)
        state = replay(game)
        if state.ended_by or len(state.tricks) != 20:
            continue
        (leader, led), (follower, followed) = state.tricks[18].plays
        kept = dict(state.tricks[19].plays)[follower]
        if followed not in revoke_cards(rules, [led], kept, state.trump_suit, False, [followed]):
            continue
        # the follower keeps the card it should have played, and plays it on the last trick
        winner = (leader, follower)[trick_winner([led, kept], state.trump_suit)]
        last = {leader: dict(state.tricks[19].plays)[leader], follower: followed}
        prefix = upto_trick(game, 18).events
        events = (
            *prefix,
            Event("play", seat=leader, card=led),
            Event("play", seat=follower, card=kept),
            Event("play", seat=winner, card=last[winner]),
            Event("play", seat=1 - winner, card=last[1 - winner]),
        )
        issues = replay(GameRecord(rules, game.players, game.first, events)).issues
        proof = f"(played at event {len(prefix) + 2 + (winner != follower)})"
        if issues and proof in issues[0].message:
            assert [(i.event, i.code) for i in issues] == [(len(prefix) + 1, "revoke")]
            return
    pytest.fail("no game among the seeds could be turned into a provable revoke")


def test_claims():
    rules = rules_for(opts(claims=True))
    game = next(g for g in map(random_game, ["brisca-2"] * 100, range(100)) if len(_trumps_left(g, 18)) >= 3)
    for tricks, shown in ((17, 3), (18, 2)):
        cut = upto_trick(game, tricks)
        state = replay(cut)
        unplayed = _trumps_left(game, tricks)
        top = tuple(unplayed[:shown])
        claims = {
            seat: replay(
                GameRecord(rules, cut.players, cut.first, (*cut.events, Event("claim", seat=seat, cards=top)))
            )
            for seat in (0, 1)
        }
        seat = next(
            seat for seat, claimed in claims.items() if claimed.valid
        )  # one may hold a known top trump
        claimed = claims[seat]
        assert claimed.complete and claimed.ended_by == "claim" and sum(claimed.points) == 120
        assert claimed.points[seat] == 120 - state.points[1 - seat]
        wrong = replay(
            GameRecord(rules, cut.players, cut.first, (*cut.events, Event("claim", seat=seat, cards=top[1:])))
        )
        assert codes(wrong) == [(len(cut.events), "bad-claim")] and not wrong.complete
    early = replay(record(opts(claims=True), "trump 3O; claim 0 1O 12O 11O"))
    assert codes(early) == [(1, "bad-claim")] and "nothing yet" in early.issues[0].message
    assert codes(replay(record("brisca-2", "trump 3O; claim 0 1O 12O 11O"))) == [(1, "no-claims")]


def _trumps_left(game, tricks):
    state = replay(upto_trick(game, tricks))
    left = [card for card in deck(40) if card.suit == state.trump_suit and card not in state.played]
    return sorted(left, key=lambda card: card.strength, reverse=True)


def test_low_points_goal_ends_when_a_side_passes_eleven():
    state = replay(record(opts(goal="under-12"), "trump 3O; 0 4C; 1 12C; 1 1C; 0 3C"))
    assert state.complete and state.ended_by == "over-11" and state.winners == (0,)
    assert state.points == (0, 25) and state.valid


def test_a_ciegas_scores_like_brisca_2():
    game = random_game("brisca-2", 4)
    blind = replay(GameRecord(rules_for("brisca-a-ciegas"), game.players, game.first, game.events))
    assert (blind.points, blind.winners, blind.valid) == (replay(game).points, replay(game).winners, True)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12O 2O 6E; 0 4C; 1 6E", []),
        ("trump 5B; hand 0 1O 4C 5C; hand 1 12O 2O 6E; 0 7C", [(3, "bad-card")]),  # not in the open hand
        ("trump 5B; hand 1 12O 2O 6E; 0 4C", [(2, "hand-unknown")]),
        ("trump 5B; hand 0 1O 4C", [(1, "bad-hand")]),  # three cards are dealt
        ("trump 5B; hand 0 1O 4C 5B", [(1, "bad-hand")]),  # the trump card lies under the stock
    ],
)
def test_descubierta_checks_plays_against_open_hands(events, expected):
    assert codes(replay(record("brisca-descubierta", events))) == expected


@pytest.mark.parametrize(
    ("rules", "events", "expected", "winners"),
    [
        (opts(mano_negra="first-trick"), "trump 5O; declare 1 12O 3O 1O", [], (1,)),
        (
            opts("brisca-4", mano_negra="any"),
            "trump 5O; 0 4C; 1 5C; 2 6C; 3 7C; declare 1 12O 3O 1O",
            [],
            (1, 3),
        ),
        (
            opts(mano_negra="first-trick"),
            "trump 5O; 0 4C; 1 5C; declare 1 12O 3O 1O",
            [(3, "declare-late")],
            (),
        ),
        (opts(mano_negra="any"), "trump 5O; declare 1 12O 3O 11O", [(1, "bad-declare")], ()),
        ("brisca-2", "trump 5O; declare 1 12O 3O 1O", [(1, "no-mano-negra")], ()),
    ],
)
def test_mano_negra(rules, events, expected, winners):
    state = replay(record(rules, events))
    assert codes(state) == expected and state.winners == winners
    assert state.complete == (state.ended_by == "mano-negra") == bool(winners)


CAZAR = opts(cazar_tres=True)


def test_cazar_el_tres():
    assert codes(replay(record(CAZAR, "trump 5O; 0 1O"))) == [(1, "ace-hunted")]
    caught = replay(record(CAZAR, "trump 5O; 0 3O; 1 1O"))
    assert caught.complete and caught.ended_by == "cazar-el-tres" and caught.winners == (1,) and caught.valid
    free = replay(record(CAZAR, "trump 5O; 0 3O; 1 4O; 0 1O"))
    assert free.valid and not free.complete  # the 3 is gone: the As is free


@pytest.mark.parametrize(
    ("rules", "events", "expected"),
    [
        (opts(virar=True), "trump 5O; redeal 0 4C 5E 6C; trump 7B; 0 2B", []),
        (opts(virar=True), "trump 5O; redeal 0 4C 5E 12C", [(1, "bad-redeal")]),  # a Rey has points
        (opts(virar=True), "trump 5O; redeal 0 4C 5E 6O", [(1, "bad-redeal")]),  # a trump
        (opts(virar=True), "trump 5O; 0 4C; redeal 1 4E 5E 6C", [(2, "redeal-late")]),
        ("brisca-2", "trump 5O; redeal 0 4C 5E 6C", [(1, "no-redeal")]),
    ],
)
def test_virar_la_baraja(rules, events, expected):
    state = replay(record(rules, events))
    assert codes(state) == expected
    if not expected:
        assert str(state.trump_card) == "7B" and state.current == ((0, Card(Rank.DOS, state.trump_suit)),)


def test_a_fixed_trump_suit_has_no_trump_card():
    state = replay(record(opts(trump_suit="C"), "0 1O; 1 2C"))
    assert state.tricks[0].winner == 1 and state.trump_card is None and state.valid
    assert codes(replay(record(opts(trump_suit="C"), "trump 4O"))) == [(0, "fixed-trump")]


def test_an_arrastre_revoke_is_proven_when_the_better_card_appears():
    rules = rules_for(opts(arrastre=True))
    for seed in range(400):
        game = random_game("brisca-2", seed)
        state = replay(game)
        ace = Card(Rank.AS, state.trump_suit)
        leader = state.tricks[18].leader
        hands = {seat: [c for t in state.tricks[18:] for s, c in t.plays if s == seat] for seat in (0, 1)}
        if ace not in hands[leader]:
            continue
        worse, better = sorted(hands[1 - leader], key=lambda c: (c.suit == state.trump_suit, c.strength))
        if (worse.suit == state.trump_suit, worse.strength) == (
            better.suit == state.trump_suit,
            better.strength,
        ):
            continue
        other = next(card for card in hands[leader] if card != ace)
        prefix = upto_trick(game, 18).events
        follower = 1 - leader
        events = (
            *prefix,
            Event("arrastre", seat=leader),
            Event("play", seat=leader, card=ace),
            Event("play", seat=follower, card=worse),  # the As wins: the leader leads again
            Event("play", seat=leader, card=other),
            Event("play", seat=follower, card=better),
        )
        issues = replay(GameRecord(rules, game.players, game.first, events)).issues
        if issues and f"(played at event {len(prefix) + 4})" in issues[0].message:
            assert [(i.event, i.code) for i in issues] == [(len(prefix) + 2, "revoke")]
            return
    pytest.fail("no game among the seeds could be turned into a provable arrastre revoke")
