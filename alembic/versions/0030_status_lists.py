"""Open (status) lists are judged by the day the list was taken, not by each item's own date.

``property_signals.status_list``: true for a signal of a status list (each row an item still open on the day
the list was taken: open notices, vacancy indicators, open violations, vacate orders, delinquency balances).
Its ``as_of`` is then the day of the newest snapshot of the list that held the item; ``notice_date`` /
``delinquent_since`` keep the item's own date ("Vacant since ..."). Existing signals of the status datasets
shipped in ``marketplace/features/records/datasets`` are marked; their ``as_of`` stays what it was until the next snapshot
is imported (``import-records ... --as-of``) or pulled.

Revision ID: 0030
Revises: 0027
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op


revision = '0030'
down_revision = '0027'
branch_labels = None
depends_on = None

# The dataset files that declare list = "status" when this migration was written.
STATUS_DATASETS = ('allegheny-tax-liens-summary', 'bal-vacant-building-notices', 'nyc-dob-vacate-orders',
                   'nyc-dof-tax-lien-sale-list', 'nyc-hpd-vacate-orders', 'nyc-hpd-violations',
                   'phl-property-tax-balances-2014-with-li', 'phl-tax-delinquencies',
                   'phl-vacant-indicators-buildings', 'phl-vacant-indicators-land')


def upgrade() -> None:
    op.add_column('property_signals', sa.Column('status_list', sa.Boolean(), nullable=False,
                                                server_default=sa.false()))
    signals = sa.table('property_signals', sa.column('dataset_id', sa.String), sa.column('status_list', sa.Boolean))
    op.execute(signals.update().where(signals.c.dataset_id.in_(STATUS_DATASETS)).values(status_list=True))


def downgrade() -> None:
    op.drop_column('property_signals', 'status_list')
