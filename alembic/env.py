"""Alembic environment: the URL and the metadata come from the app."""

from alembic import context
from sqlmodel import SQLModel

import marketplace.platform.models  # noqa: F401  (registers every table)
from marketplace.platform.db import get_engine
from marketplace.platform.migrations import include_object

config = context.config
target_metadata = SQLModel.metadata


def _url() -> str | None:
    return config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url") or None


def run_migrations_offline() -> None:
    context.configure(url=_url() or str(get_engine().url), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    with get_engine(_url()).connect() as connection:
        _run(connection)


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        compare_server_default=False,
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
