"""profiles: the unlock confirmation preference

Ask before an unlock that costs at least ``unlock_confirm_threshold`` credits,
while ``unlock_confirm_enabled``. Server defaults switch it on at 120 credits
for every existing profile.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("profiles") as batch:
        batch.add_column(sa.Column("unlock_confirm_enabled", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("unlock_confirm_threshold", sa.Integer(), nullable=False, server_default="120"))


def downgrade() -> None:
    with op.batch_alter_table("profiles") as batch:
        batch.drop_column("unlock_confirm_threshold")
        batch.drop_column("unlock_confirm_enabled")
