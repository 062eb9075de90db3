"""The deal pipeline: one entry per user and unlocked lead, and its append-only notes.

A lead the user unlocked without an entry is in stage 'new' (``property.rules_pipeline``); an entry is written on the
first change. Indexes serve the board (user, stage, follow-up) and the bell (user, follow-up).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import bigint_pk, created_column, utcnow

PIPELINE_STAGES = ("new", "contacted", "offer_made", "under_contract", "closed", "dead")


def _stages_check() -> str:
    return "stage IN (" + ", ".join(f"'{s}'" for s in PIPELINE_STAGES) + ")"


class PipelineEntry(SQLModel, table=True):
    __tablename__ = "pipeline_entries"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False))
    lead_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False, index=True))
    stage: str = Field(default="new", sa_column=sa.Column(sa.String(16), nullable=False, server_default="new"))
    dead_reason: Optional[str] = Field(default=None, sa_column=sa.Column(sa.String(200), nullable=True))
    follow_up_date: Optional[date] = Field(default=None, sa_column=sa.Column(sa.Date(), nullable=True))
    offer_amount: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (
        sa.UniqueConstraint("user_id", "lead_id", name="uq_pipeline_entries_user_lead"),
        sa.CheckConstraint(_stages_check(), name="ck_pipeline_entries_stage"),
        sa.CheckConstraint("stage = 'dead' OR dead_reason IS NULL", name="ck_pipeline_entries_reason"),
        sa.CheckConstraint("offer_amount IS NULL OR offer_amount > 0", name="ck_pipeline_entries_offer"),
        sa.Index("ix_pipeline_entries_user_stage", "user_id", "stage", "follow_up_date"),
        sa.Index("ix_pipeline_entries_user_follow_up", "user_id", "follow_up_date"),
    )


class PipelineNote(SQLModel, table=True):
    """One note on an entry; never edited (append-only), deleted only with the entry or the account."""

    __tablename__ = "pipeline_notes"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    entry_id: int = Field(sa_column=sa.Column(
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        sa.ForeignKey("pipeline_entries.id", ondelete="CASCADE"), nullable=False))
    body: str = Field(sa_column=sa.Column(sa.Text(), nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (sa.Index("ix_pipeline_notes_entry_created", "entry_id", "created_at"),)
