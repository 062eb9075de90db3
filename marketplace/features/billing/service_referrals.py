"""The referral program (SPEC sections 1, 4, 5, 8, 9).

A referral binds a new account to the referrer at sign-up or, failing that, at
the first purchase, and never changes afterwards. Codes are compared without
regard to case and stored upper-case; a code is never the name of a top-level
route (its link would open that page instead of being captured).

Self-referral is refused, at sign-up and at the first purchase alike: when the
new account's mailbox is the referrer's (``accounts.rules.mailbox_identity``:
case, and on providers that ignore them +tags and Gmail's dots), or when the
new account is created or used in a browser (device id) in which the referrer
has ever signed in.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``). The others
open their own.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from marketplace.platform import routes
from marketplace.features.accounts import rules as account_rules
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import CODE_FORMAT, CODE_RESERVED, CODE_TAKEN, CODE_UPDATE_FAILED
from marketplace.platform.models import CreditLedger, CreditPurchase, Profile, User, utcnow
from marketplace.platform.sessions import device_ids
from marketplace.platform import account_status
from marketplace.platform.devices import clean_device_id



def not_applied_message(code: str) -> str:
    """What a new account is told when its referral code cannot be used."""
    return (f"The referral code {code.upper()} could not be applied to this account: a referral code "
            "cannot be used by its owner, and it must belong to an existing account.")


class ReferralCodeError(UserError):
    """A refused referral-code change: ``title`` and ``message`` are shown."""


@dataclass(frozen=True)
class ReferralStats:
    code: str
    people_referred: int
    purchases: int
    credits_earned: int



def resolve_referrer(session: Session, code: str | None) -> uuid.UUID | None:
    """The user owning referral ``code`` (case-insensitive), or None."""
    code = (code or "").strip()
    if not routes.is_valid_referral_code(code):
        return None
    return session.exec(
        select(Profile.user_id).where(func.upper(Profile.referral_code) == code.upper())
    ).first()


def is_self_referral(
    session: Session,
    referrer_id: uuid.UUID,
    *,
    user_id: uuid.UUID | None = None,
    email: str | None = None,
    device_id: str = "",
) -> bool:
    """Whether the account (``user_id`` and/or the sign-up's ``email`` and
    browser ``device_id``) is the referrer's own, by the rules above."""
    if user_id is not None and user_id == referrer_id:
        return True
    referrer_email = session.exec(select(User.email).where(User.id == referrer_id)).first()
    emails = [email] if email else []
    devices = {clean_device_id(device_id)} - {""}
    if user_id is not None:
        own = session.exec(select(User.email).where(User.id == user_id)).first()
        if own:
            emails.append(own)
        devices |= device_ids(session, user_id)
    if referrer_email and any(
        account_rules.mailbox_identity(e) == account_rules.mailbox_identity(referrer_email) for e in emails
    ):
        return True
    return bool(devices) and bool(devices & device_ids(session, referrer_id))


def owner_of(code: str | None) -> uuid.UUID | None:
    with read_scope() as session:
        return resolve_referrer(session, code)


def is_valid_code(code: str | None, user_id: uuid.UUID | None = None) -> bool:
    """A code that exists and that ``user_id`` (when given) may use: not their
    own, by account, mailbox or browser."""
    with read_scope() as session:
        owner = resolve_referrer(session, code)
        if owner is None:
            return False
        return user_id is None or not is_self_referral(session, owner, user_id=user_id)


def bind_referrer(user_id: uuid.UUID, code: str | None, device_id: str = "") -> bool:
    """Bind the referrer if the account has none yet, has not bought before and
    is not the referrer's own (account, mailbox, or a browser ``device_id`` or
    session the referrer has signed in on)."""
    with session_scope() as session:
        return bind_referrer_in(session, user_id, code, device_id)


def bind_referrer_in(session: Session, user_id: uuid.UUID, code: str | None, device_id: str = "") -> bool:
    """``bind_referrer`` inside the caller's transaction (opening a purchase)."""
    referrer = resolve_referrer(session, code)
    if referrer is None or is_self_referral(session, referrer, user_id=user_id, device_id=device_id):
        return False
    profile = session.get(Profile, user_id)
    if profile is None or profile.referred_by is not None:
        return False
    if account_status.has_paid_before(session, user_id):
        return False
    profile.referred_by = referrer
    session.add(profile)
    return True


def first_purchase_bonus_eligible(user_id: uuid.UUID, stored_code_valid: bool = False) -> bool:
    """Whether the user's next paid purchase gets the referred first-purchase bonus
    (the rule ``purchases.fulfil`` applies): a referrer is bound, or will be through
    a valid stored code, and the account has no paid purchase yet."""
    with read_scope() as session:
        referred_by = session.exec(select(Profile.referred_by).where(Profile.user_id == user_id)).first()
        bought = account_status.has_paid_before(session, user_id)
    return not bought and (referred_by is not None or stored_code_valid)


def change_code(user_id: uuid.UUID, new_code: str) -> str:
    """Set a custom code; raises ``ReferralCodeError`` with the SPEC's messages."""
    code = new_code.strip() if isinstance(new_code, str) else ""
    if not routes.is_valid_referral_code(code):
        raise ReferralCodeError(*CODE_FORMAT)
    if routes.is_reserved_referral_code(code):
        raise ReferralCodeError(*CODE_RESERVED)
    code = code.upper()
    try:
        with session_scope() as session:
            taken = session.exec(
                select(Profile.user_id).where(func.upper(Profile.referral_code) == code, Profile.user_id != user_id)
            ).first()
            if taken is not None:
                raise ReferralCodeError(*CODE_TAKEN)
            profile = session.get(Profile, user_id)
            if profile is None:
                raise ReferralCodeError(*CODE_UPDATE_FAILED)
            profile.referral_code = code
            profile.updated_at = utcnow()
            session.add(profile)
    except IntegrityError:  # taken by a concurrent change
        raise ReferralCodeError(*CODE_TAKEN) from None
    return code


def update_referral_code(user_id: uuid.UUID, new_code: str) -> bool:
    """SPEC remote procedure ``update_referral_code``: true or false."""
    try:
        change_code(user_id, new_code)
    except ReferralCodeError:
        return False
    return True


def stats(user_id: uuid.UUID) -> ReferralStats:
    with read_scope() as session:
        code = session.exec(select(Profile.referral_code).where(Profile.user_id == user_id)).one()
        referred = session.exec(select(func.count()).select_from(Profile).where(Profile.referred_by == user_id)).one()
        purchases = session.exec(
            select(func.count()).select_from(CreditPurchase)
            .join(Profile, Profile.user_id == CreditPurchase.user_id)
            .where(Profile.referred_by == user_id, CreditPurchase.status == "paid")
        ).one()
        earned = session.exec(
            select(func.coalesce(func.sum(CreditLedger.delta), 0))
            .where(CreditLedger.user_id == user_id, CreditLedger.reason == "referral_reward")
        ).one()
    return ReferralStats(code=code, people_referred=referred, purchases=purchases, credits_earned=earned)
