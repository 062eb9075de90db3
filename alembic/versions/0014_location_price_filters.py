"""location and asking-price filters

- ``saved_searches.min_price`` / ``max_price``: a saved search's asking-price range, which the
  alert matching joins as a range; ``place_groups``: how many of its ``criteria_groups`` are
  places or the price (the matching checks those against place cells, the rest against kind cells); ``saved_searches.query`` becomes TEXT (ten cities of up to
  100 characters, percent-encoded, outgrow VARCHAR(1000)).
- ``saved_search_criteria.value`` VARCHAR(100): a city criterion is a city name.
- ``ixs_leads_active_city_lower`` (PostgreSQL): ``lower(city)`` of the active leads, for the
  marketplace's case-insensitive city filter (the explorer's ``lower(city)`` index covers
  ``scrape_id IS NULL``, which the marketplace query does not say). State and ZIP filters use
  ``ix_leads_state_city`` and ``ix_leads_zip_code``, the price range ``ix_leads_active_price``.
  An expression index the models do not declare (``ixs_*``).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('saved_searches') as batch:
        batch.alter_column('query', existing_type=sa.String(length=1000), type_=sa.Text(),
                           existing_nullable=False, existing_server_default='')
        batch.add_column(sa.Column('place_groups', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('min_price', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('max_price', sa.Integer(), nullable=True))
    with op.batch_alter_table('saved_search_criteria') as batch:
        batch.alter_column('value', existing_type=sa.String(length=32), type_=sa.String(length=100),
                           existing_nullable=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE INDEX ixs_leads_active_city_lower ON leads (lower(city)) WHERE is_active = true")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ixs_leads_active_city_lower")
    with op.batch_alter_table('saved_search_criteria') as batch:
        batch.alter_column('value', existing_type=sa.String(length=100), type_=sa.String(length=32),
                           existing_nullable=False)
    with op.batch_alter_table('saved_searches') as batch:
        batch.drop_column('max_price')
        batch.drop_column('min_price')
        batch.drop_column('place_groups')
        batch.alter_column('query', existing_type=sa.Text(), type_=sa.String(length=1000),
                           existing_nullable=False, existing_server_default='')
