"""Unlocking a lead with credits (SPEC 2, 4, 5, 8).

What an unlock charges is ``core.unlock_quote.quote_unlock``'s answer, asked
inside the transaction from fresh rows (the balance, the subscription, an
existing unlock): the same function the card and the confirmation step ask.
A subscriber with leads remaining spends one subscription lead instead of
credits (``purchase_type`` 'subscription'). One transaction: insert the
``user_leads`` row first (its unique key makes a
second, concurrent unlock of the same lead fail before it can charge), then
spend the credits through the ledger. Any failure rolls both back.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketplace.config import get_settings
from marketplace.core.errors import UserError
from marketplace.core.leads import is_generated
from marketplace.core.unlock_quote import UnlockQuote, quote_unlock
from marketplace.db import session_scope
from marketplace.messages import ALREADY_UNLOCKED, DEMO_LEAD_NOT_FOR_SALE, ERROR_TITLE, LEAD_INACTIVE, LEAD_NOT_FOUND
from marketplace.messages import UNLOCK_AUTH_REQUIRED as AUTH_REQUIRED
from marketplace.models import Lead, Subscription, UserLead
from marketplace.services import lead_access, ledger, subscriptions, unlock_counts



class UnlockError(UserError):
    """A refused unlock: ``title`` and ``message`` are what the user is told."""


@dataclass(frozen=True)
class UnlockResult:
    lead_id: uuid.UUID
    credits_deducted: int
    remaining_credits: int
    purchase_type: str
    unlocked_at: datetime
    subscription_leads_remaining: int | None = None


def unlock_lead(user_id: uuid.UUID | None, lead_id: uuid.UUID | str, database_url: str | None = None) -> UnlockResult:
    """Unlock ``lead_id`` for ``user_id``; raises ``UnlockError`` (nothing changes then)."""
    if user_id is None:
        raise UnlockError(*AUTH_REQUIRED)
    lead_uuid = lead_access.lead_uuid(lead_id)
    if lead_uuid is None:
        raise UnlockError(ERROR_TITLE, LEAD_NOT_FOUND)
    try:
        with session_scope(database_url) as session:
            lead = session.exec(select(Lead.is_active, Lead.credit_cost, Lead.raw_data)
                                .where(Lead.id == lead_uuid)).first()
            if lead is None:
                raise UnlockError(ERROR_TITLE, LEAD_NOT_FOUND)
            if not lead.is_active:
                raise UnlockError(ERROR_TITLE, LEAD_INACTIVE)
            if get_settings().is_production and is_generated(lead.raw_data):
                # Invented data is never sold: production neither lists nor unlocks a generated lead.
                raise UnlockError(ERROR_TITLE, DEMO_LEAD_NOT_FOR_SALE)
            unlocked = session.exec(
                select(UserLead.id).where(UserLead.user_id == user_id, UserLead.lead_id == lead_uuid)).first()
            quote = _quote(session, user_id, unlocked is not None, lead.credit_cost)
            if quote.kind == "view":
                raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED)
            if quote.kind == "subscription" and not subscriptions.spend_lead(session, user_id):
                quote = _quote(session, user_id, False, lead.credit_cost, use_subscription=False)  # spent meanwhile
            if quote.kind == "insufficient":
                raise ledger.InsufficientCredits(quote.cost, quote.balance_before)
            purchase_type, cost = quote.purchase_type, quote.credits
            use_subscription = purchase_type == "subscription"
            row = UserLead(user_id=user_id, lead_id=lead_uuid, credit_cost=cost, purchase_type=purchase_type)
            session.add(row)
            try:
                session.flush()
            except IntegrityError:
                raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED) from None
            if cost > 0:
                remaining = ledger.apply_credits(session, user_id, -cost, "unlock", reference_id=str(lead_uuid))
            else:
                remaining = ledger.balance(session, user_id)
            leads_left = _subscription_leads(session, user_id) if use_subscription else None
            unlock_counts.added(session, [lead_uuid])  # the insert went through: one more holder
            return UnlockResult(lead_uuid, cost, remaining, purchase_type, row.unlocked_at, leads_left)
    except ledger.InsufficientCredits as exc:
        raise UnlockError(ERROR_TITLE, str(exc)) from None
    except IntegrityError:
        # The concurrent twin committed first (PostgreSQL reports it at flush or commit).
        raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED) from None


def _quote(session, user_id: uuid.UUID, unlocked: bool, credit_cost: int | None,
           use_subscription: bool = True) -> UnlockQuote:
    """``core.unlock_quote`` from this transaction's rows: the balance and the subscription now."""
    status = subscriptions.check_subscription(session, user_id)
    return quote_unlock(signed_in=True, unlocked=unlocked, credit_cost=credit_cost,
                        balance=ledger.balance(session, user_id),
                        subscribed=status.subscribed and use_subscription, subscription_leads=status.leads_remaining)


def _subscription_leads(session, user_id: uuid.UUID) -> int:
    return session.exec(select(Subscription.leads_remaining).where(Subscription.user_id == user_id)).one()
