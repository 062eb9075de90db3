"""Scarce by design: leads.exclusive

A lead is held by at most LEAD_MAX_HOLDERS investors (``leads.unlock_count`` counts them, migration 0021).
"Unlock exclusively" takes every spot left: the lead is then full whatever the cap says (``leads.exclusive``);
the buyer's one unlock record says so (purchase_type 'exclusive', credit_cost the price of every spot taken).
Nothing to backfill: no exclusive unlock exists before this.

Revision ID: 0033
Revises: 0030
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op


revision = '0033'
down_revision = '0030'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('leads', sa.Column('exclusive', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('leads') as batch:
        batch.drop_column('exclusive')
