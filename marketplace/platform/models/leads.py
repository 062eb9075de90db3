"""Leads: the marketplace leads, unlock records, bulk scrapes and the properties they delivered, the webhook
log, refusal counts and idempotency keys, refresh runs, facets, demo checkouts."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import (
    IMAGE_STATUSES,
    JSONType,
    UTCDateTime,
    bigint_pk,
    created_column,
    ts_column,
    utcnow,
)

# Leads whose first picture is one of the app's own house drawings (the partial index below).
HOUSE_DRAWING_WHERE = "primary_image_url LIKE '/api/images/house/%'"


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
    # A lead made from public records (migration 0012): its property (one lead per property,
    # re-activated rather than duplicated), the motivation score and open-signal count it is sorted and
    # filtered by, and the owner flags (the owner's name and mailing address stay in ``properties``).
    # No ON DELETE: a property with a lead is never deleted (migration 0012 says why).
    property_id: Optional[int] = Field(
        default=None,
        sa_column=sa.Column(sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                            sa.ForeignKey("properties.id"), nullable=True),
    )
    motivation_score: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    # (Python defaults too: the PostgreSQL bulk loader, seeding.insert_leads, COPYs every column.)
    signal_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, default=0, server_default="0"))
    # Three-valued since migration 0020: NULL = unknown (a record without the owner's mailing address or
    # name; every generated lead). bank_owned: the owner of record is a lender or servicer (REO).
    absentee_owner: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    out_of_state_owner: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    bank_owned: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    # The next sale or auction date (migration 0018): "Auction Soon" is a date within
    # marketplace.rules_sale_dates.AUCTION_SOON_DAYS; NULL for a lead without one (never Auction Soon).
    sale_date: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    # How many live accounts hold an unlock record of the lead (migration 0021): moved by
    # unlock.service_counts in the transaction of every write that adds or removes one, so a page of
    # cards reads it with the row and the "Least unlocked" sort and the "held" filter use its index.
    unlock_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, default=0,
                                                             server_default="0"))
    # An exclusive unlock took every spot left (migration 0033, unlock.rules_holders): the lead is full whatever
    # LEAD_MAX_HOLDERS says, until that holder's account closes (unlock.service_counts).
    exclusive: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, default=False,
                                                              server_default=sa.false()))
    # The headline (marketplace.rules_headline, migration 0019): the ARV of the default selection of comparable sales
    # and how many sales it rests on; which ARV ``roi`` (the card's ROI, the sort, the bands) is against:
    # 'comps' or 'estimate' ('' not yet computed: read as the estimate).
    comps_arv: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    comps_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, default=0,
                                                            server_default="0"))
    roi_basis: str = Field(default="", sa_column=sa.Column(sa.String(16), nullable=False, default="",
                                                           server_default=""))

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
        # The picture route draws only a lead's own house drawings (features/marketplace/api_images.py): it finds the
        # lead by its first drawing. Partial: photographs' addresses are never looked up.
        sa.Index("ix_leads_house_drawing", "primary_image_url",
                 sqlite_where=sa.text(HOUSE_DRAWING_WHERE), postgresql_where=sa.text(HOUSE_DRAWING_WHERE)),
        sa.Index("ix_leads_active_motivation", "is_active", "motivation_score"),
        sa.Index("ix_leads_active_signals", "is_active", "signal_count"),
        sa.Index("uq_leads_property_id", "property_id", unique=True),
        sa.Index("ix_leads_active_sale_date", "is_active", "sale_date"),
        sa.Index("ix_leads_active_unlock_count", "is_active", "unlock_count"),
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
    # 'credits', 'subscription', 'bulk_scrape', or 'exclusive' (every spot left of the lead's cap, one record and
    # one debit: credit_cost = the spots taken x the lead's price; leads.exclusive marks the lead full).
    purchase_type: str = Field(default="credits", sa_column=sa.Column(sa.String(16), nullable=False, server_default="credits"))
    # The county-record guarantee (migration 0034, unlock.service_refunds): when the purchase's credits came back,
    # how many, and what the county's record said ('the vacancy notice at ... left ...'). Set once, in the
    # transaction of the ledger's 'refund' row, by an UPDATE ... WHERE refunded_at IS NULL.
    refunded_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    refund_credits: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    refund_reason: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(255), nullable=True))

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


class HeldProperty(SQLModel, table=True):
    """A property a user received from a bulk scrape, once per holding key ('listing:<source
    listing id>', 'address:<address>|<ZIP>'). The primary key is the database's guarantee that
    two concurrent scrapes cannot both deliver (and charge) the same property to one user; the
    scrape writes these rows in the transaction that charges for them."""

    __tablename__ = "held_properties"

    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    )
    key: str = Field(sa_column=sa.Column(sa.String(300), primary_key=True))
    lead_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())


class WebhookRefusal(SQLModel, table=True):
    """Refused webhook requests (401, 404, 413, 429), counted per minute, client IP, path and
    status; no bodies. Written in batches by ``scrape.service_webhooks.RefusalCounter``."""

    __tablename__ = "webhook_refusals"

    minute: datetime = Field(sa_column=sa.Column(UTCDateTime(), primary_key=True))
    ip_address: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    endpoint: str = Field(sa_column=sa.Column(sa.String(255), primary_key=True))
    status: int = Field(sa_column=sa.Column(sa.Integer(), primary_key=True, autoincrement=False))
    count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))


class WebhookIdempotencyKey(SQLModel, table=True):
    """An ``Idempotency-Key`` a user sent: taken before the scrape runs (``status`` NULL while
    it runs), completed in the scrape's transaction with the answer to replay for 24 hours (the
    leads themselves are read back from the scrape)."""

    __tablename__ = "webhook_idempotency_keys"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    key: str = Field(sa_column=sa.Column(sa.String(255), nullable=False))
    body_sha256: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    status: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    bulk_scrape_id: Optional[uuid.UUID] = Field(
        default=None,
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("bulk_scrapes.id", ondelete="CASCADE"), nullable=True),
    )
    response_body: Optional[dict] = Field(default=None, sa_column=sa.Column(JSONType, nullable=True))
    # the server process running the request ("host|boot id|pid namespace|pid|process start"): an unanswered
    # key whose holder is gone from this machine is free at once (scrape.service_webhooks.holder_alive)
    holder: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(255), nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "key", name="uq_webhook_idempotency_user_key"),
        sa.Index("ix_webhook_idempotency_created", "created_at"),
    )


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

    Rebuilt by ``marketplace.service.rebuild_facets`` whenever the set of active
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


class DemoCheckout(SQLModel, table=True):
    """A checkout session of the demo checkout (``PAYMENTS=test``, TEST MODE).

    Plays the part of Stripe's Checkout Session: the provider's own record of
    whether the buyer paid, separate from our ``credit_purchases`` row.
    """

    __tablename__ = "test_checkouts"  # the table keeps its first name (no migration for a rename)

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
