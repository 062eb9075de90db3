"""Freshness shown and measured (issue 38, item 3: incremental pulls, per-dataset intervals, the lag)

- ``property_signals.portal_updated_at``: the portal's own update time of the row when LeadVault first
  stored it (Socrata ``:updated_at``, an ArcGIS edit date; NULL where the portal gives none); the lag of a
  signal is ``first_seen_at - portal_updated_at``. Index (dataset_id, first_seen_at) for the Sources panel's
  30-day lag per dataset.
- ``dataset_runs.full``: whether the run read the whole dataset (NULL for the runs before this migration);
  ``dataset_runs.portal_updated_max``: the newest portal update time the run read (the watermark of the
  next incremental pull).

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op


revision = '0035'
down_revision = '0034'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('property_signals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('portal_updated_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_property_signals_dataset_first_seen', ['dataset_id', 'first_seen_at'], unique=False)
    with op.batch_alter_table('dataset_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('full', sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column('portal_updated_max', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('dataset_runs', schema=None) as batch_op:
        batch_op.drop_column('portal_updated_max')
        batch_op.drop_column('full')
    with op.batch_alter_table('property_signals', schema=None) as batch_op:
        batch_op.drop_index('ix_property_signals_dataset_first_seen')
        batch_op.drop_column('portal_updated_at')
