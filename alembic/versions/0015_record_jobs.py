"""record_jobs: the explorer's "Run now" of a public-record dataset, queued for the records worker

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import UTCDateTime


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        'record_jobs',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('dataset_id', sa.String(length=64), nullable=False),
        sa.Column('requested_by', sa.Uuid(), sa.ForeignKey('users.id', ondelete='SET NULL'), nullable=True),
        sa.Column('requested_at', UTCDateTime(), nullable=False),
        sa.Column('status', sa.String(length=8), nullable=False, server_default='queued'),
        sa.Column('started_at', UTCDateTime(), nullable=True),
        sa.Column('finished_at', UTCDateTime(), nullable=True),
        sa.Column('run_id', BIGINT, nullable=True),
        sa.Column('error', sa.Text(), nullable=True),
        sa.CheckConstraint("status IN ('queued', 'running', 'ok', 'failed')", name='ck_record_jobs_status'),
    )
    op.create_index('ix_record_jobs_status_requested', 'record_jobs', ['status', 'requested_at'])
    op.create_index('ix_record_jobs_dataset_requested', 'record_jobs', ['dataset_id', 'requested_at'])


def downgrade() -> None:
    op.drop_index('ix_record_jobs_dataset_requested', table_name='record_jobs')
    op.drop_index('ix_record_jobs_status_requested', table_name='record_jobs')
    op.drop_table('record_jobs')
