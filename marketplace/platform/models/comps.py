"""Comparable sales: each user's pinned comps of a lead with the ARV they give, and the
comparables a paid provider (RentCast) sent for a lead, kept so a page view does not call it again."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from marketplace.platform.models.base import JSONType, bigint_pk, created_column, utcnow


class CompChoice(SQLModel, table=True):
    """One user's comps of one lead: the pinned comp ids (``property.rules_comps.Comp.comp_id``), the ARV they give
    (NULL: none, e.g. nothing pinned) and whether the user chose them (``customized``) or they are the
    default selection stored on first view."""

    __tablename__ = "comp_choices"

    id: Optional[int] = Field(default=None, sa_column=bigint_pk())
    user_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False))
    lead_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False, index=True))
    pinned: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))
    customized: bool = Field(default=False, sa_column=sa.Column(sa.Boolean(), nullable=False,
                                                               server_default=sa.false()))
    arv: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    arv_low: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    arv_high: Optional[int] = Field(default=None, sa_column=sa.Column(sa.Integer(), nullable=True))
    pinned_count: int = Field(default=0, sa_column=sa.Column(sa.Integer(), nullable=False, server_default="0"))
    basis: str = Field(default="", sa_column=sa.Column(sa.String(255), nullable=False, server_default=""))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=created_column())

    __table_args__ = (sa.UniqueConstraint("user_id", "lead_id", name="uq_comp_choices_user_lead"),)


class LeadCompCache(SQLModel, table=True):
    """A provider's comparables of one lead (``property.rules_comps.Comp`` fields as JSON), fetched at ``fetched_at``."""

    __tablename__ = "lead_comp_cache"

    lead_id: uuid.UUID = Field(
        sa_column=sa.Column(sa.Uuid(), sa.ForeignKey("leads.id", ondelete="CASCADE"), primary_key=True))
    provider: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    comps: list = Field(default_factory=list, sa_column=sa.Column(JSONType, nullable=False))
    fetched_at: datetime = Field(default_factory=utcnow, sa_column=created_column())
