"""developer explorer indexes on leads; users.deleted_at for account deletion

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

from marketplace.platform.models import UTCDateTime


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', UTCDateTime(timezone=True), nullable=True))
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.create_index('ix_leads_created_at', ['created_at'], unique=False)
        batch_op.create_index('ix_leads_zip_code', ['zip_code'], unique=False)
        batch_op.create_index('ix_leads_state_city', ['state', 'city'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.drop_index('ix_leads_state_city')
        batch_op.drop_index('ix_leads_zip_code')
        batch_op.drop_index('ix_leads_created_at')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('deleted_at')
