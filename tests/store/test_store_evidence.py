"""Evidence paths are kept relative to the evidence folder: a moved data folder still finds its files."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import select, text, update

from companion.store import Store, schema


def test_a_moved_data_folder_still_finds_its_evidence(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Store.open(f"sqlite:///{data / 'companion.db'}", evidence_dir=data / "evidence") as store:
        game = store.create_game("brisca-2", ["Ana", "Luis"])
        store.add_evidence(game, b"snapshot of trick 1", trick=1)
        with store.engine.connect() as connection:
            assert connection.scalar(select(schema.evidence.c.path)) == f"{game}/{_sha(store, game)}.jpg"
    moved = shutil.move(data, tmp_path / "moved")
    with Store.open(f"sqlite:///{moved / 'companion.db'}", evidence_dir=moved / "evidence") as store:
        (item,) = store.evidence(game)
        assert item.path == moved / "evidence" / str(game) / f"{item.sha256}.jpg"
        assert item.path.read_bytes() == b"snapshot of trick 1"
        assert store.tampered_evidence(game) == []


def test_the_migration_makes_old_absolute_paths_relative(db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "evidence"
    elsewhere = tmp_path / "elsewhere" / "kept.jpg"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(b"kept outside the store")
    with Store.open(db_url, evidence_dir=folder) as store:
        game = store.create_game("brisca-2", ["Ana", "Luis"])
        inside = store.add_evidence(game, b"snapshot of trick 1", trick=1)
        outside = store.add_evidence(game, elsewhere.read_bytes(), trick=2)
        with store.engine.begin() as connection:  # as a store of revision 0002 was, and wrote them
            for item, path in ((inside, inside.path), (outside, elsewhere)):
                connection.execute(
                    update(schema.evidence).where(schema.evidence.c.id == item.id).values(path=str(path))
                )
            connection.execute(text("DROP TABLE flags"))
            connection.execute(text("UPDATE alembic_version SET version_num = '0002'"))
    with Store.open(db_url, evidence_dir=folder) as store:
        with store.engine.connect() as connection:
            stored = connection.execute(select(schema.evidence.c.path).order_by(schema.evidence.c.id))
            assert list(stored.scalars()) == [f"{game}/{inside.sha256}.jpg", str(elsewhere)]
        assert [item.path for item in store.evidence(game)] == [inside.path, elsewhere]
        assert store.tampered_evidence(game) == []


def _sha(store: Store, game: int) -> str:
    (item,) = store.evidence(game)
    return item.sha256
