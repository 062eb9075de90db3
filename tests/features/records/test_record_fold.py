"""One building in three datasets, whatever their order: a vacancy notice that names only the street (no
parcel id), a sale list that names only the parcel (a parcel-only property), and the roll that names both.
Each order ends with one property (the parcel's, at the street), both signals stacked on it and one lead;
importing everything again changes nothing."""

from __future__ import annotations

from datetime import date
from itertools import permutations

import pytest
import sqlalchemy as sa

from marketplace.features.records.rules import MappedRecord
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property, PropertySignal
from marketplace.features.records import service as public_records
from tests.features.records.test_public_records import DS, RETRIEVED, TODAY, rows

VACANT = DS("chi-vacant-buildings-violations", "Vacant and Abandoned Buildings - Violations",
            publisher="City of Chicago", state="IL", max_age_days=60)
SALE = DS("cook-treasurer-annual-tax-sale", "Treasurer - Annual Tax Sale", publisher="Cook County Treasurer",
          state="IL")
ROLL = DS("cook-ccao-parcel-addresses", "Assessor - Parcel Addresses", publisher="Cook County Assessor",
          state="IL")
TITLES = public_records.dataset_titles([VACANT, SALE, ROLL])
PIN = "20211000120000"

RECORDS = {
    VACANT.id: MappedRecord(dataset_id=VACANT.id, record_key="26CP000101", kind="vacant", as_of=date(2026, 11, 1),
                            address="6012 S EBERHART AVE", state="IL", zip_code="60637",
                            notice_date=date(2026, 11, 1), violations=("13-12-125 Duty to secure",)),
    SALE.id: MappedRecord(dataset_id=SALE.id, record_key=f"2026-{PIN}", kind="sale_list", as_of=date(2026, 11, 1),
                          state="IL", parcel_id=PIN, latitude=41.785, longitude=-87.613, sale_type="tax",
                          amount_owed=4_210),
    ROLL.id: MappedRecord(dataset_id=ROLL.id, record_key=f"{PIN}2026", kind="assessment", as_of=date(2026, 1, 1),
                          address="6012 S EBERHART AVE", city="CHICAGO", state="IL", zip_code="60637",
                          parcel_id=PIN, owner_name="ESTATE OF J DOE", beds=3, year_built=1912),
}
DATASETS = {VACANT.id: VACANT, SALE.id: SALE, ROLL.id: ROLL}


def _ingest(dataset_id: str):
    return public_records.ingest(DATASETS[dataset_id], [RECORDS[dataset_id]], mode="file", retrieved_at=RETRIEVED,
                                 full=False, today=TODAY, titles=TITLES)


def _counts(url) -> tuple[int, int, int]:
    with get_engine(url).connect() as conn:
        return tuple(conn.execute(sa.select(sa.func.count()).select_from(m.__table__)).scalar_one()
                     for m in (Property, PropertySignal, Lead))


@pytest.mark.parametrize("order", list(permutations(DATASETS)), ids=lambda o: " > ".join(d.split("-")[1] for d in o))
def test_a_street_only_notice_a_parcel_only_sale_and_the_roll_are_one_property_in_any_order(db_url, order):
    for dataset_id in order:
        assert _ingest(dataset_id).status == "ok"
    (prop,) = rows(db_url, Property)
    assert (prop.parcel_id, prop.address_key, prop.zip_code, prop.owner_name, prop.beds) == (
        PIN, "6012 S EBERHART AVE", "60637", "ESTATE OF J DOE", 3)
    signals = rows(db_url, PropertySignal)
    assert sorted((s.kind, s.property_id) for s in signals) == [("sale_list", prop.id), ("vacant", prop.id)]
    (lead,) = rows(db_url, Lead)
    assert (lead.property_id, lead.is_active, lead.signal_count, lead.address) == (
        prop.id, True, 2, "6012 S EBERHART AVE")
    assert {p["dataset_id"] for p in lead.raw_data["provenance"]} == {VACANT.id, SALE.id}
    before = _counts(db_url)
    for dataset_id in order:
        again = _ingest(dataset_id)
        assert (again.added, again.updated, again.leads_added, again.leads_updated) == (0, 0, 0, 0), dataset_id
    assert _counts(db_url) == before == (1, 2, 1)


def test_a_parcel_only_property_with_a_lead_is_never_folded(db_url):
    """A lead (an unlock, a pipeline row may hang on it) is never re-pointed: such a property keeps its
    own row (older code could have given a parcel-only property a lead)."""
    _ingest(VACANT.id)
    _ingest(SALE.id)
    with get_engine(db_url).begin() as conn:
        (parcel_only,) = conn.execute(sa.select(Property.__table__.c.id).where(
            Property.__table__.c.parcel_id == PIN)).scalars()
        (lead_id,) = conn.execute(sa.select(Lead.__table__.c.id)).scalars()
        conn.execute(sa.update(Lead.__table__).where(Lead.__table__.c.id == lead_id).values(property_id=parcel_only))
    _ingest(ROLL.id)
    assert len(rows(db_url, Property)) == 2
    (lead,) = rows(db_url, Lead)
    assert (lead.id, lead.property_id) == (lead_id, parcel_only)
