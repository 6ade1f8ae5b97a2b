"""Alembic environment: runs on the connection handed over by ``companion.store.database.upgrade``."""

from alembic import context
from sqlalchemy import create_engine

from companion.store.database import resolve_url
from companion.store.schema import metadata


def run_migrations(connection: object) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run_migrations(given)
else:  # the `alembic` command line: -x db=URL, or the default database
    url = resolve_url(context.get_x_argument(as_dictionary=True).get("db"))
    with create_engine(url).begin() as connection:
        run_migrations(connection)
