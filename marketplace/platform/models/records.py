"""Public records: properties, their signals, recorded sales, the house price index, dataset runs.

- ``properties``: one row per real property (a parcel where the county publishes one). Identified by
  ``(state, parcel_id)`` where a dataset publishes a parcel id (UNIQUE; NULL parcel ids never collide), else by
  ``(address_key, zip_code)`` (``records.rules_addresses``), UNIQUE only among properties without a parcel id: two
  parcels at one street address (condominium units, a house and its side lot) are two properties. A
  parcel-only property (a record with a parcel id and no street address, such as a tax-sale row with
  coordinates) has no address, address key or ZIP (NULL) until a record of the same parcel names them; it
  holds its signals and never makes a lead meanwhile. Parcel ids are matched within a state; two counties of one state using the same parcel id for
  different houses would collide, which none of the known datasets does (Philadelphia's 9-digit OPA
  numbers, Allegheny's 16-character pins).
  Owner name and mailing address are personal data: they live here only, and are read only for a
  user who unlocked the property's lead. The lead carries just the two flags.
- ``property_signals``: what a dataset says about a property (tax delinquent, on a sale list, vacant...),
  one row per ``(dataset_id, record_key)``, open until it disappears from its dataset.
- ``recorded_sales``: deed sales for comparable-sales estimates (ARV) and a parcel's sale history.
- ``hpi_points``: the FHFA house price index per three-digit ZIP and year.
- ``dataset_runs``: one ingestion (file import or API fetch) with its counts.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import JSONType, bigint_pk, created_column, ts_column, utcnow

SIGNAL_STATUSES = ("open", "closed")
RUN_MODES = ("file", "api")
RUN_STATUSES = ("running", "ok", "failed")

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _int() -> sa.Column:
    return sa.Column(sa.Integer(), nullable=True)


def _text(length: int) -> sa.Column:
    return sa.Column(sa.String(length), nullable=True)


def _count() -> sa.Column:
    return sa.Column(sa.Integer(), nullable=False, server_default="0")


class Property(SQLModel, table=True):
    __tablename__ = "properties"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    address_key: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(255), nullable=True))
    address: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(255), nullable=True))
    unit: Optional[str] = Field(default=None, sa_column=_text(32))
    city: Optional[str] = Field(default=None, sa_column=_text(100))
    state: str = Field(sa_column=sa.Column(sa.String(2), nullable=False))
    zip_code: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(5), nullable=True))
    parcel_id: Optional[str] = Field(default=None, sa_column=_text(64))
    latitude: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    longitude: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    owner_name: Optional[str] = Field(default=None, sa_column=_text(255))
    mailing_address: Optional[str] = Field(default=None, sa_column=_text(255))
    mailing_city: Optional[str] = Field(default=None, sa_column=_text(100))
    mailing_state: Optional[str] = Field(default=None, sa_column=_text(2))
    mailing_zip: Optional[str] = Field(default=None, sa_column=_text(10))
    # Owner flags (records.rules_owner_flags, migration 0020): True, False, or NULL = unknown (no mailing address /
    # no owner name on record); a filter for a flag never matches NULL.
    absentee_owner: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    out_of_state_owner: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    bank_owned: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    beds: Optional[int] = Field(default=None, sa_column=_int())
    baths: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))
    square_footage: Optional[int] = Field(default=None, sa_column=_int())
    year_built: Optional[int] = Field(default=None, sa_column=_int())
    property_class: Optional[str] = Field(default=None, sa_column=_text(100))
    assessed_value: Optional[int] = Field(default=None, sa_column=_int())
    market_value: Optional[int] = Field(default=None, sa_column=_int())
    value_year: Optional[int] = Field(default=None, sa_column=_int())
    value_dataset_id: Optional[str] = Field(default=None, sa_column=_text(64))
    last_sale_price: Optional[int] = Field(default=None, sa_column=_int())
    last_sale_date: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    # The record whose facts (owner, mailing address, size...) the property holds: a record as new or newer
    # replaces them, an older one only fills what is missing (so re-ingesting never flips values).
    facts_as_of: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    facts_record: Optional[str] = Field(default=None, sa_column=_text(200))
    # The newest roll (assessment) record that names the property: "<dataset id>/<record key>", its as-of.
    roll_record: Optional[str] = Field(default=None, sa_column=_text(200))
    roll_as_of: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.Index("uq_properties_address_zip_no_parcel", "address_key", "zip_code", unique=True,
                 sqlite_where=sa.text("parcel_id IS NULL"), postgresql_where=sa.text("parcel_id IS NULL")),
        sa.Index("ix_properties_address_zip", "address_key", "zip_code"),
        sa.UniqueConstraint("state", "parcel_id", name="uq_properties_state_parcel"),
        sa.Index("ix_properties_zip_code", "zip_code"),
    )


class PropertySignal(SQLModel, table=True):
    __tablename__ = "property_signals"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    property_id: int = Field(
        sa_column=sa.Column(BIGINT, sa.ForeignKey("properties.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    dataset_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    record_key: str = Field(sa_column=sa.Column(sa.String(128), nullable=False))
    kind: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    sale_type: Optional[str] = Field(default=None, sa_column=_text(16))
    as_of: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    amount_owed: Optional[int] = Field(default=None, sa_column=_int())
    years_owed: Optional[int] = Field(default=None, sa_column=_int())
    delinquent_since: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    sale_date: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    notice_date: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    opening_bid: Optional[int] = Field(default=None, sa_column=_int())
    details: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    record_url: Optional[str] = Field(default=None, sa_column=_text(1024))
    # A status list's item (migration 0030): ``as_of`` is the day of the newest snapshot of the list that held
    # it, ``notice_date`` / ``delinquent_since`` its own date; an event list's signal is dated by its event.
    status_list: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False,
                                                                 server_default=sa.false()))
    status: str = Field(default="open", sa_column=sa.Column(sa.String(8), nullable=False, server_default="open"))
    first_seen_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    last_seen_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    retrieved_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    closed_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    closed_reason: Optional[str] = Field(default=None, sa_column=_text(255))
    # The portal's own update time of the row when LeadVault first stored it (Socrata ``:updated_at``, an
    # ArcGIS edit date; migration 0035); NULL where the portal gives none. Lag = first_seen_at - this.
    portal_updated_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    # The digest of the file row the signal was last mapped from (``records.source_opendata.row_digests``;
    # migration 0037): a re-import passes over a row whose digest an open signal holds. NULL: not known.
    row_digest: Optional[int] = Field(default=None, sa_column=sa.Column(sa.BigInteger(), nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("dataset_id", "record_key", name="uq_property_signals_dataset_record"),
        sa.CheckConstraint("status IN ('open', 'closed')", name="ck_property_signals_status"),
        sa.Index("ix_property_signals_dataset_status", "dataset_id", "status"),
        sa.Index("ix_property_signals_dataset_first_seen", "dataset_id", "first_seen_at"),
    )


class RecordedSale(SQLModel, table=True):
    __tablename__ = "recorded_sales"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    dataset_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    record_key: str = Field(sa_column=sa.Column(sa.String(128), nullable=False))
    address: Optional[str] = Field(default=None, sa_column=_text(255))
    zip_code: Optional[str] = Field(default=None, sa_column=_text(5))
    price: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    sale_date: date = Field(sa_column=sa.Column(sa.Date(), nullable=False))
    square_footage: Optional[int] = Field(default=None, sa_column=_int())
    property_class: Optional[str] = Field(default=None, sa_column=_text(100))
    # A county's sales dataset names the parcel, not the street: the sale joins its property by
    # (state, parcel_id). ``excluded_reason``: why the sale is not arm's length (records.rules_arms_length), never a
    # comparable sale; NULL for an arm's-length sale.
    state: Optional[str] = Field(default=None, sa_column=_text(2))
    parcel_id: Optional[str] = Field(default=None, sa_column=_text(64))
    deed_type: Optional[str] = Field(default=None, sa_column=_text(64))
    excluded_reason: Optional[str] = Field(default=None, sa_column=_text(120))
    retrieved_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.UniqueConstraint("dataset_id", "record_key", name="uq_recorded_sales_dataset_record"),
        sa.Index("ix_recorded_sales_zip_date", "zip_code", "sale_date"),
        sa.Index("ix_recorded_sales_state_parcel", "state", "parcel_id"),
    )


class HpiPointRow(SQLModel, table=True):
    __tablename__ = "hpi_points"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    dataset_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    zip3: str = Field(sa_column=sa.Column(sa.String(3), nullable=False))
    year: int = Field(sa_column=sa.Column(sa.Integer(), nullable=False))
    index: float = Field(sa_column=sa.Column(sa.Float(), nullable=False))
    annual_change: Optional[float] = Field(default=None, sa_column=sa.Column(sa.Float(), nullable=True))

    __table_args__ = (sa.UniqueConstraint("dataset_id", "zip3", "year", name="uq_hpi_points_dataset_zip3_year"),)


class DatasetRun(SQLModel, table=True):
    __tablename__ = "dataset_runs"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    dataset_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    mode: str = Field(sa_column=sa.Column(sa.String(8), nullable=False))
    started_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    finished_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    status: str = Field(default="running", sa_column=sa.Column(sa.String(8), nullable=False, server_default="running"))
    rows_read: int = Field(default=0, sa_column=_count())
    added: int = Field(default=0, sa_column=_count())
    updated: int = Field(default=0, sa_column=_count())
    unchanged: int = Field(default=0, sa_column=_count())
    closed: int = Field(default=0, sa_column=_count())
    archived: int = Field(default=0, sa_column=_count())
    rejected: int = Field(default=0, sa_column=_count())
    newest_as_of: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    warning: Optional[str] = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    error: Optional[str] = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    # stamped every RECORD_HEARTBEAT_SECONDS by the process running it (features/records/jobs_heartbeat.py); a running run
    # whose heartbeat (or start, before the first) is older than RECORD_DEAD_AFTER_SECONDS died: failed
    heartbeat_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    # Migration 0035: whether the run read the whole dataset (NULL: a run from before 0035), and the newest
    # portal update time it read (the next incremental pull's watermark).
    full: Optional[bool] = Field(default=None, sa_column=sa.Column(sa.Boolean(), nullable=True))
    portal_updated_max: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.CheckConstraint("mode IN ('file', 'api')", name="ck_dataset_runs_mode"),
        sa.CheckConstraint("status IN ('running', 'ok', 'failed')", name="ck_dataset_runs_status"),
        sa.Index("ix_dataset_runs_dataset_started", "dataset_id", "started_at"),
    )


JOB_STATUSES = ("queued", "running", "ok", "failed")


class RecordJob(SQLModel, table=True):
    """One pull of one dataset (the explorer's "Run now", or the daily refresh's job per dataset): queued by
    the web process or the scheduler, run by a records worker through the job queue (``features/records/jobs_queue.py``),
    never in the web server's processes."""

    __tablename__ = "record_jobs"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    dataset_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    requested_by: Optional[uuid.UUID] = Field(default=None, sa_column=sa.Column(
        sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True))
    requested_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    status: str = Field(default="queued", sa_column=sa.Column(sa.String(8), nullable=False, server_default="queued"))
    started_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    finished_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))
    run_id: Optional[int] = Field(default=None, sa_column=sa.Column(BIGINT, nullable=True))
    error: Optional[str] = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    # 'manual' (the explorer's Run now) or 'schedule' / 'catch-up' (the daily refresh's one job per dataset)
    trigger: str = Field(default="manual", sa_column=sa.Column(sa.String(16), nullable=False, server_default="manual"))
    # the lead_refresh_runs row whose rescore follows this pull (set when the job starts for a Run now)
    refresh_run_id: Optional[int] = Field(default=None, sa_column=sa.Column(BIGINT, nullable=True))
    attempts: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    heartbeat_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.CheckConstraint("status IN ('queued', 'running', 'ok', 'failed')", name="ck_record_jobs_status"),
        sa.Index("ix_record_jobs_status_requested", "status", "requested_at"),
        sa.Index("ix_record_jobs_dataset_requested", "dataset_id", "requested_at"),
    )
