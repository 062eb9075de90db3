"""Find the owner's phone and e-mail of an unlocked lead.

``find_owner_contact(user_id, lead_id)``:

1. A read: the user must hold an unlock record of the lead (else ``SKIP_TRACE_LOCKED``, nothing happens).
   A stored hit of this user and lead is returned as it is: a repeat is free and asks no provider; so is a
   stored miss younger than ``MISS_RETRY_DAYS`` (30 days; ``now`` is the clock, a parameter for tests). An
   older miss is searched again. A balance below the price of a hit (``config.skip_trace_price``,
   SKIP_TRACE_CREDITS_PER_HIT, default 2) is refused with the SPEC's shortfall message
   ("You have 1 credit but need 2.") before any provider is asked.
2. The provider (``property.source_skip_trace``) is asked OUTSIDE any transaction (slow HTTP). Its failure is
   ``SKIP_TRACE_FAILED``: nothing charged, nothing stored (the user may try again).
3. One transaction: the ``owner_contacts`` row (found or miss), and only when the provider returned at least
   one phone or e-mail, ``ledger.apply_credits(-price, "skip_trace")``. A miss is stored at 0
   credits (a repeat within 30 days shows it, free). A repeated search of an old miss updates its row (its
   ``created_at`` is the date of the search shown). The row's UNIQUE(user_id, lead_id) stops a concurrent
   twin: the loser rolls back and returns the winner's row, charging nothing (a twin retry of an old miss
   waits on the row's lock and finds it searched). A balance spent meanwhile makes the ledger
   refuse: the whole transaction rolls back (nothing stored) and the shortfall message is raised.

The owner name given to the provider (shown when the provider names nobody) is the owner of record of
a public-record lead, else a name in the lead's raw data, else none.

``owner_contact(user_id, lead_id)`` reads the stored result (None before the first search);
``mark_number_wrong(user_id, lead_id, number, wrong=True)`` marks one of its numbers (un)wrong.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.platform import texts as msg
from marketplace.platform.config import skip_trace_price
from marketplace.features.property import rules_owner_contact as contact_rules
from marketplace.platform.errors import UserError
from marketplace.platform.texts import shortfall_message
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import Lead, OwnerContact, Property
from marketplace.platform import ledger
from marketplace.platform import lead_access
from marketplace.features.scrape import SourceError
from marketplace.features.property.rules_owner_contact import ContactResult
from marketplace.features.property.source_skip_trace import SkipTraceProvider, provider_from_settings

log = logging.getLogger("marketplace.skip_trace")
OWNER_NAME_KEYS = ("owner_name", "ownerName", "owner", "owner_full_name")


class SkipTraceError(UserError):
    """A refused or failed owner search: ``title`` and ``message`` are what the user is told."""


@dataclass(frozen=True)
class ContactView:
    lead_id: uuid.UUID
    provider: str
    demo: bool  # True: fictional demo data; the page shows ``note``
    status: str  # "found" | "miss"
    owner_name: str | None
    phones: tuple[dict[str, Any], ...]  # {number, type, dnc, wrong}
    emails: tuple[str, ...]
    credits_charged: int  # what this search cost (0 for a miss)
    charged_now: int  # what this call charged (0 for a repeat, a miss, or a concurrent twin)
    balance: int | None  # the balance after a charge (None when nothing was charged)
    created_at: datetime
    note: str | None  # SKIP_TRACE_DEMO_NOTE for demo data
    retry_after: datetime | None = None  # a miss: when it may be searched again (30 days on)


def find_owner_contact(user_id: uuid.UUID | None, lead_id: object, provider: SkipTraceProvider | None = None,
                       database_url: str | None = None, now: datetime | None = None) -> ContactView:
    """Search the lead's owner (module docstring); raises ``SkipTraceError`` on a refusal."""
    lead_uuid = lead_access.parse_lead(user_id, lead_id, msg.SKIP_TRACE_LOCKED)
    cost = skip_trace_price()
    now = now or datetime.now(timezone.utc)
    with read_scope(database_url) as session:
        lead = lead_access.require_unlocked(session, user_id, lead_uuid, msg.SKIP_TRACE_LOCKED)
        stored = _stored(session, user_id, lead_uuid)
        if stored is not None and not contact_rules.needs_search(stored.status, stored.created_at, now):
            return _view(stored)
        available = ledger.balance(session, user_id)
        if available < cost:
            raise SkipTraceError(msg.INSUFFICIENT_CREDITS_TITLE, shortfall_message(available, cost))
        where = (lead.address, lead.city, lead.state, lead.zip_code)
        owner = owner_name(session, lead)
    found = _ask(provider, where, owner)
    hit = found.found
    try:
        with session_scope(database_url) as session:
            lead_access.require_unlocked(session, user_id, lead_uuid, msg.SKIP_TRACE_LOCKED)
            row = session.exec(select(OwnerContact).where(OwnerContact.user_id == user_id,
                                                          OwnerContact.lead_id == lead_uuid).with_for_update()).first()
            if row is not None and not contact_rules.needs_search(row.status, row.created_at, now):
                return _view(row)  # a concurrent search stored first (SQLite serialises the writers)
            row = store_result(session, user_id, lead_uuid, found, cost, now, row)
            session.flush()  # PostgreSQL: waits for a concurrent twin's commit, then fails on the UNIQUE
            balance = ledger.apply_credits(session, user_id, -cost, "skip_trace", str(lead_uuid)) if hit else None
            return _view(row, charged_now=row.credits_charged, balance=balance)
    except ledger.InsufficientCredits as exc:
        raise SkipTraceError(msg.INSUFFICIENT_CREDITS_TITLE, str(exc)) from None
    except IntegrityError:
        with read_scope(database_url) as session:
            twin = _stored(session, user_id, lead_uuid)
        if twin is None:
            raise
        return _view(twin)


