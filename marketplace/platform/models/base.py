"""What every table module shares: the constants, UTC timestamps, column helpers."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

LEDGER_REASONS = (
    "purchase",
    "unlock",
    "bulk_scrape",
    "referral_bonus",
    "referral_reward",
    "admin_grant",
    "refund",
    "forfeited",  # the balance of a deleted account (accounts.service_settings.delete_account)
    "skip_trace",  # owner contact found (property.service_owner_contact)
    "skip_trace_bulk",  # the hits of one bulk owner search, one row a run (property.service_owner_contact_bulk)
)
IMAGE_STATUSES = ("success", "pending", "failed", "no_images")
PURCHASE_STATUSES = ("pending", "paid", "failed", "canceled")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(sa.types.TypeDecorator):
    """A timezone-aware datetime that always comes back in UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def ts_column(nullable: bool = False, index: bool = False) -> Any:
    return sa.Column(UTCDateTime(), nullable=nullable, index=index)


def bigint_pk() -> Any:
    """BIGINT identity on PostgreSQL; SQLite only auto-increments INTEGER."""
    return sa.Column(sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True)


def created_column() -> Any:
    return sa.Column(UTCDateTime(), nullable=False, default=utcnow)
