"""The whole data model: SQLModel tables shared by the app, the API and the jobs.

Conventions:
- ids that can appear in a URL (users, leads, scrapes, purchases) are UUIDs;
- money is whole US dollars in integers, except Stripe amounts in cents;
- ROI is a float percent (22.4 means 22.4 %);
- every timestamp is timezone-aware UTC (``UTCDateTime`` restores the zone on
  SQLite, which stores naive text).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timezone
from typing import Any, Optional

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlmodel import Field, SQLModel

LEDGER_REASONS = (
    "purchase",
    "unlock",
    "bulk_scrape",
    "referral_bonus",
    "referral_reward",
    "admin_grant",
    "refund",
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


# --------------------------------------------------------------------------- accounts


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
    # Ask before an unlock costing at least this many credits (core.unlock_confirm; migration 0008).
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


# --------------------------------------------------------------------------- credits


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


# --------------------------------------------------------------------------- leads


class Lead(SQLModel, table=True):
    __tablename__ = "leads"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    address: str = Field(sa_column=sa.Column(sa.String(255), nullable=False))
    city: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    state: str = Field(sa_column=sa.Column(sa.String(2), nullable=False))
    zip_code: str = Field(sa_column=sa.Column(sa.String(10), nullable=False))
    lead_type: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    source: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    asking_price: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    zestimate: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    arv: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    rehab_estimate: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    roi: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    beds: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    baths: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    square_footage: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    confidence_score: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    credit_cost: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    is_new: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    is_high_roi: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.false()))
    is_active: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    image_urls: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))
    primary_image_url: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(1024), nullable=True))
    images_fetch_status: str = Field(default="pending", sa_column=sa.Column(sa.String(16), nullable=False, server_default="pending"))
    raw_data: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    latitude: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    longitude: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    # The source's own id for the property: a refresh never inserts a lead twice.
    external_id: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(128), nullable=True, unique=True))
    # Leads a bulk scrape delivered belong to it (never listed on the marketplace);
    # they keep the source's listing id here, not in the unique external_id.
    scrape_id: Optional[uuid.UUID] = Field(
        default=None,
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("bulk_scrapes.id", ondelete="SET NULL"), nullable=True, index=True),
    )
    source_listing_id: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(128), nullable=True, index=True))
    # The refresh that inserted the lead: saved-search alerts match exactly those (migration 0009).
    refresh_run_id: Optional[int] = Field(
        default=None,
        sa_column=sa.Column(sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                            sa.ForeignKey("lead_refresh_runs.id", ondelete="SET NULL"), nullable=True, index=True),
    )

    __table_args__ = (
        sa.CheckConstraint("confidence_score IS NULL OR (confidence_score BETWEEN 0 AND 100)", name="ck_leads_confidence"),
        sa.CheckConstraint(
            "images_fetch_status IN (" + ", ".join(f"'{s}'" for s in IMAGE_STATUSES) + ")", name="ck_leads_image_status"
        ),
        sa.Index("ix_leads_active_confidence", "is_active", "confidence_score"),
        sa.Index("ix_leads_active_created", "is_active", "created_at"),
        sa.Index("ix_leads_active_roi", "is_active", "roi"),
        sa.Index("ix_leads_active_price", "is_active", "asking_price"),
        # The developer explorer: all leads newest first, searched by ZIP or state/city.
        sa.Index("ix_leads_created_at", "created_at"),
        sa.Index("ix_leads_zip_code", "zip_code"),
        sa.Index("ix_leads_state_city", "state", "city"),
    )


class UserLead(SQLModel, table=True):
    """An unlock: the user paid for this lead and may read it forever."""

    __tablename__ = "user_leads"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    lead_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="RESTRICT"), nullable=False, index=True)
    )
    unlocked_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    credit_cost: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    purchase_type: str = Field(default="credits", sa_column=sa.Column(sa.String(16), nullable=False, server_default="credits"))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "lead_id", name="uq_user_leads_user_lead"),
        sa.Index("ix_user_leads_user_unlocked", "user_id", "unlocked_at"),
    )


class BulkScrape(SQLModel, table=True):
    __tablename__ = "bulk_scrapes"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    lead_count: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    leads_generated: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    credits_used: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    status: str = Field(default="completed", sa_column=sa.Column(sa.String(16), nullable=False, server_default="completed"))
    origin: str = Field(default="ui", sa_column=sa.Column(sa.String(16), nullable=False, server_default="ui"))
    params: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    output: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))

    __table_args__ = (sa.Index("ix_bulk_scrapes_user_created", "user_id", "created_at"),)


class WebhookRequest(SQLModel, table=True):
    __tablename__ = "webhook_requests"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, primary_key=True)
    # Nullable: a request naming an unknown user is still logged.
    user_id: Optional[uuid.UUID] = Field(
        default=None, sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    method: str = Field(sa_column=sa.Column(sa.String(8), nullable=False))
    endpoint: str = Field(sa_column=sa.Column(sa.String(255), nullable=False))
    response_status: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    ip_address: str = Field(default="", sa_column=sa.Column(sa.String(64), nullable=False, server_default=""))
    bulk_scrape_id: Optional[uuid.UUID] = Field(
        default=None,
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("bulk_scrapes.id", ondelete="SET NULL"), nullable=True),
    )
    request_body: Optional[dict] = Field(default=None, sa_column=sa.Column(JSONType, nullable=True))
    response_body: Optional[dict] = Field(default=None, sa_column=sa.Column(JSONType, nullable=True))

    __table_args__ = (sa.Index("ix_webhook_requests_user_created", "user_id", "created_at"),)


class LeadRefreshRun(SQLModel, table=True):
    """One daily refresh; ``run_key`` (the Pacific date) makes it run once a day."""

    __tablename__ = "lead_refresh_runs"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    run_key: str = Field(sa_column=sa.Column(sa.String(32), nullable=False, unique=True))
    run_date: date = Field(sa_column=sa.Column(sa.Date(), nullable=False))
    trigger: str = Field(default="schedule", sa_column=sa.Column(sa.String(16), nullable=False, server_default="schedule"))
    status: str = Field(default="running", sa_column=sa.Column(sa.String(16), nullable=False, server_default="running"))
    started_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    finished_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    leads_added: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    leads_archived: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    error: Optional[str] = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))


class LeadFacet(SQLModel, table=True):
    """Counts of active leads per filter cell, so filtered counts never scan leads.

    Rebuilt by ``services.marketplace.rebuild_facets`` whenever the set of active
    leads changes (refresh, seeding, archiving). A filtered count is the sum of
    the matching cells: at most 6 x 5 x 4 x 2 x 2 rows.
    """

    __tablename__ = "lead_facets"

    lead_type: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    roi_band: str = Field(sa_column=sa.Column(sa.String(8), primary_key=True))
    size_band: str = Field(sa_column=sa.Column(sa.String(8), primary_key=True))  # small|medium|large|unknown
    is_new: bool = Field(sa_column=sa.Column(sa.Boolean(), primary_key=True))
    is_high_roi: bool = Field(sa_column=sa.Column(sa.Boolean(), primary_key=True))
    lead_count: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))


class TestCheckout(SQLModel, table=True):
    """A checkout session of the built-in test payment provider (TEST MODE).

    Plays the part of Stripe's Checkout Session: the provider's own record of
    whether the buyer paid, separate from our ``credit_purchases`` row.
    """

    __tablename__ = "test_checkouts"
    __test__ = False  # not a pytest test class, whatever its name

    id: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    bundle: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    amount_cents: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    status: str = Field(default="open", sa_column=sa.Column(sa.String(16), nullable=False, server_default="open"))
    success_url: str = Field(sa_column=sa.Column(sa.String(1024), nullable=False))
    cancel_url: str = Field(sa_column=sa.Column(sa.String(1024), nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())


# --------------------------------------------------------------------------- saved searches and alerts


def _bigint_fk(target: str, ondelete: str, nullable: bool = False, **kw: Any) -> Any:
    return sa.Column(sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.ForeignKey(target, ondelete=ondelete),
                     nullable=nullable, **kw)


class SavedSearch(SQLModel, table=True):
    """A user's named marketplace filter (the Filters query string without page/per_page)."""

    __tablename__ = "saved_searches"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    name: str = Field(sa_column=sa.Column(sa.String(60), nullable=False))
    name_key: str = Field(sa_column=sa.Column(sa.String(60), nullable=False))  # lower(name): one per user
    query: str = Field(default="", sa_column=sa.Column(sa.String(1000), nullable=False, server_default=""))
    # Filter groups the query constrains (0: every new lead matches); see saved_search_criteria.
    criteria_groups: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    alerts_enabled: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    email_enabled: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    last_opened_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "name_key", name="uq_saved_searches_user_name"),
        sa.Index("ix_saved_searches_user_created", "user_id", "created_at"),
    )


