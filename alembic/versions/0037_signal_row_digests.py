"""A signal keeps the digest of the file row it was mapped from (issue 40, item 7: a re-import at the
database's speed)

``property_signals.row_digest``: a 63-bit digest of the row and of how it was mapped
(``records.source_opendata.row_digests``); NULL for the signals stored before this migration and for the
rows of live API pulls. A file re-import meets most of its rows unchanged: a row whose digest an open signal
of its dataset holds is counted unchanged and seen, without being mapped or written again. The column is
read per dataset (``ix_property_signals_dataset_status``), never looked up on its own: no index.

Revision ID: 0037
Revises: 0036
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op


revision = '0037'
down_revision = '0036'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('property_signals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('row_digest', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('property_signals', schema=None) as batch_op:
        batch_op.drop_column('row_digest')
