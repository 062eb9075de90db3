"""Who is a super admin (SPEC 6): the one check every gate of the explorer uses (its page, its events, its
CSV export, the webhook's super admin caller)."""

from __future__ import annotations

import uuid

from sqlmodel import Session

from marketplace.platform.db import read_scope
from marketplace.platform.models import SuperAdmin


def is_super_admin(user_id: uuid.UUID, session: Session | None = None) -> bool:
    """Whether ``user_id`` has a ``super_admins`` row: in ``session`` when given, else in a read of its own."""
    if session is None:
        with read_scope() as own:
            return is_super_admin(user_id, own)
    return session.get(SuperAdmin, user_id) is not None
