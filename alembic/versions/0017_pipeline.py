"""pipeline: pipeline_entries (stage, dead reason, follow-up date, offer per user and lead) and pipeline_notes
(append-only, timestamped)

Indexes: the board reads (user_id, stage, follow_up_date); the bell reads (user_id, follow_up_date); notes
are read per entry in time order.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import UTCDateTime


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
STAGES = ('new', 'contacted', 'offer_made', 'under_contract', 'closed', 'dead')


def upgrade() -> None:
    op.create_table(
        'pipeline_entries',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('lead_id', sa.Uuid(), sa.ForeignKey('leads.id', ondelete='CASCADE'), nullable=False),
        sa.Column('stage', sa.String(length=16), nullable=False, server_default='new'),
        sa.Column('dead_reason', sa.String(length=200), nullable=True),
        sa.Column('follow_up_date', sa.Date(), nullable=True),
        sa.Column('offer_amount', sa.Integer(), nullable=True),
        sa.Column('updated_at', UTCDateTime(), nullable=False),
        sa.UniqueConstraint('user_id', 'lead_id', name='uq_pipeline_entries_user_lead'),
        sa.CheckConstraint("stage IN (" + ", ".join(f"'{s}'" for s in STAGES) + ")",
                           name='ck_pipeline_entries_stage'),
        sa.CheckConstraint("stage = 'dead' OR dead_reason IS NULL", name='ck_pipeline_entries_reason'),
        sa.CheckConstraint('offer_amount IS NULL OR offer_amount > 0', name='ck_pipeline_entries_offer'),
    )
    op.create_index('ix_pipeline_entries_lead_id', 'pipeline_entries', ['lead_id'])
    op.create_index('ix_pipeline_entries_user_stage', 'pipeline_entries', ['user_id', 'stage', 'follow_up_date'])
    op.create_index('ix_pipeline_entries_user_follow_up', 'pipeline_entries', ['user_id', 'follow_up_date'])
    op.create_table(
        'pipeline_notes',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('entry_id', BIGINT, sa.ForeignKey('pipeline_entries.id', ondelete='CASCADE'), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
    )
    op.create_index('ix_pipeline_notes_entry_created', 'pipeline_notes', ['entry_id', 'created_at'])


def downgrade() -> None:
    op.drop_index('ix_pipeline_notes_entry_created', table_name='pipeline_notes')
    op.drop_table('pipeline_notes')
    op.drop_index('ix_pipeline_entries_user_follow_up', table_name='pipeline_entries')
    op.drop_index('ix_pipeline_entries_user_stage', table_name='pipeline_entries')
    op.drop_index('ix_pipeline_entries_lead_id', table_name='pipeline_entries')
    op.drop_table('pipeline_entries')
