"""The health check's database round trip."""

from __future__ import annotations

from sqlalchemy import text

from marketplace.db import read_scope


def ping_database() -> None:
    """One ``SELECT 1`` on a read connection: it never waits for a writer. Blocking."""
    with read_scope() as session:
        session.execute(text("SELECT 1"))
