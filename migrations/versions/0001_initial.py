"""Initial schema: players, teams, tournaments, matches, games, events, evidence.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "team_members",
        sa.Column("team_id", sa.Integer, sa.ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("format", sa.String(20), nullable=False),
        sa.Column("document", sa.JSON, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("header", sa.JSON, nullable=False),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="SET NULL")),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id")),
        sa.Column("header", sa.JSON, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("finished_at", WHEN),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("stored_at", WHEN, nullable=False),
    )
    op.create_table(
        "evidence",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("trick", sa.Integer),
        sa.Column("path", sa.String(500), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("note", sa.JSON, nullable=False),
        sa.Column("stored_at", WHEN, nullable=False),
        sa.UniqueConstraint("game_id", "sha256", name="uq_evidence_game_sha256"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_evidence_game", "evidence", ["game_id"])


def downgrade() -> None:
    for table in (
        "evidence",
        "events",
        "game_seats",
        "games",
        "matches",
        "tournaments",
        "team_members",
        "teams",
        "players",
    ):
        op.drop_table(table)
