"""Owner flags are three-valued (True, False, NULL = unknown) and bank-owned (REO) is a flag of its own

``properties`` and ``leads``: ``absentee_owner`` and ``out_of_state_owner`` become nullable (no default): a
record without the owner's mailing address says nothing about them. Rows whose property has no mailing
street and no mailing state (the old rule stored "no" for them) become NULL; the next ingestion of their
dataset recomputes every flag from the full mailing address (``records.rules_owner_flags``). Generated leads have
no owner on record: NULL. New ``bank_owned`` (NULL until the next ingestion reads the owner's name).

SQLite cannot drop a NOT NULL in place, and rebuilding ``leads`` or ``properties`` (copy, drop, rename) fails
on the rows that reference them (``PRAGMA foreign_keys`` cannot change inside the migration's transaction):
there each flag is copied to a new nullable column, the old one dropped and the new one renamed.

Revision ID: 0020
Revises: 0024
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0020'
down_revision = '0024'
branch_labels = None
depends_on = None

_TABLES = ('properties', 'leads')
_FLAGS = ('absentee_owner', 'out_of_state_owner')


def _set_nullable(table: str, column: str, nullable: bool) -> None:
    if op.get_bind().dialect.name != 'sqlite':
        op.alter_column(table, column, existing_type=sa.Boolean(), nullable=nullable,
                        server_default=None if nullable else sa.false())
        return
    spec = "BOOLEAN" if nullable else "BOOLEAN NOT NULL DEFAULT 0"
    op.execute(f"ALTER TABLE {table} ADD COLUMN {column}_0020 {spec}")
    op.execute(f"UPDATE {table} SET {column}_0020 = {column}" if nullable
               else f"UPDATE {table} SET {column}_0020 = COALESCE({column}, 0)")
    op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    op.execute(f"ALTER TABLE {table} RENAME COLUMN {column}_0020 TO {column}")


def upgrade() -> None:
    for table in _TABLES:
        for column in _FLAGS:
            _set_nullable(table, column, True)
        op.add_column(table, sa.Column('bank_owned', sa.Boolean(), nullable=True))
    op.execute("UPDATE properties SET absentee_owner = NULL, out_of_state_owner = NULL "
               "WHERE mailing_address IS NULL AND mailing_state IS NULL")
    op.execute("UPDATE leads SET absentee_owner = NULL, out_of_state_owner = NULL WHERE property_id IS NULL "
               "OR property_id IN (SELECT id FROM properties WHERE absentee_owner IS NULL)")


def downgrade() -> None:
    for table in _TABLES:
        op.execute(f"UPDATE {table} SET absentee_owner = COALESCE(absentee_owner, false), "
                   "out_of_state_owner = COALESCE(out_of_state_owner, false)")
        if op.get_bind().dialect.name == 'sqlite':
            op.execute(f"ALTER TABLE {table} DROP COLUMN bank_owned")
        else:
            op.drop_column(table, 'bank_owned')
        for column in _FLAGS:
            _set_nullable(table, column, False)