def store_result(session: Session, user_id: uuid.UUID, lead_id: uuid.UUID, found: ContactResult, cost: int,
                 now: datetime, row: OwnerContact | None = None) -> OwnerContact:
    """Store one search's result in the caller's transaction (never commits): a new row, or ``row`` (an old
    miss searched again) overwritten; ``credits_charged`` is ``cost`` for a hit, 0 for a miss. The caller
    charges."""
    hit = found.found
    if row is None:
        row = OwnerContact(user_id=user_id, lead_id=lead_id)
    row.provider, row.demo, row.status = found.provider, found.demo, "found" if hit else "miss"
    row.owner_name = found.owner_name or None
    row.phones, row.emails = list(found.phones), list(found.emails)
    row.credits_charged = cost if hit else 0
    row.created_at = now
    session.add(row)
    return row


def owner_contact(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None) -> ContactView | None:
    """The stored search of this user and lead, None before the first; ``SKIP_TRACE_LOCKED`` without an unlock."""
    with read_scope(database_url) as session:
        lead = lead_access.require_unlocked(session, user_id, lead_id, msg.SKIP_TRACE_LOCKED)
        return contact_of(session, user_id, lead.id)


def contact_of(session: Session, user_id: uuid.UUID, lead_id: uuid.UUID) -> ContactView | None:
    """Inside the caller's read, for a lead the caller found unlocked: the stored search, or None."""
    stored = _stored(session, user_id, lead_id)
    return _view(stored) if stored is not None else None


def mark_number_wrong(user_id: uuid.UUID | None, lead_id: object, number: object, wrong: bool = True,
                      database_url: str | None = None) -> ContactView:
    """Mark one of the found numbers as a wrong number (``wrong=False`` takes the mark back)."""
    lead_uuid = lead_access.parse_lead(user_id, lead_id, msg.SKIP_TRACE_LOCKED)
    with session_scope(database_url) as session:
        lead_access.require_unlocked(session, user_id, lead_uuid, msg.SKIP_TRACE_LOCKED)
        row = session.exec(select(OwnerContact).where(OwnerContact.user_id == user_id,
                                                      OwnerContact.lead_id == lead_uuid).with_for_update()).first()
        if row is None:
            raise SkipTraceError(*msg.SKIP_TRACE_NO_RESULT)
        phones = contact_rules.mark_wrong(list(row.phones), number, wrong=bool(wrong))
        if phones is None:
            raise SkipTraceError(*msg.NUMBER_NOT_LISTED)
        row.phones = phones
        session.add(row)
        session.flush()
        return _view(row)


def _ask(provider: SkipTraceProvider | None, where: tuple[str, str, str, str], owner: str | None) -> ContactResult:
    try:
        chosen = provider if provider is not None else provider_from_settings()
        return chosen.lookup(*where, owner)
    except SourceError as exc:
        log.warning("owner search failed: %s", exc)
        raise SkipTraceError(*msg.SKIP_TRACE_FAILED) from None


def _stored(session: Session, user_id: uuid.UUID, lead_id: uuid.UUID) -> OwnerContact | None:
    return session.exec(select(OwnerContact).where(OwnerContact.user_id == user_id,
                                                   OwnerContact.lead_id == lead_id)).first()


def owner_name(session: Session, lead: Lead) -> str | None:
    """The owner of record when the lead was made from public records (``properties.owner_name``), else a
    name a source put in the lead's raw data, else None (BatchData then matches by address alone)."""
    names: list[Any] = []
    if lead.property_id is not None:
        names.append(session.exec(select(Property.owner_name).where(Property.id == lead.property_id)).first())
    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    names += [raw.get(key) for key in OWNER_NAME_KEYS]
    for value in names:
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:200]
    return None


def _view(row: OwnerContact, charged_now: int = 0, balance: int | None = None) -> ContactView:
    return ContactView(row.lead_id, row.provider, row.demo, row.status, row.owner_name,
                       tuple(dict(p) for p in row.phones), tuple(row.emails), row.credits_charged, charged_now,
                       balance, row.created_at, msg.SKIP_TRACE_DEMO_NOTE if row.demo else None,
                       contact_rules.retry_after(row.created_at) if row.status == "miss" else None)
