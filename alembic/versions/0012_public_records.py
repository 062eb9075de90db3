"""public records: properties, property_signals, recorded_sales, hpi_points, dataset_runs; leads.property_id

- ``properties``: one per real property, UNIQUE (address_key, zip_code) and UNIQUE (state, parcel_id)
  (NULL parcel ids never collide); owner name and mailing address live here only.
- ``property_signals``: one per (dataset_id, record_key), open until it leaves its dataset.
- ``recorded_sales`` (comparable sales), ``hpi_points`` (FHFA index per ZIP3 and year),
  ``dataset_runs`` (one ingestion with its counts).
- ``leads``: ``property_id`` (a UNIQUE index: one lead per property), ``motivation_score``, ``signal_count``,
  ``absentee_owner``, ``out_of_state_owner``, indexed for sorting and filtering active leads. Added by
  plain ADD COLUMN (no table copy: SQLite could not drop ``leads`` while unlocks reference it).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import JSONType, UTCDateTime


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, UTCDateTime(timezone=True), nullable=nullable)


def _count(name: str) -> sa.Column:
    return sa.Column(name, sa.Integer(), nullable=False, server_default='0')


def upgrade() -> None:
    op.create_table(
        'properties',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('address_key', sa.String(length=255), nullable=False),
        sa.Column('address', sa.String(length=255), nullable=False),
        sa.Column('unit', sa.String(length=32), nullable=True),
        sa.Column('city', sa.String(length=100), nullable=True),
        sa.Column('state', sa.String(length=2), nullable=False),
        sa.Column('zip_code', sa.String(length=5), nullable=False),
        sa.Column('parcel_id', sa.String(length=64), nullable=True),
        sa.Column('latitude', sa.Float(), nullable=True),
        sa.Column('longitude', sa.Float(), nullable=True),
        sa.Column('owner_name', sa.String(length=255), nullable=True),
        sa.Column('mailing_address', sa.String(length=255), nullable=True),
        sa.Column('mailing_city', sa.String(length=100), nullable=True),
        sa.Column('mailing_state', sa.String(length=2), nullable=True),
        sa.Column('mailing_zip', sa.String(length=10), nullable=True),
        sa.Column('absentee_owner', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('out_of_state_owner', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('beds', sa.Integer(), nullable=True),
        sa.Column('baths', sa.Float(), nullable=True),
        sa.Column('square_footage', sa.Integer(), nullable=True),
        sa.Column('year_built', sa.Integer(), nullable=True),
        sa.Column('property_class', sa.String(length=100), nullable=True),
        sa.Column('assessed_value', sa.Integer(), nullable=True),
        sa.Column('market_value', sa.Integer(), nullable=True),
        sa.Column('value_year', sa.Integer(), nullable=True),
        sa.Column('value_dataset_id', sa.String(length=64), nullable=True),
        sa.Column('last_sale_price', sa.Integer(), nullable=True),
        sa.Column('last_sale_date', sa.Date(), nullable=True),
        sa.Column('facts_as_of', sa.Date(), nullable=True),
        sa.Column('facts_record', sa.String(length=200), nullable=True),
        _ts('created_at'),
        _ts('updated_at'),
        sa.UniqueConstraint('address_key', 'zip_code', name='uq_properties_address_zip'),
        sa.UniqueConstraint('state', 'parcel_id', name='uq_properties_state_parcel'),
    )
    op.create_index('ix_properties_zip_code', 'properties', ['zip_code'])
    op.create_table(
        'property_signals',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('property_id', BIGINT, sa.ForeignKey('properties.id', ondelete='CASCADE'), nullable=False),
        sa.Column('dataset_id', sa.String(length=64), nullable=False),
        sa.Column('record_key', sa.String(length=128), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('sale_type', sa.String(length=16), nullable=True),
        sa.Column('as_of', sa.Date(), nullable=True),
        sa.Column('amount_owed', sa.Integer(), nullable=True),
        sa.Column('years_owed', sa.Integer(), nullable=True),
        sa.Column('delinquent_since', sa.Date(), nullable=True),
        sa.Column('sale_date', sa.Date(), nullable=True),
        sa.Column('notice_date', sa.Date(), nullable=True),
        sa.Column('opening_bid', sa.Integer(), nullable=True),
        sa.Column('details', JSONType, nullable=False),
        sa.Column('record_url', sa.String(length=1024), nullable=True),
        sa.Column('status', sa.String(length=8), nullable=False, server_default='open'),
        _ts('first_seen_at'),
        _ts('last_seen_at'),
        _ts('retrieved_at'),
        _ts('closed_at', nullable=True),
        sa.Column('closed_reason', sa.String(length=255), nullable=True),
        sa.UniqueConstraint('dataset_id', 'record_key', name='uq_property_signals_dataset_record'),
        sa.CheckConstraint("status IN ('open', 'closed')", name='ck_property_signals_status'),
    )
    op.create_index('ix_property_signals_property_id', 'property_signals', ['property_id'])
    op.create_index('ix_property_signals_dataset_status', 'property_signals', ['dataset_id', 'status'])
    op.create_table(
        'recorded_sales',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('dataset_id', sa.String(length=64), nullable=False),
        sa.Column('record_key', sa.String(length=128), nullable=False),
        sa.Column('address', sa.String(length=255), nullable=True),
        sa.Column('zip_code', sa.String(length=5), nullable=True),
        sa.Column('price', sa.Integer(), nullable=False),
        sa.Column('sale_date', sa.Date(), nullable=False),
        sa.Column('square_footage', sa.Integer(), nullable=True),
        sa.Column('property_class', sa.String(length=100), nullable=True),
        _ts('retrieved_at'),
        sa.UniqueConstraint('dataset_id', 'record_key', name='uq_recorded_sales_dataset_record'),
    )
    op.create_index('ix_recorded_sales_zip_date', 'recorded_sales', ['zip_code', 'sale_date'])
    op.create_table(
        'hpi_points',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('dataset_id', sa.String(length=64), nullable=False),
        sa.Column('zip3', sa.String(length=3), nullable=False),
        sa.Column('year', sa.Integer(), nullable=False),
        sa.Column('index', sa.Float(), nullable=False),
        sa.Column('annual_change', sa.Float(), nullable=True),
        sa.UniqueConstraint('dataset_id', 'zip3', 'year', name='uq_hpi_points_dataset_zip3_year'),
    )
    op.create_table(
        'dataset_runs',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('dataset_id', sa.String(length=64), nullable=False),
        sa.Column('mode', sa.String(length=8), nullable=False),
        _ts('started_at'),
        _ts('finished_at', nullable=True),
        sa.Column('status', sa.String(length=8), nullable=False, server_default='running'),
        _count('rows_read'), _count('added'), _count('updated'), _count('unchanged'),
        _count('closed'), _count('archived'), _count('rejected'),
        sa.Column('newest_as_of', sa.Date(), nullable=True),
        sa.Column('warning', sa.Text(), nullable=True),
        sa.Column('error', sa.Text(), nullable=True),
        sa.CheckConstraint("mode IN ('file', 'api')", name='ck_dataset_runs_mode'),
        sa.CheckConstraint("status IN ('running', 'ok', 'failed')", name='ck_dataset_runs_status'),
    )
    op.create_index('ix_dataset_runs_dataset_started', 'dataset_runs', ['dataset_id', 'started_at'])
    # Plain ADD COLUMNs and indexes, never a batch copy of ``leads``: on SQLite a copy drops the table,
    # which its unlocks (user_leads) forbid while foreign keys are on. The property reference has no
    # ON DELETE (SQLite would not report it back): a property with a lead cannot be deleted.
    if op.get_bind().dialect.name == 'sqlite':  # Alembic has no ADD COLUMN ... REFERENCES for SQLite
        op.execute('ALTER TABLE leads ADD COLUMN property_id INTEGER REFERENCES properties (id)')
    else:
        op.add_column('leads', sa.Column('property_id', BIGINT, nullable=True))
        op.create_foreign_key('fk_leads_property_id', 'leads', 'properties', ['property_id'], ['id'])
    op.add_column('leads', sa.Column('motivation_score', sa.Integer(), nullable=True))
    op.add_column('leads', sa.Column('signal_count', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('leads', sa.Column('absentee_owner', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('leads', sa.Column('out_of_state_owner', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index('uq_leads_property_id', 'leads', ['property_id'], unique=True)
    op.create_index('ix_leads_active_motivation', 'leads', ['is_active', 'motivation_score'])
    op.create_index('ix_leads_active_signals', 'leads', ['is_active', 'signal_count'])


def downgrade() -> None:
    op.drop_index('ix_leads_active_signals', table_name='leads')
    op.drop_index('ix_leads_active_motivation', table_name='leads')
    op.drop_index('uq_leads_property_id', table_name='leads')
    if op.get_bind().dialect.name != 'sqlite':  # SQLite's is unnamed; its table copy leaves it out
        op.drop_constraint('fk_leads_property_id', 'leads', type_='foreignkey')
    with op.batch_alter_table('leads') as batch:  # SQLite drops a column with a foreign key by a copy
        for column in ('out_of_state_owner', 'absentee_owner', 'signal_count', 'motivation_score', 'property_id'):
            batch.drop_column(column)
    op.drop_index('ix_dataset_runs_dataset_started', table_name='dataset_runs')
    op.drop_table('dataset_runs')
    op.drop_table('hpi_points')
    op.drop_index('ix_recorded_sales_zip_date', table_name='recorded_sales')
    op.drop_table('recorded_sales')
    op.drop_index('ix_property_signals_dataset_status', table_name='property_signals')
    op.drop_index('ix_property_signals_property_id', table_name='property_signals')
    op.drop_table('property_signals')
    op.drop_index('ix_properties_zip_code', table_name='properties')
    op.drop_table('properties')
