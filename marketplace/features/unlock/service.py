"""Unlocking a lead with credits (SPEC 2, 4, 5, 8).

What an unlock charges is ``unlock.rules.quote_unlock``'s answer, asked
inside the transaction from fresh rows (the balance, the subscription, an
existing unlock): the same function the card and the confirmation step ask.
A subscriber with leads remaining spends one subscription lead instead of
credits (``purchase_type`` 'subscription'). One transaction: insert the
``user_leads`` row first (its unique key makes a
second, concurrent unlock of the same lead fail before it can charge), then
spend the credits through the ledger, then claim a spot of the lead's cap
(``LEAD_MAX_HOLDERS``: ``unlock_counts.claim``, a conditional UPDATE in the same
transaction). Any failure rolls all of it back: a lead that filled meanwhile
refuses the unlock ("This lead sold out while you were deciding; no credits
were taken.") and nothing was charged or recorded.

``exclusive=True`` is "Unlock exclusively for N credits" (``unlock.rules.quote_exclusive``):
every spot left at the lead's price each, one ledger debit (reason 'unlock', referencing the lead
like every unlock), one ``user_leads`` row (purchase_type 'exclusive', credit_cost the whole price), and the
lead marked exclusive (``unlock_counts.claim_exclusive``, only while its holders are still the
count the price was computed from). ``expected_spots`` is the spots the user confirmed: a different
number now (someone unlocked meanwhile) refuses, so the charge is always the price that was shown.
The order (user_leads, profile, lead) is the same as a scrape's (profile, lead): no deadlock.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketplace.platform.config import get_settings
from marketplace.platform.errors import UserError
from marketplace.platform.leads import is_generated
from marketplace.features.unlock.rules_holders import spots_left
from marketplace.features.unlock.rules import (
    EXCLUSIVE_MIN_SPOTS,
    UnlockQuote,
    exclusive_price,
    quote_exclusive,
    quote_unlock,
)
from marketplace.platform.db import session_scope
from marketplace.platform.texts import (
    ALREADY_UNLOCKED,
    DEMO_LEAD_NOT_FOR_SALE,
    ERROR_TITLE,
    LEAD_INACTIVE,
    LEAD_NOT_FOUND,
)
from marketplace.platform.texts import UNLOCK_AUTH_REQUIRED as AUTH_REQUIRED
from marketplace.features.unlock.texts_holders import EXCLUSIVE_NOT_OFFERED, SOLD_OUT_MEANWHILE, SPOTS_CHANGED
from marketplace.platform.models import Lead, Subscription, UserLead
from marketplace.platform import lead_access, ledger
from marketplace.platform import subscriptions
from marketplace.features.unlock import service_counts as unlock_counts
from marketplace.features.unlock.service_counts import EXCLUSIVE



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
    spots: int = 1  # spots of the cap taken (every spot left for an exclusive unlock)


def unlock_lead(user_id: uuid.UUID | None, lead_id: uuid.UUID | str, database_url: str | None = None, *,
                exclusive: bool = False, expected_spots: int | None = None) -> UnlockResult:
    """Unlock ``lead_id`` for ``user_id`` (``exclusive``: every spot left, see the module docstring);
    raises ``UnlockError`` (nothing changes then)."""
    if user_id is None:
        raise UnlockError(*AUTH_REQUIRED)
    lead_uuid = lead_access.lead_uuid(lead_id)
    if lead_uuid is None:
        raise UnlockError(ERROR_TITLE, LEAD_NOT_FOUND)
    try:
        with session_scope(database_url) as session:
            lead = session.exec(select(Lead.is_active, Lead.credit_cost, Lead.raw_data, Lead.unlock_count,
                                       Lead.exclusive).where(Lead.id == lead_uuid)).first()
            if lead is None:
                raise UnlockError(ERROR_TITLE, LEAD_NOT_FOUND)
            if not lead.is_active:
                raise UnlockError(ERROR_TITLE, LEAD_INACTIVE)
            if get_settings().is_production and is_generated(lead.raw_data):
                # Invented data is never sold: production neither lists nor unlocks a generated lead.
                raise UnlockError(ERROR_TITLE, DEMO_LEAD_NOT_FOR_SALE)
            unlocked = session.exec(
                select(UserLead.id).where(UserLead.user_id == user_id, UserLead.lead_id == lead_uuid)).first()
            cap = get_settings().lead_max_holders
            left = spots_left(lead.unlock_count, cap, lead.exclusive)
            if exclusive:
                return _unlock_exclusive(session, user_id, lead_uuid, lead, unlocked is not None, cap, left,
                                         expected_spots)
            quote = _quote(session, user_id, unlocked is not None, lead.credit_cost, spots=left)
            if quote.kind == "sold_out":
                raise UnlockError(*SOLD_OUT_MEANWHILE)
            if quote.kind == "view":
                raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED)
            if quote.kind == "subscription" and not subscriptions.spend_lead(session, user_id):
                quote = _quote(session, user_id, False, lead.credit_cost, use_subscription=False,
                               spots=left)  # spent meanwhile
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
            if not unlock_counts.claim(session, [lead_uuid], cap):  # the last spot went meanwhile
                raise UnlockError(*SOLD_OUT_MEANWHILE)
            return UnlockResult(lead_uuid, cost, remaining, purchase_type, row.unlocked_at, leads_left)
    except ledger.InsufficientCredits as exc:
        raise UnlockError(ERROR_TITLE, str(exc)) from None
    except IntegrityError:
        # The concurrent twin committed first (PostgreSQL reports it at flush or commit).
        raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED) from None


def _unlock_exclusive(session, user_id: uuid.UUID, lead_uuid: uuid.UUID, lead, unlocked: bool, cap: int,
                      left: int | None, expected_spots: int | None) -> UnlockResult:
    """Every spot left, one debit, one record, the lead marked exclusive (module docstring)."""
    if unlocked:
        raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED)
    if left == 0:
        raise UnlockError(*SOLD_OUT_MEANWHILE)
    if expected_spots is not None and left != expected_spots:
        raise UnlockError(*SPOTS_CHANGED)
    balance = ledger.balance(session, user_id)
    quote = quote_exclusive(signed_in=True, unlocked=False, credit_cost=lead.credit_cost, balance=balance,
                            spots_left=left)
    if not quote.offered:
        if left is not None and left >= EXCLUSIVE_MIN_SPOTS:  # offered but for the balance: the shortfall
            raise ledger.InsufficientCredits(exclusive_price(left, lead.credit_cost), balance)
        raise UnlockError(*EXCLUSIVE_NOT_OFFERED)
    row = UserLead(user_id=user_id, lead_id=lead_uuid, credit_cost=quote.credits, purchase_type=EXCLUSIVE)
    session.add(row)
    try:
        session.flush()
    except IntegrityError:
        raise UnlockError(ERROR_TITLE, ALREADY_UNLOCKED) from None
    remaining = ledger.apply_credits(session, user_id, -quote.credits, "unlock", reference_id=str(lead_uuid))
    if not unlock_counts.claim_exclusive(session, lead_uuid, cap, holders_seen=lead.unlock_count):
        raise UnlockError(*SPOTS_CHANGED)  # someone unlocked meanwhile: the price shown is not the price now
    return UnlockResult(lead_uuid, quote.credits, remaining, EXCLUSIVE, row.unlocked_at, None, quote.spots)


def _quote(session, user_id: uuid.UUID, unlocked: bool, credit_cost: int | None,
           use_subscription: bool = True, spots: int | None = None) -> UnlockQuote:
    """``unlock.rules`` from this transaction's rows: the balance and the subscription now."""
    status = subscriptions.check_subscription(session, user_id)
    return quote_unlock(signed_in=True, unlocked=unlocked, credit_cost=credit_cost,
                        balance=ledger.balance(session, user_id),
                        subscribed=status.subscribed and use_subscription, subscription_leads=status.leads_remaining,
                        spots_left=spots)


def _subscription_leads(session, user_id: uuid.UUID) -> int:
    return session.exec(select(Subscription.leads_remaining).where(Subscription.user_id == user_id)).one()
