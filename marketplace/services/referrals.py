"""The referral program (SPEC sections 1, 4, 5, 8, 9).

A referral binds a new account to the referrer at sign-up or, failing that, at
the first purchase, and never changes afterwards. Codes are compared without
regard to case and stored upper-case.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import func, select

from marketplace.core import accounts as rules
from marketplace.db import session_scope
from marketplace.models import CreditLedger, CreditPurchase, Profile, utcnow
from marketplace.services import accounts

INVALID_CODE = "Invalid referral code. Please check and try again."
CODE_FORMAT = ("Invalid Code", "Referral code must be 1-15 alphanumeric characters only.")
CODE_TAKEN = ("Code Unavailable", "This referral code is already taken. Please choose another.")
UPDATE_FAILED = ("Error", "Failed to update referral code. Please try again.")


class ReferralCodeError(Exception):
    def __init__(self, title: str, message: str):
        super().__init__(message)
        self.title = title
        self.message = message


@dataclass(frozen=True)
class ReferralStats:
    code: str
    people_referred: int
    purchases: int
    credits_earned: int


def owner_of(code: str | None) -> uuid.UUID | None:
    with session_scope() as session:
        return accounts.resolve_referrer(session, (code or "").strip())


def is_valid_code(code: str | None, user_id: uuid.UUID | None = None) -> bool:
    """A code that exists and is not the user's own."""
    owner = owner_of(code)
    return owner is not None and owner != user_id


def bind_referrer(user_id: uuid.UUID, code: str | None) -> bool:
    """Bind the referrer if the account has none yet and has not bought before."""
    referrer = owner_of(code)
    if referrer is None or referrer == user_id:
        return False
    with session_scope() as session:
        profile = session.get(Profile, user_id)
        if profile is None or profile.referred_by is not None:
            return False
        bought = session.exec(
            select(func.count()).select_from(CreditPurchase)
            .where(CreditPurchase.user_id == user_id, CreditPurchase.status == "paid")
        ).one()
        if bought:
            return False
        profile.referred_by = referrer
        session.add(profile)
        return True


def first_purchase_bonus_eligible(user_id: uuid.UUID, stored_code_valid: bool = False) -> bool:
    """Whether the user's next paid purchase gets the referred first-purchase bonus
    (the rule ``purchases.fulfil`` applies): a referrer is bound, or will be through
    a valid stored code, and the account has no paid purchase yet."""
    with session_scope() as session:
        referred_by = session.exec(select(Profile.referred_by).where(Profile.user_id == user_id)).first()
        bought = session.exec(
            select(func.count()).select_from(CreditPurchase)
            .where(CreditPurchase.user_id == user_id, CreditPurchase.status == "paid")
        ).one()
    return bought == 0 and (referred_by is not None or stored_code_valid)


def change_code(user_id: uuid.UUID, new_code: str) -> str:
    """Set a custom code; raises ``ReferralCodeError`` with the SPEC's messages."""
    code = (new_code or "").strip()
    if not rules.is_valid_referral_code(code):
        raise ReferralCodeError(*CODE_FORMAT)
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
                raise ReferralCodeError(*UPDATE_FAILED)
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
    with session_scope() as session:
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
