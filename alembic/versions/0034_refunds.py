"""Credits back when the county contradicts a lead (issue 38, item 5: ``unlock.service_refunds``)

- ``user_leads.refunded_at`` / ``refund_credits`` / ``refund_reason``: when a purchase's credits came back,
  how many and what the county's record said. Set once, by ``UPDATE ... WHERE refunded_at IS NULL`` in the
  transaction of the ledger's 'refund' row (whose UNIQUE (user_id, reason, reference_id) refuses a second
  one for the same ``user_lead:<id>`` reference).
- ``notifications.kind`` ('alert', the saved-search digests, or 'refund'), ``user_lead_id`` (UNIQUE: one
  refund notification per purchase); ``refresh_run_id`` becomes nullable (a refund has no refresh run).

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op


revision = '0034'
down_revision = '0033'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')


def upgrade() -> None:
    with op.batch_alter_table('user_leads', schema=None) as batch_op:
        batch_op.add_column(sa.Column('refunded_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('refund_credits', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('refund_reason', sa.String(length=255), nullable=True))
    with op.batch_alter_table('notifications', schema=None) as batch_op:
        batch_op.alter_column('refresh_run_id', existing_type=BIGINT, nullable=True)
        batch_op.add_column(sa.Column('kind', sa.String(length=16), nullable=False, server_default='alert'))
        batch_op.add_column(sa.Column('user_lead_id', BIGINT, nullable=True))
        batch_op.create_foreign_key('fk_notifications_user_lead_id_user_leads', 'user_leads', ['user_lead_id'],
                                    ['id'], ondelete='CASCADE')
        batch_op.create_unique_constraint('uq_notifications_user_lead', ['user_lead_id'])


def downgrade() -> None:
    op.execute("DELETE FROM notifications WHERE refresh_run_id IS NULL")
    with op.batch_alter_table('notifications', schema=None) as batch_op:
        batch_op.drop_constraint('uq_notifications_user_lead', type_='unique')
        batch_op.drop_constraint('fk_notifications_user_lead_id_user_leads', type_='foreignkey')
        batch_op.drop_column('user_lead_id')
        batch_op.drop_column('kind')
        batch_op.alter_column('refresh_run_id', existing_type=BIGINT, nullable=False)
    with op.batch_alter_table('user_leads', schema=None) as batch_op:
        batch_op.drop_column('refund_reason')
        batch_op.drop_column('refund_credits')
        batch_op.drop_column('refunded_at')
