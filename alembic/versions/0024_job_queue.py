"""Dataset pulls on a job queue: run heartbeats, job attempts and refresh runs, Idempotency-Key holders

dataset_runs.heartbeat_at and record_jobs.heartbeat_at: stamped by the process running the pull; a running
one whose heartbeat is older than RECORD_DEAD_AFTER_SECONDS died (failed, its job retried).
record_jobs.trigger / refresh_run_id / attempts: the daily refresh queues one job per dataset under its
lead_refresh_runs row, and a job retried after its worker died counts its attempts.
webhook_idempotency_keys.holder: the server process holding an unanswered key (released once it is gone).
(PostgreSQL's queue tables are Procrastinate's own schema, applied by features/records/jobs_queue.py.)

Revision ID: 0024
Revises: 0019
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import UTCDateTime


revision = '0024'
down_revision = '0019'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column('dataset_runs', sa.Column('heartbeat_at', UTCDateTime(), nullable=True))
    op.add_column('record_jobs', sa.Column('trigger', sa.String(length=16), nullable=False, server_default='manual'))
    op.add_column('record_jobs', sa.Column('refresh_run_id', BIGINT, nullable=True))
    op.add_column('record_jobs', sa.Column('attempts', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('record_jobs', sa.Column('heartbeat_at', UTCDateTime(), nullable=True))
    op.add_column('webhook_idempotency_keys', sa.Column('holder', sa.String(length=255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('webhook_idempotency_keys') as batch:
        batch.drop_column('holder')
    with op.batch_alter_table('record_jobs') as batch:
        batch.drop_column('heartbeat_at')
        batch.drop_column('attempts')
        batch.drop_column('refresh_run_id')
        batch.drop_column('trigger')
    with op.batch_alter_table('dataset_runs') as batch:
        batch.drop_column('heartbeat_at')
