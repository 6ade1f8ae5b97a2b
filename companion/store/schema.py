"""The tables of the store (SQLAlchemy Core), shared by the code and the migrations.

Events are append-only: a correction is a new event (``amend``/``void``), never an
update of a stored row. ``events`` is keyed by ``(game_id, seq)``, so a retried
append can never store the same event twice. ``flags`` keeps the events the camera
was unsure of until an operator settles them (``settled_at``), so a game scored
through doubts says so after the session that scored it has gone.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(120), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

teams = Table(
    "teams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(120), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

team_members = Table(
    "team_members",
    metadata,
    Column("team_id", ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("position", Integer, nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(120), nullable=False, unique=True),
    Column("format", String(20), nullable=False),
    Column("document", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

matches = Table(
    "matches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("header", JSON, nullable=False),
    Column("tournament_id", ForeignKey("tournaments.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", ForeignKey("matches.id")),
    Column("header", JSON, nullable=False),
    Column("status", String(12), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True)),
)

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", ForeignKey("players.id"), nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("game_id", ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("payload", Text, nullable=False),
    Column("stored_at", DateTime(timezone=True), nullable=False),
)

evidence = Table(
    "evidence",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", ForeignKey("games.id"), nullable=False),
    Column("trick", Integer),
    Column("path", String(500), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    Column("note", JSON, nullable=False),
    Column("stored_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("game_id", "sha256", name="uq_evidence_game_sha256"),
)

flags = Table(
    "flags",
    metadata,
    Column("game_id", ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("reason", Text, nullable=False),
    Column("alternatives", JSON, nullable=False),
    Column("raised_at", DateTime(timezone=True), nullable=False),
    Column("settled_at", DateTime(timezone=True)),
)

Index("ix_games_status", games.c.status)
Index("ix_evidence_game", evidence.c.game_id)
