"""leads.comps_arv, comps_count, roi_basis: the headline ROI rests on the best-supported ARV (marketplace.rules_headline);
the ROI band "Below 0%" (lt0) in lead_facets.

Existing rows get roi_basis '' (not yet computed; the card reads it as "ROI vs estimated ARV", which their
stored ROI is). The next daily refresh computes the comps ARV of every active generated lead still at '';
public-record leads get theirs at the next ingestion (``record_leads`` rewrites a lead whose values changed).
The facet counts are recounted here, so a negative ROI is counted under "Below 0%", never "Unknown".

Revision ID: 0019
Revises: 0021
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = '0019'
down_revision = '0021'
branch_labels = None
depends_on = None


def _recount_facets(negative_band: bool) -> None:
    leads = sa.table('leads', sa.column('lead_type'), sa.column('roi'), sa.column('square_footage'),
                     sa.column('is_new'), sa.column('is_high_roi'), sa.column('is_active'))
    facets = sa.table('lead_facets', sa.column('lead_type'), sa.column('roi_band'), sa.column('size_band'),
                      sa.column('is_new'), sa.column('is_high_roi'), sa.column('lead_count'))
    roi, sqft = leads.c.roi, leads.c.square_footage
    bands = [(roi > 30, 'gt30'), (sa.and_(roi >= 20, roi <= 30), '20-30'), (sa.and_(roi >= 10, roi < 20), '10-20'),
             (sa.and_(roi > 0, roi < 10), '0-10')]
    if negative_band:
        bands.append((roi < 0, 'lt0'))
    roi_band = sa.case(*bands, else_='unknown')
    size_band = sa.case((sqft <= 1000, 'small'), (sa.and_(sqft > 1000, sqft <= 2000), 'medium'), (sqft > 2000, 'large'),
                        else_='unknown')
    grouped = (sa.select(leads.c.lead_type, roi_band, size_band, leads.c.is_new, leads.c.is_high_roi, sa.func.count())
               .where(leads.c.is_active == sa.true())
               .group_by(leads.c.lead_type, roi_band, size_band, leads.c.is_new, leads.c.is_high_roi))
    op.execute(sa.delete(facets))
    op.execute(sa.insert(facets).from_select(
        ['lead_type', 'roi_band', 'size_band', 'is_new', 'is_high_roi', 'lead_count'], grouped))


def upgrade() -> None:
    op.add_column('leads', sa.Column('comps_arv', sa.Integer(), nullable=True))
    op.add_column('leads', sa.Column('comps_count', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('leads', sa.Column('roi_basis', sa.String(16), nullable=False, server_default=''))
    _recount_facets(negative_band=True)


def downgrade() -> None:
    with op.batch_alter_table('leads') as batch:
        batch.drop_column('roi_basis')
        batch.drop_column('comps_count')
        batch.drop_column('comps_arv')
    _recount_facets(negative_band=False)
