"""leads delivered by a bulk scrape: leads.scrape_id and leads.source_listing_id

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scrape_id', sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column('source_listing_id', sa.String(length=128), nullable=True))
        batch_op.create_index(batch_op.f('ix_leads_scrape_id'), ['scrape_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_leads_source_listing_id'), ['source_listing_id'], unique=False)
        batch_op.create_foreign_key('fk_leads_scrape_id_bulk_scrapes', 'bulk_scrapes', ['scrape_id'], ['id'],
                                    ondelete='SET NULL')


def downgrade() -> None:
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.drop_constraint('fk_leads_scrape_id_bulk_scrapes', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_leads_source_listing_id'))
        batch_op.drop_index(batch_op.f('ix_leads_scrape_id'))
        batch_op.drop_column('source_listing_id')
        batch_op.drop_column('scrape_id')
