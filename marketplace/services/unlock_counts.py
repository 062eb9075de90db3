"""``leads.unlock_count``: how many live accounts hold an unlock record of each lead (``core.holders``).

The counter moves in the caller's transaction, right after the write that adds or removes unlock records
succeeded, and never otherwise: ``added`` after the ``user_leads`` insert went through (a concurrent twin
fails on the table's unique key before it gets here, and its rollback takes nothing back from the
counter because it never moved it), ``removed_for_user`` when an account closes (its records stay, for
the ledger, but it holds nothing any more). Every write of ``user_leads`` calls one of them:
``services.unlocks.unlock_lead``, ``services.scrapes`` (the unlock records of a delivery),
``services.account_settings.delete_account``. ``recount`` sets them all from ``user_leads`` (what
migration 0021 backfilled; the tests check that every write leaves it nothing to correct).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import sqlalchemy as sa

from marketplace.models import Lead, User, UserLead

leads_t = Lead.__table__
user_leads_t = UserLead.__table__
users_t = User.__table__
CHUNK = 500


def added(session, lead_ids: Iterable[uuid.UUID]) -> None:
    """One more holder of each of ``lead_ids`` (distinct ids: one user's unlock records, just inserted).
    Runs in the caller's transaction and never commits it."""
    ids = list(dict.fromkeys(lead_ids))
    for start in range(0, len(ids), CHUNK):  # a scrape delivers up to 1,000: bounded IN lists
        session.execute(sa.update(leads_t).where(leads_t.c.id.in_(ids[start:start + CHUNK]))
                        .values(unlock_count=leads_t.c.unlock_count + 1))


def removed_for_user(session, user_id: uuid.UUID) -> None:
    """One holder fewer of every lead ``user_id`` holds (the account is closing; its records stay).
    Never below zero. Runs in the caller's transaction and never commits it."""
    held = sa.select(user_leads_t.c.lead_id).where(user_leads_t.c.user_id == user_id)
    session.execute(sa.update(leads_t).where(leads_t.c.id.in_(held)).values(
        unlock_count=sa.case((leads_t.c.unlock_count > 0, leads_t.c.unlock_count - 1), else_=0)))


def recount(conn) -> int:
    """Set every lead's counter from ``user_leads`` (inside the caller's transaction, or an autocommit
    connection); the number of leads whose counter was wrong (0 when every write kept it)."""
    records = user_leads_t.join(users_t, users_t.c.id == user_leads_t.c.user_id)
    holders = (sa.select(sa.func.count()).select_from(records)
               .where(user_leads_t.c.lead_id == leads_t.c.id, users_t.c.deleted_at.is_(None))
               .scalar_subquery())
    result = conn.execute(sa.update(leads_t).where(leads_t.c.unlock_count != holders).values(unlock_count=holders))
    return result.rowcount or 0
