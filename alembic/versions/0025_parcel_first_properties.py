"""Properties are identified by parcel first: two parcels at one street address are two properties, and a
parcel-only property (a parcel id and no street address yet) has no address

``properties``: ``address_key``, ``address`` and ``zip_code`` become nullable (a parcel-only property holds
its signals and makes no lead until a record of its parcel names the street address, city and ZIP). The
UNIQUE constraint ``uq_properties_address_zip`` becomes the partial unique index
``uq_properties_address_zip_no_parcel`` (``address_key, zip_code`` where ``parcel_id IS NULL``): a record
without a parcel id is still found by its address, and properties with a parcel id are unique by
``(state, parcel_id)``. ``ix_properties_address_zip`` serves the address look-up of every property.

SQLite cannot drop a table's UNIQUE constraint or a NOT NULL in place: the table is rebuilt (copy, drop,
rename). ``PRAGMA foreign_keys`` cannot change inside the migration's transaction, so what references the
table is set aside first and put back after (the ids are kept): the leads' ``property_id`` (NULL meanwhile)
and the signals (which the drop would delete by cascade).

Downgrade: parcel-only properties (no address) are deleted with their signals; it refuses when two
properties share an address and ZIP (the old constraint cannot hold them).

Revision ID: 0025
Revises: 0020
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0025'
down_revision = '0020'
branch_labels = None
depends_on = None

NO_PARCEL = sa.text('parcel_id IS NULL')
_ADDRESS_COLUMNS = (('address_key', 255), ('address', 255), ('zip_code', 5))


def _sqlite_rebuild(nullable: bool, constraint: str) -> None:
    """Rebuild ``properties`` on SQLite with the address columns' nullability and, on the way back, the old
    UNIQUE constraint; the signals survive the drop (module docstring)."""
    op.execute('CREATE TEMP TABLE signals_0025 AS SELECT * FROM property_signals')
    op.execute('CREATE TEMP TABLE lead_properties_0025 AS SELECT id, property_id FROM leads '
               'WHERE property_id IS NOT NULL')
    op.execute('UPDATE leads SET property_id = NULL WHERE property_id IS NOT NULL')
    with op.batch_alter_table('properties', recreate='always') as batch:
        for column, length in _ADDRESS_COLUMNS:
            batch.alter_column(column, existing_type=sa.String(length), nullable=nullable)
        if constraint == 'drop':
            batch.drop_constraint('uq_properties_address_zip', type_='unique')
        else:
            batch.create_unique_constraint('uq_properties_address_zip', ['address_key', 'zip_code'])
    op.execute('DELETE FROM property_signals')
    op.execute('INSERT INTO property_signals SELECT * FROM signals_0025')
    op.execute('DROP TABLE signals_0025')
    op.execute('UPDATE leads SET property_id = (SELECT t.property_id FROM lead_properties_0025 t '
               'WHERE t.id = leads.id) WHERE id IN (SELECT id FROM lead_properties_0025)')
    op.execute('DROP TABLE lead_properties_0025')


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        _sqlite_rebuild(True, 'drop')
    else:
        op.drop_constraint('uq_properties_address_zip', 'properties', type_='unique')
        for column, length in _ADDRESS_COLUMNS:
            op.alter_column('properties', column, existing_type=sa.String(length), nullable=True)
    op.create_index('uq_properties_address_zip_no_parcel', 'properties', ['address_key', 'zip_code'], unique=True,
                    sqlite_where=NO_PARCEL, postgresql_where=NO_PARCEL)
    op.create_index('ix_properties_address_zip', 'properties', ['address_key', 'zip_code'])


def downgrade() -> None:
    shared = op.get_bind().execute(sa.text(
        'SELECT address_key, zip_code FROM properties WHERE address_key IS NOT NULL '
        'GROUP BY address_key, zip_code HAVING COUNT(*) > 1')).first()
    if shared is not None:
        raise RuntimeError(f'cannot downgrade: several properties (parcels) share the address {shared[0]!r} '
                           f'{shared[1]}; the old schema allows one')
    op.execute('DELETE FROM properties WHERE address_key IS NULL OR zip_code IS NULL OR address IS NULL')
    op.drop_index('ix_properties_address_zip', table_name='properties')
    op.drop_index('uq_properties_address_zip_no_parcel', table_name='properties')
    if op.get_bind().dialect.name == 'sqlite':
        _sqlite_rebuild(False, 'create')
    else:
        for column, length in _ADDRESS_COLUMNS:
            op.alter_column('properties', column, existing_type=sa.String(length), nullable=False)
        op.create_unique_constraint('uq_properties_address_zip', 'properties', ['address_key', 'zip_code'])
