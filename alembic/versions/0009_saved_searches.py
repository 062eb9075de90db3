"""saved searches, their criteria, notifications; leads.refresh_run_id; email_outbox.headers

- ``saved_searches``: a user's named marketplace filter (one name per user, case-insensitively,
  through ``name_key``); ``saved_search_criteria`` its options as (group, value) rows, which the
  alert matching joins set-wise.
- ``leads.refresh_run_id``: the refresh that inserted the lead (NULL for older leads, seeding
  and scrapes); alerts match exactly the leads of one refresh.
- ``notifications``: one per user per refresh (UNIQUE), with the digest e-mail's outbox id
  recorded in the same transaction, so a re-run or a second worker sends nothing twice.
- ``email_outbox.headers``: extra headers (List-Unsubscribe, List-Unsubscribe-Post).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import JSONType, UTCDateTime


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        'saved_searches',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('name_key', sa.String(length=60), nullable=False),
        sa.Column('query', sa.String(length=1000), nullable=False, server_default=''),
        sa.Column('criteria_groups', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('alerts_enabled', sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column('email_enabled', sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.Column('last_opened_at', UTCDateTime(timezone=True), nullable=True),
        sa.UniqueConstraint('user_id', 'name_key', name='uq_saved_searches_user_name'),
    )
    op.create_index('ix_saved_searches_user_created', 'saved_searches', ['user_id', 'created_at'])
    op.create_table(
        'saved_search_criteria',
        sa.Column('saved_search_id', BIGINT, sa.ForeignKey('saved_searches.id', ondelete='CASCADE'), nullable=False),
        sa.Column('grp', sa.String(length=8), nullable=False),
        sa.Column('value', sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint('saved_search_id', 'grp', 'value'),
    )
    op.create_index('ix_saved_search_criteria_value', 'saved_search_criteria', ['grp', 'value'])
    with op.batch_alter_table('email_outbox') as batch:
        batch.add_column(sa.Column('headers', JSONType, nullable=True))
    op.create_table(
        'notifications',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('refresh_run_id', BIGINT, sa.ForeignKey('lead_refresh_runs.id', ondelete='CASCADE'), nullable=False),
        sa.Column('lead_count', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('matches', JSONType, nullable=False),
        sa.Column('outbox_id', BIGINT, sa.ForeignKey('email_outbox.id', ondelete='SET NULL'), nullable=True),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.Column('read_at', UTCDateTime(timezone=True), nullable=True),
        sa.UniqueConstraint('user_id', 'refresh_run_id', name='uq_notifications_user_refresh'),
    )
    op.create_index('ix_notifications_user_created', 'notifications', ['user_id', 'created_at'])
    with op.batch_alter_table('leads') as batch:
        batch.add_column(sa.Column('refresh_run_id', BIGINT, nullable=True))
        batch.create_foreign_key('fk_leads_refresh_run_id', 'lead_refresh_runs', ['refresh_run_id'], ['id'],
                                 ondelete='SET NULL')
        batch.create_index('ix_leads_refresh_run_id', ['refresh_run_id'])


def downgrade() -> None:
    with op.batch_alter_table('leads') as batch:
        batch.drop_index('ix_leads_refresh_run_id')
        batch.drop_constraint('fk_leads_refresh_run_id', type_='foreignkey')
        batch.drop_column('refresh_run_id')
    op.drop_index('ix_notifications_user_created', table_name='notifications')
    op.drop_table('notifications')
    with op.batch_alter_table('email_outbox') as batch:
        batch.drop_column('headers')
    op.drop_index('ix_saved_search_criteria_value', table_name='saved_search_criteria')
    op.drop_table('saved_search_criteria')
    op.drop_index('ix_saved_searches_user_created', table_name='saved_searches')
    op.drop_table('saved_searches')
