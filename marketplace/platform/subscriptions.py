"""Subscriptions (SPEC ``check-subscription``): the status for the header badge, spending
a subscription lead on an unlock, operator grants and the payment provider's updates.
Every write to the subscription fields goes through this module.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session

from marketplace.platform.models import Subscription, utcnow


@dataclass(frozen=True)
class SubscriptionStatus:
    subscribed: bool = False
    subscription_type: str = "none"
    leads_remaining: int = 0
    subscription_end: datetime | None = None


NOT_SUBSCRIBED = SubscriptionStatus()


def check_subscription(session: Session, user_id: uuid.UUID, now: datetime | None = None) -> SubscriptionStatus:
    """The user's subscription; an ended one reads as not subscribed."""
    row = session.get(Subscription, user_id)
    if row is None or not row.subscribed:
        return NOT_SUBSCRIBED
    if row.subscription_end is not None and row.subscription_end <= (now or utcnow()):
        return NOT_SUBSCRIBED
    return SubscriptionStatus(True, row.subscription_type, row.leads_remaining, row.subscription_end)


def grant(session: Session, user_id: uuid.UUID, subscription_type: str, leads: int, days: int,
          now: datetime | None = None) -> SubscriptionStatus:
    """Operator grant (CLI): an active subscription of ``subscription_type`` with ``leads`` leads."""
    now = now or utcnow()
    row = session.get(Subscription, user_id) or Subscription(user_id=user_id)
    row.subscribed = True
    row.subscription_type = subscription_type.strip() or "none"
    row.leads_remaining = leads
    row.subscription_end = now + timedelta(days=days)
    row.updated_at = now
    session.add(row)
    session.flush()
    return check_subscription(session, user_id, now)


def spend_lead(session: Session, user_id: uuid.UUID, now: datetime | None = None) -> bool:
    """Take one lead from an active subscription, atomically; False when there is none."""
    subs = Subscription.__table__
    now = now or utcnow()
    spent = session.execute(
        sa.update(subs)
        .where(subs.c.user_id == user_id, subs.c.subscribed == sa.true(), subs.c.leads_remaining > 0,
               sa.or_(subs.c.subscription_end.is_(None), subs.c.subscription_end > now))
        .values(leads_remaining=subs.c.leads_remaining - 1, updated_at=now)
    )
    return spent.rowcount == 1


def apply_provider_update(session: Session, user_id: uuid.UUID, *, active: bool, subscription_type: str | None,
                          leads_per_period: int | None, end: datetime | None, provider_id: str | None) -> bool:
    """The payment provider's view of the subscription (Stripe events); False for an unknown user.

    An ended subscription reads as type none with no leads; an active one keeps its type
    unless the provider names one, and is topped up to ``leads_per_period`` when given."""
    row = session.get(Subscription, user_id)
    if row is None:
        return False
    row.subscribed = active
    row.subscription_type = (subscription_type or row.subscription_type) if active else "none"
    if not active:
        row.leads_remaining = 0
    elif leads_per_period is not None:
        row.leads_remaining = max(0, leads_per_period)
    row.subscription_end = end
    row.provider_subscription_id = provider_id
    row.updated_at = utcnow()
    session.add(row)
    return True
