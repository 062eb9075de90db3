"""Accounts: users, profiles (the credit balance), sessions, sign-in attempts, mail, admins, subscriptions."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import JSONType, bigint_pk, created_column, ts_column, utcnow


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    email: str = Field(sa_column=sa.Column(sa.String(320), nullable=False, unique=True))
    password_hash: str = Field(sa_column=sa.Column(sa.String(255), nullable=False))
    email_confirmed_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    # Set when the account was deleted: the row stays (anonymised) because the
    # credit ledger and purchase records that bookkeeping keeps point at it.
    deleted_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (sa.CheckConstraint("email = lower(email)", name="ck_users_email_lower"),)


class Profile(SQLModel, table=True):
    __tablename__ = "profiles"

    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    )
    first_name: str = Field(default="", sa_column=sa.Column(sa.String(100), nullable=False, server_default=""))
    last_name: str = Field(default="", sa_column=sa.Column(sa.String(100), nullable=False, server_default=""))
    credits_remaining: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    referral_code: str = Field(sa_column=sa.Column(sa.String(15), nullable=False, unique=True))
    # SHA-256 of the webhook key: a database leak does not hand out working keys.
    webhook_auth_key: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(64), nullable=True, unique=True))
    webhook_auth_key_hint: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(16), nullable=True))
    referred_by: Optional[uuid.UUID] = Field(
        default=None,
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
    )
    # Ask before an unlock costing at least this many credits (unlock.rules_confirm; migration 0008).
    unlock_confirm_enabled: bool = Field(
        default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true())
    )
    unlock_confirm_threshold: int = Field(
        default=120, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="120")
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (sa.CheckConstraint("credits_remaining >= 0", name="ck_profiles_credits_nonnegative"),)


class AuthSession(SQLModel, table=True):
    __tablename__ = "auth_sessions"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    access_token_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, unique=True))
    refresh_token_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False, unique=True))
    access_expires_at: datetime = Field(sa_column=ts_column())
    refresh_expires_at: datetime = Field(sa_column=ts_column())
    revoked: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.false()))
    revoked_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    user_agent: str = Field(default="", sa_column=sa.Column(sa.String(512), nullable=False, server_default=""))
    ip_address: str = Field(default="", sa_column=sa.Column(sa.String(64), nullable=False, server_default=""))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    last_used_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    # Refresh rotation with reuse detection: the pair replaced by the last
    # rotation still works for a short grace period (two tabs refreshing at
    # once); a reuse of the previous refresh token after it revokes the session.
    prev_access_token_hash: Optional[str] = Field(
        default=None, sa_column=sa.Column(sa.String(64), nullable=True, index=True)
    )
    prev_refresh_token_hash: Optional[str] = Field(
        default=None, sa_column=sa.Column(sa.String(64), nullable=True, index=True)
    )
    rotated_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    # The browser (a random id kept in its localStorage) the session was opened
    # in: a referral from an account that signed in on the same browser is refused.
    device_id: str = Field(default="", sa_column=sa.Column(sa.String(64), nullable=False, server_default="", index=True))


class LoginAttempt(SQLModel, table=True):
    """One sign-in attempt (failures drive the sign-in throttle) or sign-up
    (counted per IP for the sign-up throttle)."""

    __tablename__ = "login_attempts"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    email: str = Field(sa_column=sa.Column(sa.String(320), nullable=False))
    ip_address: str = Field(default="", sa_column=sa.Column(sa.String(64), nullable=False, server_default=""))
    succeeded: bool = Field(sa_column=sa.Column(sa.Boolean(), nullable=False))
    kind: str = Field(default="sign_in", sa_column=sa.Column(sa.String(16), nullable=False, server_default="sign_in"))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.Index("ix_login_attempts_email_created", "email", "created_at"),
        sa.Index("ix_login_attempts_ip_created", "ip_address", "created_at"),
    )


class EmailOutbox(SQLModel, table=True):
    """Every e-mail the app sends; without SMTP_URL this is where they stay."""

    __tablename__ = "email_outbox"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    to_address: str = Field(sa_column=sa.Column(sa.String(320), nullable=False, index=True))
    subject: str = Field(sa_column=sa.Column(sa.String(255), nullable=False))
    body: str = Field(sa_column=sa.Column(sa.Text(), nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    sent_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    error: Optional[str] = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    # Extra headers sent with the message (List-Unsubscribe of alert digests; migration 0009).
    headers: Optional[dict] = Field(default=None, sa_column=sa.Column(JSONType, nullable=True))


class SuperAdmin(SQLModel, table=True):
    __tablename__ = "super_admins"

    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())


class Subscription(SQLModel, table=True):
    __tablename__ = "subscriptions"

    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    )
    subscribed: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.false()))
    subscription_type: str = Field(default="none", sa_column=sa.Column(sa.String(50), nullable=False, server_default="none"))
    leads_remaining: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    subscription_end: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    provider_subscription_id: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(255), nullable=True, unique=True))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (sa.CheckConstraint("leads_remaining >= 0", name="ck_subscriptions_leads_nonnegative"),)
