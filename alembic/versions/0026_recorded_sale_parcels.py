"""Recorded sales name their parcel, deed type and why they are not arm's length

``recorded_sales`` gains ``state`` and ``parcel_id`` (a county's sales dataset names the parcel and no
street address: the sale joins its property by ``(state, parcel_id)``), ``deed_type`` (the last sale's
deed on the card) and ``excluded_reason`` (why the publisher's flags or the price say the sale is not arm's
length: never a comparable sale). Existing rows keep NULL until their dataset is read again.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('recorded_sales', sa.Column('state', sa.String(2), nullable=True))
    op.add_column('recorded_sales', sa.Column('parcel_id', sa.String(64), nullable=True))
    op.add_column('recorded_sales', sa.Column('deed_type', sa.String(64), nullable=True))
    op.add_column('recorded_sales', sa.Column('excluded_reason', sa.String(120), nullable=True))
    op.create_index('ix_recorded_sales_state_parcel', 'recorded_sales', ['state', 'parcel_id'])


def downgrade() -> None:
    op.drop_index('ix_recorded_sales_state_parcel', table_name='recorded_sales')
    for column in ('excluded_reason', 'deed_type', 'parcel_id', 'state'):
        op.drop_column('recorded_sales', column)
