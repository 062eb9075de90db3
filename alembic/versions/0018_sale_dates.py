"""leads.sale_date: a lead's next sale or auction date; "Auction Soon" is a date within 30 days

Public-record leads get theirs from their open sale-list signals at the next ingestion (``record_leads``
rewrites a lead whose values changed); generated auction and pre-foreclosure leads made from now on carry
a demo date. Existing generated leads keep none (never "Auction Soon") until the daily refresh replaces them.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op


revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('leads', sa.Column('sale_date', sa.Date(), nullable=True))
    op.create_index('ix_leads_active_sale_date', 'leads', ['is_active', 'sale_date'])


def downgrade() -> None:
    op.drop_index('ix_leads_active_sale_date', table_name='leads')
    with op.batch_alter_table('leads') as batch:
        batch.drop_column('sale_date')
