"""leads.unlock_count: how many live accounts hold an unlock record of the lead

Every card and the property page say how many investors hold a lead, and the marketplace filters and sorts
by it; a counter on the lead makes that a column of the row read anyway, and an index the filter and the
"Least unlocked" sort use. Backfilled from ``user_leads`` (one row per user and lead: its unique key), less
the records of closed accounts (``users.deleted_at`` set), which hold nothing any more.
``unlock.service_counts`` keeps it from here on.

Revision ID: 0021
Revises: 0022
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0021'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('leads', sa.Column('unlock_count', sa.Integer(), nullable=False, server_default='0'))
    op.execute(
        "UPDATE leads SET unlock_count = ("
        " SELECT count(*) FROM user_leads JOIN users ON users.id = user_leads.user_id"
        " WHERE user_leads.lead_id = leads.id AND users.deleted_at IS NULL)"
        " WHERE id IN (SELECT lead_id FROM user_leads)"
    )
    op.create_index('ix_leads_active_unlock_count', 'leads', ['is_active', 'unlock_count'])


def downgrade() -> None:
    op.drop_index('ix_leads_active_unlock_count', table_name='leads')
    with op.batch_alter_table('leads') as batch:
        batch.drop_column('unlock_count')
