"""Credits: the append-only ledger and the credit purchases."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import (
    LEDGER_REASONS,
    PURCHASE_STATUSES,
    bigint_pk,
    created_column,
    ts_column,
    utcnow,
)


class CreditLedger(SQLModel, table=True):
    """Append-only record of every credit movement; sums to the profile balance."""

    __tablename__ = "credit_ledger"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    delta: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    reason: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    reference_id: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(64), nullable=True))
    balance_after: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.CheckConstraint(
            "reason IN (" + ", ".join(f"'{r}'" for r in LEDGER_REASONS) + ")", name="ck_credit_ledger_reason"
        ),
        sa.CheckConstraint("delta <> 0", name="ck_credit_ledger_delta_nonzero"),
        sa.CheckConstraint("balance_after >= 0", name="ck_credit_ledger_balance_nonnegative"),
        # One movement per (user, reason, reference): a retried purchase or
        # unlock cannot be booked twice. NULL references are never equal.
        sa.UniqueConstraint("user_id", "reason", "reference_id", name="uq_credit_ledger_reference"),
        sa.Index("ix_credit_ledger_user_created", "user_id", "created_at"),
    )


class CreditPurchase(SQLModel, table=True):
    __tablename__ = "credit_purchases"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    bundle: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    credits: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    bonus_credits: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    amount_cents: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    provider: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    provider_session_id: str = Field(sa_column=sa.Column(sa.String(255), nullable=False, unique=True))
    status: str = Field(default="pending", sa_column=sa.Column(sa.String(16), nullable=False, server_default="pending"))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    completed_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.CheckConstraint(
            "status IN (" + ", ".join(f"'{s}'" for s in PURCHASE_STATUSES) + ")", name="ck_credit_purchases_status"
        ),
    )
