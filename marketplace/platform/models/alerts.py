"""Saved searches, their criteria, and the in-app notifications of new matching leads."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import JSONType, bigint_pk, created_column, ts_column, utcnow


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
    # Text (migration 0014): ten cities of 100 characters, percent-encoded, do not fit a short column.
    query: str = Field(default="", sa_column=sa.Column(sa.Text(), nullable=False, server_default=""))
    # Filter groups the query constrains, the price range included (0: every new lead matches);
    # see saved_search_criteria.
    criteria_groups: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    # Of those, the place groups (state, city, ZIP) and the price range (marketplace.service_alerts).
    place_groups: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    # The asking-price range of the query (whole dollars, both ends included), for the alert
    # matching's range join; NULL: that end is open (both NULL: no price filter).
    min_price: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    max_price: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    alerts_enabled: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    email_enabled: bool = Field(default=True, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.true()))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    last_opened_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "name_key", name="uq_saved_searches_user_name"),
        sa.Index("ix_saved_searches_user_created", "user_id", "created_at"),
    )


class SavedSearchCriterion(SQLModel, table=True):
    """One option of a saved search's filter, (group, value): type/roi/size/tag/state/city/zip
    (a city in lower case). Alerts
    match new leads against these rows set-wise (marketplace.service_alerts)."""

    __tablename__ = "saved_search_criteria"

    saved_search_id: int = Field(sa_column=_bigint_fk("saved_searches.id", "CASCADE", primary_key=True))
    grp: str = Field(sa_column=sa.Column(sa.String(8), primary_key=True))
    value: str = Field(sa_column=sa.Column(sa.String(100), primary_key=True))  # a city: up to 100

    __table_args__ = (sa.Index("ix_saved_search_criteria_value", "grp", "value"),)


class Notification(SQLModel, table=True):
    """One in-app notification per user per refresh (the unique key makes a re-run a no-op);
    ``outbox_id`` is the digest e-mail recorded in the same transaction. ``kind`` 'refund' (migration
    0034): the credits of one purchase came back (``unlock.service_refunds``), one per ``user_lead_id``
    (UNIQUE), without a refresh run."""

    __tablename__ = "notifications"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    )
    refresh_run_id: Optional[int] = Field(default=None, sa_column=_bigint_fk("lead_refresh_runs.id", "CASCADE",
                                                                             nullable=True))
    kind: str = Field(default="alert", sa_column=sa.Column(sa.String(16), nullable=False, server_default="alert"))
    user_lead_id: Optional[int] = Field(default=None, sa_column=_bigint_fk("user_leads.id", "CASCADE", nullable=True))
    lead_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    # {"searches": [{"id", "name", "query", "count"}], "lead_ids": [first 20]}
    matches: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    outbox_id: Optional[int] = Field(default=None, sa_column=_bigint_fk("email_outbox.id", "SET NULL", nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    read_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.UniqueConstraint("user_id", "refresh_run_id", name="uq_notifications_user_refresh"),
        sa.UniqueConstraint("user_lead_id", name="uq_notifications_user_lead"),
        sa.Index("ix_notifications_user_created", "user_id", "created_at"),
    )
