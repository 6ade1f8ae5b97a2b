"""Evidence paths are kept relative to the store's evidence folder (``<game>/<sha256><suffix>``).

Rows written before this revision hold absolute paths. Those in the store's own layout (the file
named by its sha256, in the folder named by its game) become relative, so a data folder moved
elsewhere still finds them; any other absolute path is left as it is and still read as written.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from pathlib import PurePath

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

evidence = sa.table(
    "evidence",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("path", sa.String),
    sa.column("sha256", sa.String),
)


def upgrade() -> None:
    connection = op.get_bind()
    for row in connection.execute(sa.select(evidence)).all():
        path = PurePath(row.path)
        in_layout = path.parent.name == str(row.game_id) and path.name.startswith(row.sha256)
        if path.is_absolute() and in_layout:
            relative = f"{row.game_id}/{path.name}"
            connection.execute(sa.update(evidence).where(evidence.c.id == row.id).values(path=relative))


def downgrade() -> None:
    """Not reversible: the database does not know which evidence folder the relative paths are in."""
    raise NotImplementedError("evidence paths cannot be made absolute again without the evidence folder")
