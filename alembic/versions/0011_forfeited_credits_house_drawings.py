"""credit_ledger reason 'forfeited'; the partial index that finds a lead by its house drawing

- ``credit_ledger.reason`` may be ``forfeited``: deleting an account books its remaining balance out
  through the ledger, so every account's ledger sums to its balance (0 once deleted). Accounts
  deleted before this revision get that row now (dated at their deletion).
- ``ix_leads_house_drawing``: ``leads.primary_image_url`` where it is one of the app's drawings;
  the picture route draws only keys that belong to a lead and looks them up here.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

OLD_REASONS = ('purchase', 'unlock', 'bulk_scrape', 'referral_bonus', 'referral_reward', 'admin_grant', 'refund')
NEW_REASONS = OLD_REASONS + ('forfeited',)
HOUSE_DRAWING_WHERE = "primary_image_url LIKE '/api/images/house/%'"


def _reasons(reasons: tuple[str, ...]) -> str:
    return "reason IN (" + ", ".join(f"'{r}'" for r in reasons) + ")"


def upgrade() -> None:
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(NEW_REASONS))
    # Accounts deleted earlier forfeited their balance without a ledger row: book it now.
    op.execute(sa.text(
        "INSERT INTO credit_ledger (user_id, delta, reason, reference_id, balance_after, created_at) "
        "SELECT l.user_id, -SUM(l.delta), 'forfeited', NULL, 0, u.deleted_at "
        "FROM credit_ledger l JOIN users u ON u.id = l.user_id "
        "WHERE u.deleted_at IS NOT NULL GROUP BY l.user_id, u.deleted_at HAVING SUM(l.delta) <> 0"
    ))
    op.create_index('ix_leads_house_drawing', 'leads', ['primary_image_url'],
                    sqlite_where=sa.text(HOUSE_DRAWING_WHERE), postgresql_where=sa.text(HOUSE_DRAWING_WHERE))


def downgrade() -> None:
    op.drop_index('ix_leads_house_drawing', table_name='leads')
    # The older schema has no such reason: the forfeit rows go (deleted accounts' ledgers then
    # sum to the balance they had, as before this revision).
    op.execute(sa.text("DELETE FROM credit_ledger WHERE reason = 'forfeited'"))
    with op.batch_alter_table('credit_ledger') as batch:
        batch.drop_constraint('ck_credit_ledger_reason', type_='check')
        batch.create_check_constraint('ck_credit_ledger_reason', _reasons(OLD_REASONS))
