"""held_properties, webhook_refusals, webhook_idempotency_keys (the webhook/scrape money path)

- ``held_properties``: (user_id, key) PRIMARY KEY, one row per holding key ('listing:<id>',
  'address:<address>|<ZIP>') of every property a bulk scrape delivered to the user, written in the
  transaction that charges for it: two concurrent scrapes cannot both deliver (and charge) one
  property. Back-filled from the leads existing scrapes delivered (a duplicate already delivered
  twice keeps one row).
- ``webhook_refusals``: refused webhook requests (401, 404, 413, 429) counted per minute, IP, path and
  status, without bodies (they no longer go to ``webhook_requests``).
- ``webhook_idempotency_keys``: the webhook API's ``Idempotency-Key`` (UNIQUE per user), with the answer
  it replays for 24 hours.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""
import sqlalchemy as sa
from alembic import op

from marketplace.features.scrape.rules import holding_keys
from marketplace.platform.models import JSONType, UTCDateTime


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    held = op.create_table(
        'held_properties',
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('key', sa.String(length=300), nullable=False),
        sa.Column('lead_id', sa.Uuid(), sa.ForeignKey('leads.id', ondelete='CASCADE'), nullable=False),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('user_id', 'key'),
    )
    op.create_index('ix_held_properties_lead_id', 'held_properties', ['lead_id'])
    op.create_table(
        'webhook_refusals',
        sa.Column('minute', UTCDateTime(timezone=True), nullable=False),
        sa.Column('ip_address', sa.String(length=64), nullable=False),
        sa.Column('endpoint', sa.String(length=255), nullable=False),
        sa.Column('status', sa.Integer(), nullable=False, autoincrement=False),
        sa.Column('count', sa.Integer(), nullable=False, server_default='0'),
        sa.PrimaryKeyConstraint('minute', 'ip_address', 'endpoint', 'status'),
    )
    op.create_table(
        'webhook_idempotency_keys',
        sa.Column('id', BIGINT, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Uuid(), sa.ForeignKey('users.id', ondelete='CASCADE'), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('body_sha256', sa.String(length=64), nullable=False),
        sa.Column('created_at', UTCDateTime(timezone=True), nullable=False),
        sa.Column('status', sa.Integer(), nullable=True),
        sa.Column('bulk_scrape_id', sa.Uuid(), sa.ForeignKey('bulk_scrapes.id', ondelete='CASCADE'), nullable=True),
        sa.Column('response_body', JSONType, nullable=True),
        sa.UniqueConstraint('user_id', 'key', name='uq_webhook_idempotency_user_key'),
    )
    op.create_index('ix_webhook_idempotency_created', 'webhook_idempotency_keys', ['created_at'])

    # Back-fill: every property an existing scrape delivered to its user.
    conn = op.get_bind()
    user_leads = sa.table('user_leads', sa.column('user_id', sa.Uuid()), sa.column('lead_id', sa.Uuid()),
                          sa.column('unlocked_at', UTCDateTime()))
    leads = sa.table('leads', sa.column('id', sa.Uuid()), sa.column('address', sa.String()),
                     sa.column('zip_code', sa.String()), sa.column('source_listing_id', sa.String()),
                     sa.column('scrape_id', sa.Uuid()))
    rows = conn.execute(
        sa.select(user_leads.c.user_id, leads.c.id, leads.c.address, leads.c.zip_code, leads.c.source_listing_id,
                  user_leads.c.unlocked_at)
        .select_from(user_leads.join(leads, leads.c.id == user_leads.c.lead_id))
        .where(leads.c.scrape_id.is_not(None))
        .order_by(user_leads.c.unlocked_at, leads.c.id)
    ).all()
    seen, batch = set(), []
    for user_id, lead_id, address, zip_code, listing_id, unlocked_at in rows:
        for key in holding_keys(address, zip_code, listing_id):
            if (user_id, key) not in seen:
                seen.add((user_id, key))
                batch.append({"user_id": user_id, "key": key, "lead_id": lead_id, "created_at": unlocked_at})
    if batch:
        op.bulk_insert(held, batch)


def downgrade() -> None:
    op.drop_index('ix_webhook_idempotency_created', table_name='webhook_idempotency_keys')
    op.drop_table('webhook_idempotency_keys')
    op.drop_table('webhook_refusals')
    op.drop_index('ix_held_properties_lead_id', table_name='held_properties')
    op.drop_table('held_properties')
