"""The results a finished game's doubtful plays leave open: every order of their cards that keeps
the tricks' winners, against a brute force over all orders, and the truth always among them."""

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card
from companion.engine import PRESETS, Event, GameRecord, open_results, random_game, replay, winner_open
from companion.engine.doubt import REPLAYS, Budget, TooManyOrders, orders, side_points
from companion.engine.replay import effective_log

PLAIN = sorted(name for name, rules in PRESETS.items() if rules.auction == "none")
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _play_refs(record: GameRecord) -> list[int]:
    log = effective_log(record.events)[0]
    return [i for i, event in enumerate(log) if event is not None and event.type == "play"]


def _amended(record: GameRecord, refs: list[int], cards: tuple[Card, ...]) -> GameRecord:
    amends = tuple(Event("amend", ref=ref, card=card) for ref, card in zip(refs, cards, strict=True))
    return replace(record, events=(*record.events, *amends))


def _brute_force(record: GameRecord, refs: list[int]) -> set[tuple[Card, ...]]:
    """Every order of the plays' cards that keeps the winners of the tricks before the last and
    brings no new problems: tried one by one."""
    now = replay(record)
    cards = [effective_log(record.events)[0][ref].card for ref in refs]
    kept = set()
    for order in itertools.permutations(cards):
        after = replay(_amended(record, refs, order))
        same = [t.winner for t in after.tricks[:-1]] == [t.winner for t in now.tricks[:-1]]
        if same and len(after.issues) <= len(now.issues):
            kept.add(order)
    return kept


@pytest.mark.parametrize("preset", PLAIN)
@settings(max_examples=15, deadline=None)
@given(seed=seeds, data=st.data())
def test_the_orders_kept_are_exactly_those_a_brute_force_keeps(preset, seed, data):
    game = random_game(preset, seed)
    refs = sorted(data.draw(st.sets(st.sampled_from(_play_refs(game)), min_size=1, max_size=4)))
    found = [order for order, _ in orders(game, refs)]
    assert len(found) == len(set(found))
    assert set(found) == _brute_force(game, refs)
    own = tuple(effective_log(game.events)[0][ref].card for ref in refs)
    assert own in found


@pytest.mark.parametrize("preset", PLAIN)
@settings(max_examples=15, deadline=None)
@given(seed=seeds, data=st.data())
def test_the_true_result_is_among_those_left_open_by_plays_read_in_another_order(preset, seed, data):
    truth = random_game(preset, seed)
    refs = sorted(data.draw(st.sets(st.sampled_from(_play_refs(truth)), min_size=2, max_size=8)))
    seen_orders = [order for order, _ in itertools.islice(orders(truth, refs), REPLAYS)]
    seen = _amended(truth, refs, data.draw(st.sampled_from(seen_orders)))  # as a camera might read it
    results = open_results(seen, frozenset(refs))
    if not results:  # more orders than are tried: never with six plays or fewer (720 orders)
        assert len(refs) > 6
        return
    expected = replay(truth)
    assert (side_points(expected), expected.winners) in {(r.points, r.winners) for r in results}
    first = replay(seen)
    assert (results[0].points, results[0].winners) == (side_points(first), first.winners)
    assert len({(r.points, r.winners) for r in results}) == len(results)
    if len(refs) <= 5:  # scoring one order per share of points loses no result
        every = {(side_points(state), state.winners) for _, state in orders(seen, refs)}
        assert {(r.points, r.winners) for r in results} == every | {(side_points(first), first.winners)}
    for result in results:  # each result is what its cards give
        state = replay(_amended(seen, refs, result.cards))
        assert (side_points(state), state.winners) == (result.points, result.winners)
    assert winner_open(results) == any(set(r.winners) != set(first.winners) for r in results)


def test_a_game_whose_winner_rests_on_plays_in_doubt_is_told_open():
    for seed in range(300):
        game = random_game("brisca-2", seed)
        refs = frozenset(_play_refs(game)[-12:-6])  # six plays of tricks before the last three
        results = open_results(game, refs)
        if winner_open(results):
            break
    else:
        pytest.fail("no game of 300 whose winner rests on six plays")
    assert len(results) > 1 and {r.winners for r in results} >= {(0,), (1,)}


def test_nothing_is_left_open_without_doubt_too_much_doubt_or_before_the_end():
    game = random_game("brisca-2", 7)
    state = replay(game)
    only = open_results(game, frozenset())
    assert [(r.points, r.winners) for r in only] == [(side_points(state), state.winners)]
    assert open_results(game, frozenset(_play_refs(game))) == ()  # every play: too many orders
    unfinished = replace(game, events=game.events[:-1])
    assert open_results(unfinished, frozenset(_play_refs(unfinished)[:2])) == ()


def test_more_than_six_plays_are_worked_out_where_the_tricks_winners_narrow_their_orders():
    """Eight plays of a four-player game's first two tricks (40,320 orders): too many to replay
    every one that keeps both tricks' winners, but one for each share of their points between the
    sides is few enough."""
    game = random_game("brisca-4", 0)
    refs = _play_refs(game)[:8]
    results = open_results(game, frozenset(refs))
    state = replay(game)
    assert len(results) > 1 and (results[0].points, results[0].winners) == (side_points(state), state.winners)
    with pytest.raises(TooManyOrders, match="720 replays"):
        list(orders(game, refs, Budget()))
    with pytest.raises(TooManyOrders, match="placings"):
        list(orders(game, refs, Budget(placings=10), by_points=True))


def test_a_doubtful_ref_that_is_no_play_leaves_only_the_result_recorded():
    game = random_game("brisca-2", 3)
    trump = next(i for i, event in enumerate(game.events) if event.type == "trump")
    assert list(orders(game, [trump, _play_refs(game)[0]])) == []
    assert len(open_results(game, frozenset({trump, _play_refs(game)[0]}))) == 1
