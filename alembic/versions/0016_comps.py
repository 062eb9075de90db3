"""comparable sales: comp_choices (each user's pinned comps of a lead and their ARV), lead_comp_cache (a paid
provider's comparables of a lead)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import JSONType, UTCDateTime


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        'comp_choices',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('lead_id', sa.Uuid(), sa.ForeignKey('leads.id', ondelete='CASCADE'), nullable=False),
        sa.Column('pinned', JSONType, nullable=False),
        sa.Column('customized', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('arv', sa.Integer(), nullable=True),
        sa.Column('arv_low', sa.Integer(), nullable=True),
        sa.Column('arv_high', sa.Integer(), nullable=True),
        sa.Column('pinned_count', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('basis', sa.String(length=255), nullable=False, server_default=''),
        sa.Column('updated_at', UTCDateTime(), nullable=False),
        sa.UniqueConstraint('user_id', 'lead_id', name='uq_comp_choices_user_lead'),
    )
    op.create_index('ix_comp_choices_lead_id', 'comp_choices', ['lead_id'])
    op.create_table(
        'lead_comp_cache',
        sa.Column('lead_id', sa.Uuid(), sa.ForeignKey('leads.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('provider', sa.String(length=32), nullable=False),
        sa.Column('comps', JSONType, nullable=False),
        sa.Column('fetched_at', UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('lead_comp_cache')
    op.drop_index('ix_comp_choices_lead_id', table_name='comp_choices')
    op.drop_table('comp_choices')