class SavedSearchCriterion(SQLModel, table=True):
    """One option of a saved search's filter, (group, value): type/roi/size/tag. Alerts
    match new leads against these rows set-wise (services.alerts)."""

    __tablename__ = "saved_search_criteria"

    saved_search_id: int = Field(sa_column=_bigint_fk("saved_searches.id", "CASCADE", primary_key=True))
    grp: str = Field(sa_column=sa.Column(sa.String(8), primary_key=True))
    value: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))

    __table_args__ = (sa.Index("ix_saved_search_criteria_value", "grp", "value"),)


class Notification(SQLModel, table=True):
    """One in-app notification per user per refresh (the unique key makes a re-run a no-op);
    ``outbox_id`` is the digest e-mail recorded in the same transaction."""

    __tablename__ = "notifications"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    refresh_run_id: int = Field(sa_column=_bigint_fk("lead_refresh_runs.id", "CASCADE"))
    lead_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    # {"searches": [{"id", "name", "query", "count"}], "lead_ids": [first 20]}
    matches: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    outbox_id: Optional[int] = Field(default=None, sa_column=_bigint_fk("email_outbox.id", "SET NULL", nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    read_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "refresh_run_id", name="uq_notifications_user_refresh"),
        sa.Index("ix_notifications_user_created", "user_id", "created_at"),
    )
