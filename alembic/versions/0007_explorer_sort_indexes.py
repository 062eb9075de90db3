"""developer explorer: partial sort indexes over marketplace leads (PostgreSQL)

The explorer lists the marketplace's leads (``scrape_id IS NULL``) newest first
or by one of the SPEC's sorts, with ``created_at DESC, id DESC`` as the tie
breaker, and searches cities case-insensitively. On a million leads those
reads sort or scan the whole table without these indexes. Names start with
"ixs_": the models do not declare them (see marketplace.platform.migrations).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

TIE = "created_at DESC, id DESC"
EXPLORER_INDEXES = {
    "ixs_leads_explorer_newest": TIE,
    "ixs_leads_explorer_roi_desc": f"roi DESC NULLS LAST, {TIE}",
    "ixs_leads_explorer_price_asc": f"asking_price ASC NULLS LAST, {TIE}",
    "ixs_leads_explorer_zestimate_desc": f"zestimate DESC NULLS LAST, {TIE}",
    "ixs_leads_explorer_sqft_asc": f"square_footage ASC NULLS LAST, {TIE}",
    "ixs_leads_explorer_city": "lower(city)",
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name, columns in EXPLORER_INDEXES.items():
            op.execute(f"CREATE INDEX {name} ON leads ({columns}) WHERE scrape_id IS NULL")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in EXPLORER_INDEXES:
            op.execute(f"DROP INDEX IF EXISTS {name}")
