"""A property lists every dataset that mentions its parcel: its roll record

(Its recorded sales join by ``recorded_sales.state`` and ``parcel_id``, migration 0026.)
``properties.roll_record`` / ``roll_as_of``: the newest roll
(assessment) record that names the property ("<dataset id>/<record key>") and its as-of date
(``facts_record`` names the newest record of any kind, often a list's). Filled by the next import of a sales
or roll dataset.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('properties', sa.Column('roll_record', sa.String(200), nullable=True))
    op.add_column('properties', sa.Column('roll_as_of', sa.Date(), nullable=True))


def downgrade() -> None:
    op.drop_column('properties', 'roll_as_of')
    op.drop_column('properties', 'roll_record')
