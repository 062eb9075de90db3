"""A property lists every dataset that mentions its parcel: its recorded sales and its roll record

``recorded_sales.parcel_id``: the normalised parcel id (Cook's 14-digit PIN, ...) or NULL where the dataset
names none (those sales join by address only). Indexed with the dataset: a property page reads the sales of
its parcel in its market's sales datasets. ``properties.roll_record`` / ``roll_as_of``: the newest roll
(assessment) record that names the property ("<dataset id>/<record key>") and its as-of date
(``facts_record`` names the newest record of any kind, often a list's). Filled by the next import of a sales
or roll dataset.

Revision ID: 0026_h5
Revises: 0020
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0026_h5'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('recorded_sales', sa.Column('parcel_id', sa.String(64), nullable=True))
    op.create_index('ix_recorded_sales_parcel', 'recorded_sales', ['parcel_id', 'dataset_id'])
    op.add_column('properties', sa.Column('roll_record', sa.String(200), nullable=True))
    op.add_column('properties', sa.Column('roll_as_of', sa.Date(), nullable=True))


def downgrade() -> None:
    op.drop_column('properties', 'roll_as_of')
    op.drop_column('properties', 'roll_record')
    op.drop_index('ix_recorded_sales_parcel', table_name='recorded_sales')
    op.drop_column('recorded_sales', 'parcel_id')
