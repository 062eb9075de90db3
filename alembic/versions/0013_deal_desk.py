"""deal desk: deal_analyses, deal_defaults, owner_contacts; credit_ledger reason 'skip_trace'

- ``deal_analyses``: one saved analyzer state per user and lead (UNIQUE), JSON inputs validated on load.
- ``deal_defaults``: a user's analyzer defaults (JSON; no row: the built-in defaults).
- ``owner_contacts``: one skip-trace result per user and lead (UNIQUE: a concurrent twin cannot charge
  twice), found or miss, phones and e-mails as JSON, the credits it cost.
- ``credit_ledger.reason`` may be ``skip_trace``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.platform.models import JSONType, UTCDateTime


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
OLD_REASONS = ('purchase', 'unlock', 'bulk_scrape', 'referral_bonus', 'referral_reward', 'admin_grant', 'refund',
               'forfeited')
NEW_REASONS = OLD_REASONS + ('skip_trace',)


def _reasons(reasons: tuple[str, ...]) -> str:
    return "reason IN (" + ", ".join(f"'{r}'" for r in reasons) + ")"


def _owner_columns() -> list:
    return [
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('lead_id', sa.Uuid(), sa.ForeignKey('leads.id', ondelete='CASCADE'), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        'deal_analyses', *_owner_columns(),
        sa.Column('inputs', JSONType, nullable=False),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.Column('updated_at', UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('user_id', 'lead_id', name='uq_deal_analyses_user_lead'),
    )
    op.create_index('ix_deal_analyses_lead_id', 'deal_analyses', ['lead_id'])
    op.create_table(
        'deal_defaults',
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('defaults', JSONType, nullable=False),
        sa.Column('updated_at', UTCDateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'owner_contacts', *_owner_columns(),
        sa.Column('provider', sa.String(length=32), nullable=False),
        sa.Column('demo', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('status', sa.String(length=8), nullable=False),
        sa.Column('owner_name', sa.String(length=200), nullable=True),
        sa.Column('phones', JSONType, nullable=False),
        sa.Column('emails', JSONType, nullable=False),
        sa.Column('credits_charged', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('user_id', 'lead_id', name='uq_owner_contacts_user_lead'),
        sa.CheckConstraint("status IN ('found', 'miss')", name='ck_owner_contacts_status'),
        sa.CheckConstraint('credits_charged >= 0', name='ck_owner_contacts_credits'),
    )
    op.create_index('ix_owner_contacts_lead_id', 'owner_contacts', ['lead_id'])
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(NEW_REASONS))


def downgrade() -> None:
    # The older schema has no such reason. Skip-trace ledger rows are not rewritten or deleted (either would
    # misstate the ledger, whose sum is the balance): the constraint refuses them, so this downgrade fails
    # on a database that ever charged for a skip trace.
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(OLD_REASONS))
    op.drop_index('ix_owner_contacts_lead_id', table_name='owner_contacts')
    op.drop_table('owner_contacts')
    op.drop_table('deal_defaults')
    op.drop_index('ix_deal_analyses_lead_id', table_name='deal_analyses')
    op.drop_table('deal_analyses')
