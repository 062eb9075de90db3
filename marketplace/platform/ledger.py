"""The credit ledger: the only code that changes a credit balance.

``apply_credits`` runs one atomic ``UPDATE profiles ... WHERE credits_remaining
+ delta >= 0`` and appends a ``credit_ledger`` row in the caller's transaction,
so the balance and the ledger cannot disagree and two concurrent spends cannot
both pass a balance check.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``).
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlmodel import Session, func, select

from marketplace.platform.texts import shortfall_message
from marketplace.platform.models import LEDGER_REASONS, CreditLedger, Profile, utcnow


class InsufficientCredits(Exception):
    def __init__(self, needed: int, available: int):
        super().__init__(shortfall_message(available, needed))
        self.needed = needed
        self.available = available


class ProfileNotFound(Exception):
    pass


def apply_credits(
    session: Session,
    user_id: uuid.UUID,
    delta: int,
    reason: str,
    reference_id: str | None = None,
) -> int:
    """Move ``delta`` credits (negative to spend) and return the new balance.

    Raises ``InsufficientCredits`` when a spend would go below zero; nothing is
    written then. Must be called inside a transaction (``session_scope``).
    """
    if reason not in LEDGER_REASONS:
        raise ValueError(f"unknown ledger reason {reason!r}")
    if not isinstance(delta, int) or isinstance(delta, bool) or delta == 0:
        raise ValueError("delta must be a non-zero whole number")
    table = Profile.__table__
    stmt = (
        sa.update(table)
        .where(table.c.user_id == user_id, table.c.credits_remaining + delta >= 0)
        .values(credits_remaining=table.c.credits_remaining + delta, updated_at=utcnow())
        .returning(table.c.credits_remaining)
    )
    new_balance = session.execute(stmt).scalar_one_or_none()
    if new_balance is None:
        available = session.execute(
            sa.select(table.c.credits_remaining).where(table.c.user_id == user_id)
        ).scalar_one_or_none()
        if available is None:
            raise ProfileNotFound(str(user_id))
        raise InsufficientCredits(needed=-delta, available=available)
    session.add(
        CreditLedger(
            user_id=user_id, delta=delta, reason=reason, reference_id=reference_id, balance_after=new_balance
        )
    )
    session.flush()
    return new_balance


def balance(session: Session, user_id: uuid.UUID) -> int:
    value = session.exec(select(Profile.credits_remaining).where(Profile.user_id == user_id)).first()
    if value is None:
        raise ProfileNotFound(str(user_id))
    return value


def ledger_sum(session: Session, user_id: uuid.UUID) -> int:
    return session.exec(
        select(func.coalesce(func.sum(CreditLedger.delta), 0)).where(CreditLedger.user_id == user_id)
    ).one()


def history(session: Session, user_id: uuid.UUID, limit: int = 50) -> list[CreditLedger]:
    return list(
        session.exec(
            select(CreditLedger)
            .where(CreditLedger.user_id == user_id)
            .order_by(CreditLedger.id.desc())
            .limit(limit)
        )
    )
