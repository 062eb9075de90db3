"""The deal desk: saved deal analyses, each user's analyzer defaults, owner contacts (skip trace)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import JSONType, bigint_pk, created_column, ts_column, utcnow

CONTACT_STATUSES = ("found", "miss")
SKIP_TRACE_RUN_STATUSES = ("running", "done", "failed")


def _user_fk() -> sa.Column:
    return sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)


def _lead_fk() -> sa.Column:
    return sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False, index=True)


class DealAnalysisRow(SQLModel, table=True):
    """A user's analysis of one lead: ``property.rules_deal.to_json(DealAnalysis)``, re-validated on every load."""

    __tablename__ = "deal_analyses"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(sa_column=_user_fk())
    lead_id: uuid.UUID = Field(sa_column=_lead_fk())
    inputs: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (sa.UniqueConstraint("user_id", "lead_id", name="uq_deal_analyses_user_lead"),)


class DealDefaultsRow(SQLModel, table=True):
    """A user's analyzer defaults (``property.rules_deal.DealDefaults`` as JSON); no row: the built-in defaults."""

    __tablename__ = "deal_defaults"

    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True))
    defaults: dict = Field(default_factory=dict, sa_column=sa.Column(JSONType, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())


class OwnerContact(SQLModel, table=True):
    """The owner's phones and e-mails a skip trace found for one user and lead (one search per user and lead:
    a repeat reads this row). ``phones``: [{number, type, dnc, wrong}]; ``emails``: [address]."""

    __tablename__ = "owner_contacts"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(sa_column=_user_fk())
    lead_id: uuid.UUID = Field(sa_column=_lead_fk())
    provider: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    demo: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.false()))
    status: str = Field(sa_column=sa.Column(sa.String(8), nullable=False))
    owner_name: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(200), nullable=True))
    phones: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))
    emails: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))
    credits_charged: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.UniqueConstraint("user_id", "lead_id", name="uq_owner_contacts_user_lead"),
        sa.CheckConstraint("status IN ('found', 'miss')", name="ck_owner_contacts_status"),
        sa.CheckConstraint("credits_charged >= 0", name="ck_owner_contacts_credits"),
    )


class SkipTraceRun(SQLModel, table=True):
    """One bulk owner search of a user's unlocked leads (``property.service_owner_contact_bulk``). At most one runs per
    user (the partial unique index on ``user_id`` where ``status = 'running'``): a twin request (two tabs, a
    double click, a hand-sent event) is refused while one runs. ``credits_charged`` is the one ledger row's
    amount (reason ``skip_trace_bulk``, ``ref_id`` the run's id)."""

    __tablename__ = "skip_trace_runs"

    id: uuid.UUID = Field(default_factory=uuid.uuid4, sa_column=sa.Column(sa.Uuid(), primary_key=True))
    user_id: uuid.UUID = Field(sa_column=_user_fk())
    status: str = Field(default="running", sa_column=sa.Column(sa.String(8), nullable=False))
    selected: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    searched: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    hits: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    credits_charged: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
    finished_at: Optional[datetime] = Field(default=None, sa_column=ts_column(nullable=True))

    __table_args__ = (
        sa.Index("uq_skip_trace_runs_running", "user_id", unique=True,
                 sqlite_where=sa.text("status = 'running'"), postgresql_where=sa.text("status = 'running'")),
        sa.CheckConstraint("status IN ('running', 'done', 'failed')", name="ck_skip_trace_runs_status"),
        sa.CheckConstraint("credits_charged >= 0", name="ck_skip_trace_runs_credits"),
    )
