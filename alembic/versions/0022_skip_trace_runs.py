"""skip_trace_runs: bulk owner searches, one running per user; credit_ledger reason 'skip_trace_bulk'

- ``skip_trace_runs``: one bulk owner search of a user's unlocked leads (selected, searched, hits, credits
  charged). The partial unique index ``uq_skip_trace_runs_running`` (``user_id`` where ``status = 'running'``)
  lets one run per user at a time, so a twin request cannot search and charge twice.
- ``credit_ledger.reason`` may be ``skip_trace_bulk`` (the one charge of a run's hits).

Revision ID: 0022
Revises: 0018
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import UTCDateTime


revision = '0022'
down_revision = '0018'
branch_labels = None
depends_on = None

OLD_REASONS = ('purchase', 'unlock', 'bulk_scrape', 'referral_bonus', 'referral_reward', 'admin_grant', 'refund',
               'forfeited', 'skip_trace')
NEW_REASONS = OLD_REASONS + ('skip_trace_bulk',)
RUNNING = sa.text("status = 'running'")


def _reasons(reasons: tuple[str, ...]) -> str:
    return "reason IN (" + ", ".join(f"'{r}'" for r in reasons) + ")"


def upgrade() -> None:
    op.create_table(
        'skip_trace_runs',
        sa.Column('id', sa.Uuid(), primary_key=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('status', sa.String(length=8), nullable=False),
        sa.Column('selected', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('searched', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('hits', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('credits_charged', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.Column('finished_at', UTCDateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('running', 'done', 'failed')", name='ck_skip_trace_runs_status'),
        sa.CheckConstraint('credits_charged >= 0', name='ck_skip_trace_runs_credits'),
    )
    op.create_index('uq_skip_trace_runs_running', 'skip_trace_runs', ['user_id'], unique=True,
                    sqlite_where=RUNNING, postgresql_where=RUNNING)
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(NEW_REASONS))


def downgrade() -> None:
    # Bulk skip-trace ledger rows are kept (the ledger's sum is the balance): the older constraint refuses
    # them, so this downgrade fails on a database that ever charged a bulk search.
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(OLD_REASONS))
    op.drop_index('uq_skip_trace_runs_running', table_name='skip_trace_runs')
    op.drop_table('skip_trace_runs')
