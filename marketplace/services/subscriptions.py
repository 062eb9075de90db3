"""Subscription status for the header badge (SPEC ``check-subscription``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session

from marketplace.models import Subscription, utcnow


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
