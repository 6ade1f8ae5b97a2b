import hashlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import delete, insert, inspect, update
from sqlalchemy.exc import DBAPIError

from companion.engine import MatchRecord, random_game
from companion.errors import IllegalAction, MalformedInput, UnknownName
from companion.store import Store
from companion.store.database import MIGRATIONS_DIR, connect, current_revision, head_revision, resolve_url
from companion.store.schema import events, games, metadata

TRUMP = {"type": "trump", "card": "4O"}
PLAY = {"type": "play", "seat": 0, "card": "1C"}


def test_open_migrates_to_the_newest_schema_and_reopens(db_url, tmp_path):
    with Store.open(db_url, evidence_dir=tmp_path) as store:
        assert current_revision(store.engine) == head_revision()
        tables = set(inspect(store.engine).get_table_names())
        assert set(metadata.tables) <= tables
        game = store.create_game("brisca-2", ["Ana", "Luis"])
    with Store.open(db_url, evidence_dir=tmp_path) as again:
        assert again.game(game).header == {
            "format": "brisca-record/1",
            "rules": "brisca-2",
            "players": ["Ana", "Luis"],
            "first": 0,
        }


def test_append_is_ordered_and_idempotent_by_seq(store):
    game = store.create_game("brisca-2", ["Ana", "Luis"], 1)
    assert store.append_event(game, TRUMP) == 0
    assert store.append_event(game, PLAY, 1) == 1
    assert store.append_event(game, PLAY, 1) == 1  # a retry stores nothing new
    assert store.append_event(game, TRUMP, 0) == 0
    assert store.game_record(game) == {
        "format": "brisca-record/1",
        "rules": "brisca-2",
        "players": ["Ana", "Luis"],
        "first": 1,
        "events": [TRUMP, PLAY],
    }
    assert store.game(game).events == 2
    assert store.events(game, after=0) == [PLAY]


def test_append_refuses_rewrites_gaps_and_unknown_games(store):
    game = store.create_game("brisca-2", ["Ana", "Luis"])
    store.append_event(game, TRUMP)
    with pytest.raises(IllegalAction, match="different event at seq 0"):
        store.append_event(game, PLAY, 0)
    with pytest.raises(MalformedInput, match=r"seq 5 .* gap"):
        store.append_event(game, PLAY, 5)
    with pytest.raises(MalformedInput, match="-1"):
        store.append_event(game, PLAY, -1)
    with pytest.raises(UnknownName, match="no game 999"):
        store.append_event(999, PLAY)
    assert store.events(game) == [TRUMP]


def test_import_record_round_trips_and_links_players(store):
    rules = {"preset": "brisca-4", "options": {"tie_break": "draw"}}
    record = {
        "format": "brisca-record/1",
        "rules": rules,
        "players": ["A", "B", "C", "D"],
        "first": 2,
        "events": [TRUMP],
    }
    game = store.import_record(record)
    assert store.game_record(game) == record
    assert store.game(game).status == "complete"
    assert [p["name"] for p in store.players()] == ["A", "B", "C", "D"]
    with pytest.raises(MalformedInput, match="events"):
        store.import_record(
            {"format": "brisca-record/1", "rules": "brisca-2", "players": ["A", "B"], "first": 0}
        )
    with pytest.raises(MalformedInput, match="'deal'"):
        store.append_event(game, {"type": "deal"})


def test_games_filter_by_status_and_match(store):
    match = store.create_match("brisca-2", ["Ana", "Luis"], target=5)
    first = store.import_record(
        random_game("brisca-2", seed=1, players=["Ana", "Luis"]).to_dict(), match_id=match
    )
    second = store.create_game("brisca-2", ["Ana", "Luis"], 1, match_id=match)
    other = store.create_game("brisca-2", ["Eva", "Luis"])
    assert [g.id for g in store.games(status="live")] == [second, other]
    assert [g.id for g in store.games(match_id=match)] == [first, second]
    record = MatchRecord.from_dict(store.match_record(match))
    assert record.match.target == 5
    assert [game.to_dict() for game in record.games] == [store.game_record(first), store.game_record(second)]
    store.finish_game(second, "abandoned")
    summary = store.game(second)
    assert summary.created_at <= summary.finished_at <= datetime.now(UTC)
    assert [g.id for g in store.games(status="abandoned")] == [second]
    with pytest.raises(MalformedInput, match="'paused'"):
        store.finish_game(second, "paused")
    with pytest.raises(UnknownName, match="12345"):
        store.finish_game(12345)
    with pytest.raises(UnknownName, match="77"):
        store.match_record(77)
    with pytest.raises(MalformedInput, match="target"):
        store.create_match("brisca-2", ["A", "B"], target=0)


