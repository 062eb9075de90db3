"""marketplace query: facet counts and sort indexes

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

# One partial index per marketplace sort on PostgreSQL (names start with
# "ixs_": the model does not declare them; see marketplace.platform.migrations).
SORT_INDEXES = {
    "ixs_leads_active_roi_desc": "roi DESC NULLS LAST, id",
    "ixs_leads_active_newest": "created_at DESC, id DESC",
    "ixs_leads_active_price_asc": "asking_price ASC NULLS LAST, id",
    "ixs_leads_active_zestimate_desc": "zestimate DESC NULLS LAST, id",
    "ixs_leads_active_sqft_asc": "square_footage ASC NULLS LAST, id",
}


def upgrade() -> None:
    op.create_table('lead_facets',
    sa.Column('lead_type', sa.String(length=32), nullable=False),
    sa.Column('roi_band', sa.String(length=8), nullable=False),
    sa.Column('size_band', sa.String(length=8), nullable=False),
    sa.Column('is_new', sa.Boolean(), nullable=False),
    sa.Column('is_high_roi', sa.Boolean(), nullable=False),
    sa.Column('lead_count', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('lead_type', 'roi_band', 'size_band', 'is_new', 'is_high_roi')
    )
    if op.get_bind().dialect.name == "postgresql":
        for name, columns in SORT_INDEXES.items():
            op.execute(f"CREATE INDEX {name} ON leads ({columns}) WHERE is_active")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in SORT_INDEXES:
            op.execute(f"DROP INDEX IF EXISTS {name}")
    op.drop_table('lead_facets')
