"""``leads.unlock_count``: how many live accounts hold an unlock record of each lead (``unlock.rules_holders``).

The counter moves in the caller's transaction, right after the write that adds or removes unlock records
succeeded, and never otherwise: ``added`` after the ``user_leads`` insert went through (a concurrent twin
fails on the table's unique key before it gets here, and its rollback takes nothing back from the
counter because it never moved it), ``removed_for_user`` when an account closes (its records stay, for
the ledger, but it holds nothing any more). Every write of ``user_leads`` calls one of them:
``unlock.service.unlock_lead``, ``scrape.service`` (the unlock records of a delivery),
``accounts.service_settings.delete_account``. ``recount`` sets them all from ``user_leads`` (what
migration 0021 backfilled; the tests check that every write leaves it nothing to correct).

The cap (``LEAD_MAX_HOLDERS``, ``unlock.rules_holders``): a write that adds a holder of a marketplace lead claims
its spot with ``claim`` (or ``claim_exclusive``), one conditional ``UPDATE ... WHERE NOT exclusive AND
(cap = 0 OR unlock_count + 1 <= cap)`` in the caller's transaction. PostgreSQL re-checks the condition
on the row's newest version once a concurrent writer commits (the row lock orders them), SQLite has one
writer at a time: however many race for the last spot, exactly as many as there are spots get one; the
others' transactions roll back (nothing charged, nothing recorded). ``added`` stays for leads that are
the user's own copy (a scrape's generated lead: one holder by construction).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import sqlalchemy as sa

from marketplace.platform.models import Lead, User, UserLead

leads_t = Lead.__table__
user_leads_t = UserLead.__table__
users_t = User.__table__
CHUNK = 500
EXCLUSIVE = "exclusive"  # user_leads.purchase_type of an exclusive unlock


def added(session, lead_ids: Iterable[uuid.UUID]) -> None:
    """One more holder of each of ``lead_ids`` (distinct ids: one user's unlock records, just inserted).
    Runs in the caller's transaction and never commits it."""
    ids = list(dict.fromkeys(lead_ids))
    for start in range(0, len(ids), CHUNK):  # a scrape delivers up to 1,000: bounded IN lists
        session.execute(sa.update(leads_t).where(leads_t.c.id.in_(ids[start:start + CHUNK]))
                        .values(unlock_count=leads_t.c.unlock_count + 1))


def has_spot(cap: int):
    """SQL: the lead has a spot left under ``cap`` (0 = no cap) and no exclusive holder."""
    free = leads_t.c.exclusive == sa.false()
    return free if cap <= 0 else sa.and_(free, leads_t.c.unlock_count < cap)


def claim(session, lead_ids: Iterable[uuid.UUID], cap: int) -> set[uuid.UUID]:
    """One more holder of each of ``lead_ids`` that has a spot left under ``cap`` (0 = no cap); the
    ids that got one (the others are full: their holder is not to be recorded). Several rows are locked
    in id order first (PostgreSQL), so two claims over overlapping leads never deadlock. Runs in the
    caller's transaction and never commits it."""
    ids = sorted(dict.fromkeys(lead_ids))
    claimed: set[uuid.UUID] = set()
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        # FOR NO KEY UPDATE, the lock the UPDATE takes anyway: it does not wait for the KEY SHARE locks of
        # concurrent user_leads inserts (their foreign key), which FOR UPDATE would (a deadlock).
        if len(chunk) > 1:
            session.execute(sa.select(leads_t.c.id).where(leads_t.c.id.in_(chunk)).order_by(leads_t.c.id)
                            .with_for_update(key_share=True))  # FOR NO KEY UPDATE
        rows = session.execute(sa.update(leads_t).where(leads_t.c.id.in_(chunk), has_spot(cap))
                               .values(unlock_count=leads_t.c.unlock_count + 1).returning(leads_t.c.id))
        claimed.update(row[0] for row in rows)
    return claimed


def claim_exclusive(session, lead_id: uuid.UUID, cap: int, holders_seen: int) -> bool:
    """The exclusive unlock's claim: one more holder and every spot left, only while the lead has
    exactly ``holders_seen`` holders (the count its price was computed from) and spots left under
    ``cap``. False: it changed meanwhile (nothing to record or charge)."""
    if cap <= 0:
        return False
    result = session.execute(sa.update(leads_t).where(
        leads_t.c.id == lead_id, has_spot(cap), leads_t.c.unlock_count == holders_seen,
    ).values(unlock_count=leads_t.c.unlock_count + 1, exclusive=sa.true()))
    return (result.rowcount or 0) == 1


def removed_for_user(session, user_id: uuid.UUID) -> None:
    """One holder fewer of every lead ``user_id`` holds (the account is closing; its records stay).
    Never below zero; a lead it held exclusively is open again (its spots were that holder's). Runs
    in the caller's transaction and never commits it."""
    held = sa.select(user_leads_t.c.lead_id).where(user_leads_t.c.user_id == user_id)
    exclusive = held.where(user_leads_t.c.purchase_type == EXCLUSIVE)
    session.execute(sa.update(leads_t).where(leads_t.c.id.in_(held)).values(
        unlock_count=sa.case((leads_t.c.unlock_count > 0, leads_t.c.unlock_count - 1), else_=0),
        exclusive=sa.case((leads_t.c.id.in_(exclusive), sa.false()), else_=leads_t.c.exclusive)))


def recount(conn) -> int:
    """Set every lead's counter from ``user_leads`` (inside the caller's transaction, or an autocommit
    connection); the number of leads whose counter was wrong (0 when every write kept it)."""
    records = user_leads_t.join(users_t, users_t.c.id == user_leads_t.c.user_id)
    holders = (sa.select(sa.func.count()).select_from(records)
               .where(user_leads_t.c.lead_id == leads_t.c.id, users_t.c.deleted_at.is_(None))
               .scalar_subquery())
    result = conn.execute(sa.update(leads_t).where(leads_t.c.unlock_count != holders).values(unlock_count=holders))
    return result.rowcount or 0
