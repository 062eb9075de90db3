"""Subscription status for the header badge (SPEC ``check-subscription``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

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
