"""Helpers for database tests."""

import uuid

import pytest

from marketplace.db import session_scope
from marketplace.services import accounts


@pytest.fixture
def new_user(db_url):
    """Factory: a user with a profile and optional opening credits."""

    def _make(credits: int = 0, email: str | None = None, password: str = "secret123", **kw):
        with session_scope() as session:
            user = accounts.create_user(
                session, email or f"u{uuid.uuid4().hex[:8]}@example.com", password, "Test", "User",
                credits=credits, **kw,
            )
        return user

    return _make
