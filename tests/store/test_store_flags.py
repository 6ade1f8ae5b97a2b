"""The events the camera was unsure of stay with their stored game until an operator settles them,
and a stored game continues with them (and its tricks' evidence) in a new session."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cards import Card
from companion.engine import random_game
from companion.errors import UnknownName
from companion.session import Evidence, LiveSession, Setup
from companion.store import Store
from companion.store.writer import GameWriter, continue_game

GAME = random_game("brisca-2", seed=8, players=["Ana", "Luis"])
GUESSES = ((Card.parse("3E"), 0.21), (Card.parse("1B"), 0.05))


def writing(store: Store) -> tuple[LiveSession, GameWriter]:
    writer = GameWriter(store)
    setup = Setup(GAME.rules.to_spec(), GAME.players, GAME.first)
    session = LiveSession(setup, sink=writer, evidence_sink=writer.keep, flag_sink=writer.flags)
    return session, writer


def play(session: LiveSession, start: int, stop: int, doubtful: frozenset[int] = frozenset()) -> None:
    for seq in range(start, stop):
        event = GAME.events[seq]
        doubt = "read unsure" if seq in doubtful else None
        session.apply(lambda game, event=event: game.apply(event), doubt=doubt, alternatives=GUESSES)


def test_flags_are_raised_settled_and_raised_again(store: Store) -> None:
    game = store.import_record(GAME.to_dict())
    store.keep_flags(
        game,
        [{"seq": 3, "reason": "read unsure", "alternatives": [("3E", 0.2)]}, {"seq": 5, "reason": "a guess"}],
    )
    assert [(f.seq, f.reason, f.alternatives) for f in store.open_flags(game)] == [
        (3, "read unsure", (("3E", 0.2),)),
        (5, "a guess", ()),
    ]
    store.keep_flags(game, [{"seq": 5, "reason": "told again"}])  # 3 settled; 5 stays as raised
    assert [(f.seq, f.reason) for f in store.open_flags(game)] == [(5, "a guess")]
    store.keep_flags(game, [{"seq": 3, "reason": "doubted again"}])
    assert [(f.seq, f.reason) for f in store.open_flags(game)] == [(3, "doubted again")]
    store.keep_flags(game, [])
    assert store.open_flags(game) == []
    with pytest.raises(UnknownName, match="no game 99"):
        store.keep_flags(99, [])


def test_a_live_games_flags_are_kept_until_the_operator_settles_them(store: Store) -> None:
    session, writer = writing(store)
    play(session, 0, 8, doubtful=frozenset({2, 5}))
    session.question(6, "a later lead says otherwise")
    assert writer.game_id is not None
    stored = store.open_flags(writer.game_id)
    assert [(f.seq, f.reason) for f in stored] == [
        (2, "read unsure"),
        (5, "read unsure"),
        (6, "a later lead says otherwise"),
    ]
    assert stored[0].alternatives == (("3E", 0.21), ("1B", 0.05))
    first, *_ = session.view().flags
    session.resolve(first.id)  # confirmed as read
    assert [f.seq for f in store.open_flags(writer.game_id)] == [5, 6]


def test_a_stored_game_continues_with_its_flags_and_evidence(store: Store, tmp_path: Path) -> None:
    session, writer = writing(store)
    play(session, 0, 7, doubtful=frozenset({3, 4}))
    tricks = len(session.view().state.tricks)
    snapshot = tmp_path / "trick-01.jpg"
    snapshot.write_bytes(b"the table after trick 1")
    session.add_evidence(Evidence(1, snapshot, ({"card": "1O", "confidence": 0.9},)))
    game_id = writer.game_id
    assert game_id is not None and tricks >= 1

    later, again = writing(store)  # the next day: the server started again, on this game
    continue_game(later, again, game_id)
    view = later.view()
    assert view.record == session.view().record
    assert [(f.seq, f.reason, f.alternatives) for f in view.flags] == [
        (3, "read unsure", GUESSES),
        (4, "read unsure", GUESSES),
    ]
    assert view.evidence[1].readings == ({"card": "1O", "confidence": 0.9},)
    assert view.evidence[1].snapshot.read_bytes() == b"the table after trick 1"
    later.resolve(view.flags[0].id)
    play(later, 7, len(GAME.events))
    assert again.game_id == game_id and store.game(game_id).status == "complete"
    assert store.game_record(game_id) == GAME.to_dict()
    assert [f.seq for f in store.open_flags(game_id)] == [4]
