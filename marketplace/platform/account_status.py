"""The signed-in user as every page's header and gate read them: who they are (``CurrentUser``), their
subscription badge, and a waiting tab's balance and checkout status. Reads only."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from sqlmodel import Session, select

from marketplace.platform import ledger
from marketplace.platform.admins import is_super_admin
from marketplace.platform.db import read_scope
from marketplace.platform.models import CreditPurchase, DemoCheckout, Profile, User


@dataclass(frozen=True)
class CurrentUser:
    id: uuid.UUID
    email: str
    first_name: str
    last_name: str
    credits: int
    email_confirmed: bool
    is_super_admin: bool


def current_user(session: Session, user_id: uuid.UUID) -> CurrentUser | None:
    row = session.exec(select(User, Profile).join(Profile, Profile.user_id == User.id).where(User.id == user_id)).first()
    if row is None:
        return None
    user, profile = row
    return CurrentUser(
        id=user.id,
        email=user.email,
        first_name=profile.first_name,
        last_name=profile.last_name,
        credits=profile.credits_remaining,
        email_confirmed=user.email_confirmed_at is not None,
        is_super_admin=is_super_admin(user.id, session),
    )


def load_account(user_id: uuid.UUID) -> tuple[CurrentUser | None, object | None]:
    """The header's data: the user and their subscription status (None when the
    subscription check failed: it is only logged, SPEC 8)."""
    from marketplace.platform.db import read_scope
    from marketplace.platform import subscriptions

    with read_scope() as session:
        user = current_user(session, user_id)
        if user is None:
            return None, None
        try:
            status = subscriptions.check_subscription(session, user_id)
        except Exception:  # noqa: BLE001 - any failure keeps the old badge
            logging.getLogger("marketplace.auth").exception("subscription check failed for %s", user_id)
            status = None
    return user, status


@dataclass(frozen=True)
class BuyerStatus:
    balance: int
    has_paid: bool  # a first purchase was made: the referral first-purchase bonus is used up
    # The asked checkout's purchase status ('canceled' too for a TEST MODE checkout canceled
    # on its page, whose purchase row stays pending); '' when unknown or not this user's.
    checkout_status: str


def buyer_status(user_id: uuid.UUID, checkout_id: str = "") -> BuyerStatus:
    """Balance, whether a first purchase was made, and the status of ``checkout_id`` (a
    checkout this user started): one short read for a tab waiting on a checkout."""
    with read_scope() as session:
        status = ""
        if checkout_id:
            row = session.exec(select(CreditPurchase.user_id, CreditPurchase.status)
                               .where(CreditPurchase.provider_session_id == checkout_id)).first()
            if row is not None and row[0] == user_id:
                status = row[1]
                test = session.get(DemoCheckout, checkout_id) if status == "pending" else None
                if test is not None and test.status == "expired":
                    status = "canceled"
        return BuyerStatus(ledger.balance(session, user_id), has_paid_before(session, user_id), status)


def has_paid_before(session: Session, user_id: uuid.UUID, excluding: uuid.UUID | None = None) -> bool:
    """Whether the account has a paid credit purchase (other than ``excluding``): the one
    rule for "first purchase" (the referred bonus, and binding a referrer late)."""
    query = (select(CreditPurchase.id)
             .where(CreditPurchase.user_id == user_id, CreditPurchase.status == "paid"))
    if excluding is not None:
        query = query.where(CreditPurchase.id != excluding)
    return session.exec(query.limit(1)).first() is not None
