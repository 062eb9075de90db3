"""Property classes in words (records.rules_property_classes), from the codes the samples publish."""

import pytest

from marketplace.features.records.rules_property_classes import describe


@pytest.mark.parametrize("dataset, published, shown", [
    ("phl-opa-properties", "SINGLE FAMILY", "Single family"),
    ("phl-opa-properties", "6", "Vacant land"),
    ("phl-opa-properties", "14", "Apartments, more than 4 units"),
    ("phl-tax-delinquencies", "ROW B/GAR 2STY MASON", "Row house with basement garage 2-story masonry"),
    ("phl-tax-delinquencies", "VAC LAND RES < ACRE", "Vacant land residential under an acre"),
    ("phl-tax-delinquencies", "STR/OFF+APTS 3STY MA", "Store or office with apartments 3-story masonry"),
    ("phl-tax-delinquencies", "SEMI/DET 2.5   STY M", "Semi-detached 2.5-story masonry"),
    ("nyc-dof-rolling-sales", "01 ONE FAMILY DWELLINGS", "One family dwellings"),
    ("nyc-dof-rolling-sales", "13 CONDOS - ELEVATOR APARTMENTS", "Condos - elevator apartments"),
    ("nyc-dof-rolling-sales", "01", "One family dwellings"),
    ("bal-tax-sale-bidbaltimore", "REAL PROPERTY STATE EXEMPT: Non-exempt", "Taxable real property (not exempt)"),
    ("bal-tax-sale-bidbaltimore", "EXEMPT CITY OWNED: Housing & Community Development",
     "Tax-exempt, city owned (Housing & Community Development)"),
    ("cook-ccao-parcel-sales", "2-03", "One-story residence, 1,000 to 1,800 sq ft"),
    ("cook-ccao-parcel-sales", "211", "Apartment building, 2 to 6 units"),
    # Codes no table knows.
    ("cook-ccao-parcel-sales", "2-97", "Class 2-97 (unknown code)"),
    ("nyc-dof-rolling-sales", "99", "Class 99 (unknown code)"),
    ("batchdata-preforeclosure", "R31", "Class R31 (unknown code)"),
    ("batchdata-preforeclosure", "Single Family Residential", "Single Family Residential"),
    ("phl-opa-properties", None, None),
    ("phl-opa-properties", "  ", None),
])
def test_describe(dataset, published, shown):
    assert describe(dataset, published) == shown
