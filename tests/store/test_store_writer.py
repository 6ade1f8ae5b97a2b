"""A live session writes its game into the store as it is played, and continues a stored game."""

from companion.engine import GameRecord, random_game
from companion.session import LiveSession
from companion.store.writer import GameWriter

GAME = random_game("brisca-2", seed=5, players=["Ana", "Luis"])


def play(session: LiveSession, events) -> None:
    for event in events:
        session.apply(lambda game, event=event: game.apply(event))


def test_every_event_is_stored_and_a_finished_game_is_complete(store):
    writer = GameWriter(store)
    session = LiveSession(sink=writer)
    session.load(GameRecord(GAME.rules, GAME.players, GAME.first))
    play(session, GAME.events[:10])
    assert (
        store.game_record(writer.game_id)
        == GameRecord(GAME.rules, GAME.players, GAME.first, GAME.events[:10]).to_dict()
    )
    assert store.game(writer.game_id).status == "live"
    play(session, GAME.events[10:])
    assert store.game_record(writer.game_id) == GAME.to_dict()
    assert store.game(writer.game_id).status == "complete"


def test_a_failed_write_is_caught_up_by_the_next_event(store, monkeypatch):
    writer = GameWriter(store)
    session = LiveSession(sink=writer)
    session.load(GameRecord(GAME.rules, GAME.players, GAME.first))
    play(session, GAME.events[:3])
    real = store.append_event
    monkeypatch.setattr(store, "append_event", lambda *args: (_ for _ in ()).throw(OSError("disk gone")))
    play(session, GAME.events[3:5])  # the session keeps scoring while the store fails
    monkeypatch.setattr(store, "append_event", real)
    play(session, GAME.events[5:6])
    assert store.game_record(writer.game_id)["events"] == [e.to_dict() for e in GAME.events[:6]]


def test_a_restarted_session_continues_the_stored_game(store):
    first = GameWriter(store)
    session = LiveSession(sink=first)
    session.load(GameRecord(GAME.rules, GAME.players, GAME.first))
    play(session, GAME.events[:7])
    (live,) = store.games(status="live")
    again = LiveSession(sink=GameWriter(store, live.id))
    again.load(GameRecord.from_dict(store.game_record(live.id)))
    play(again, GAME.events[7:])
    assert [g.id for g in store.games()] == [live.id]
    assert store.game_record(live.id) == GAME.to_dict()
