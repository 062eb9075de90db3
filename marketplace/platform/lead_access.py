"""May this user see this lead? Decided here, once, for every service that serves an unlocked lead's data.

A user sees a lead's paid data when they hold an unlock record of it (``user_leads``); an archived lead
stays readable by its unlockers (an unlock is forever). A malformed id reads exactly like a locked lead, so
a wrong id never tells whether a lead exists.

- ``lead_uuid(value)``: the one parser of a lead id (a ``UUID`` or its text); None when malformed.
- ``parse_lead(user_id, lead_id, refusal)``: the lead's UUID for a signed-in user; ``NOT_SIGNED_IN``
  without a user, ``refusal`` (a ``UserError``) for a malformed id.
- ``unlock_of(session, user_id, lead_id)``: (lead, unlock record) or None, in the caller's transaction.
- ``require_unlocked(session, user_id, lead_id, refusal)``: the lead, or ``UserError(*refusal)``: the
  caller's own refusal ('Lead Locked', 'Unlock this lead to analyze the deal.').
- ``is_unlocked(session, user_id, lead_id)``: the same question answered yes or no, for pages a locked
  viewer sees too (the public-record panel hides its paid part).
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlmodel import Session, select

from marketplace.platform import texts as msg
from marketplace.platform.errors import UserError
from marketplace.platform.models import Lead, UserLead

user_leads_t = UserLead.__table__


def lead_uuid(value: object) -> uuid.UUID | None:
    """The lead id as a UUID; None for anything that is not one."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def parse_lead(user_id: uuid.UUID | None, lead_id: object, refusal: tuple[str, str]) -> uuid.UUID:
    """The lead's UUID; ``NOT_SIGNED_IN`` without a user, ``refusal`` for a malformed id."""
    if user_id is None:
        raise UserError(*msg.NOT_SIGNED_IN)
    found = lead_uuid(lead_id)
    if found is None:
        raise UserError(*refusal)
    return found


def unlock_of(session: Session, user_id: uuid.UUID | None, lead_id: object) -> tuple[Lead, UserLead] | None:
    """(lead, unlock record) when ``user_id`` unlocked the lead, else None (no user, a malformed id)."""
    key = lead_uuid(lead_id)
    if user_id is None or key is None:
        return None
    row = session.exec(
        select(Lead, UserLead).join(UserLead, UserLead.lead_id == Lead.id)
        .where(UserLead.user_id == user_id, Lead.id == key)
    ).first()
    return None if row is None else (row[0], row[1])


def require_unlocked(session: Session, user_id: uuid.UUID | None, lead_id: object,
                     refusal: tuple[str, str]) -> Lead:
    """Inside the caller's transaction: the lead when ``user_id`` unlocked it; else ``UserError(*refusal)``
    (``NOT_SIGNED_IN`` without a user)."""
    key = parse_lead(user_id, lead_id, refusal)
    found = unlock_of(session, user_id, key)
    if found is None:
        raise UserError(*refusal)
    return found[0]


def is_unlocked(conn, user_id: uuid.UUID | None, lead_id: object) -> bool:
    """Whether ``user_id`` unlocked the lead (``conn``: a session or a connection)."""
    key = lead_uuid(lead_id)
    return user_id is not None and key is not None and conn.execute(
        sa.select(user_leads_t.c.id).where(user_leads_t.c.lead_id == key, user_leads_t.c.user_id == user_id)
    ).first() is not None


def lead_exists(session: Session, lead_id: object) -> bool:
    """Whether a lead of that id exists (the page tells 'no access' from 'not found')."""
    key = lead_uuid(lead_id)
    return key is not None and session.exec(select(sa.literal(1)).where(Lead.id == key)).first() is not None