def test_teams_keep_member_order(store):
    store.add_team("Los de siempre", ["Eva", "Ana"])
    assert store.teams()[0]["members"] == ["Eva", "Ana"]
    with pytest.raises(IllegalAction, match="Los de siempre"):
        store.add_team("Los de siempre", ["Luis"])
    assert store.add_player("Eva") == store.add_player(" Eva ")


def test_evidence_is_written_with_its_hash_once(store):
    game = store.create_game("brisca-2", ["Ana", "Luis"])
    content = b"\x89PNG fake snapshot"
    item = store.add_evidence(game, content, trick=3, suffix=".png", note={"readings": 2})
    again = store.add_evidence(game, content, trick=3, suffix=".png")
    assert item.id == again.id
    assert item.sha256 == hashlib.sha256(content).hexdigest()
    assert hashlib.sha256(item.path.read_bytes()).hexdigest() == item.sha256
    assert store.evidence(game) == [item]
    assert store.tampered_evidence(game) == []
    second = store.add_evidence(game, b"another snapshot", trick=4)
    second.path.write_bytes(b"edited afterwards")
    item.path.unlink()
    assert store.tampered_evidence(game) == [item, second]


def test_tournament_documents_are_saved_by_name(store):
    first = store.save_tournament({"name": "Invierno", "format": "league", "rounds": []})
    again = store.save_tournament({"name": "Invierno", "format": "league", "rounds": [[1]]})
    assert first == again
    assert store.tournament("Invierno")["rounds"] == [[1]]
    assert store.tournament_names() == ["Invierno"]
    with pytest.raises(UnknownName, match="Verano"):
        store.tournament("Verano")


def test_resolve_url_accepts_paths_and_plain_postgres(tmp_path):
    assert resolve_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert resolve_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    with pytest.raises(MalformedInput, match="nope"):
        resolve_url("nope://")


def test_the_migrations_build_exactly_the_declared_schema(db_url, tmp_path):
    with Store.open(db_url, evidence_dir=tmp_path) as store, store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []


def test_concurrent_appends_get_distinct_contiguous_positions(store):
    game = store.create_game("brisca-2", ["Ana", "Luis"])
    events = [
        {"type": "play", "seat": seat, "card": card} for seat in (0, 1) for card in ("1O", "2O", "3O", "4O")
    ]

    def append(event):
        return store.append_event(game, event)

    with ThreadPoolExecutor(max_workers=4) as pool:
        positions = list(pool.map(append, events))
    assert sorted(positions) == list(range(len(events)))
    stored = store.events(game)
    assert [stored[seq] for seq in positions] == events


def test_processes_opening_a_new_database_at_once_migrate_it_once(db_url, tmp_path):
    opener = (
        "import sys; from companion.store import Store; Store.open(*sys.argv[1:2], evidence_dir=sys.argv[2])"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", opener, db_url, str(tmp_path)], stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    errors = [process.communicate(timeout=120)[1] for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0, 0], errors
    with Store.open(db_url, evidence_dir=tmp_path) as store:
        assert current_revision(store.engine) == head_revision()


def test_the_database_refuses_to_rewrite_or_delete_events(store):
    game = store.create_game("brisca-2", ["Ana", "Luis"])
    store.append_event(game, TRUMP)
    for statement in (update(events).values(payload="{}"), delete(events)):
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as connection:
            connection.execute(statement)
    assert store.events(game) == [TRUMP]


def test_a_database_of_an_older_revision_is_upgraded_with_its_data(db_url, tmp_path):
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = connect(db_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            insert(games).values(
                header={"players": ["Ana", "Luis"]}, status="live", created_at=datetime.now(UTC)
            )
        )
    engine.dispose()
    with Store.open(db_url, evidence_dir=tmp_path) as store:
        assert current_revision(store.engine) == head_revision() != "0001"
        assert [game.header["players"] for game in store.games()] == [["Ana", "Luis"]]
