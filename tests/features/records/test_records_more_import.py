"""Every sample of shared/public-records-more ingests through the operator's import path (``import-records``
= ``record_imports.import_file``), per market in the order an operator would load it, on SQLite and
PostgreSQL; importing the same file again changes nothing. The counts were checked against the files
(and the rejections against the ingest's join rules as they stand):

- Cook: the roll (3723-97qp) holds 80 rows = 40 PINs x tax years 2025 and 2026, each with a street address
  and ZIP; 11 PINs share their street address with another PIN (a house and its side lot, condominium
  units): each PIN is a property of its own (properties are identified by parcel first); the 2026 row of
  each PIN updates its 2025 one (40). Every other Cook dataset names a PIN only: a row whose PIN the roll
  did not name is kept on a parcel-only property (no address, no lead) until the roll names it (tax sale,
  scavenger sale, the 10 characteristics PINs, cmfproperty). Roll values are kept by tax year: an older row
  only fills what is missing (the 8 cmfproperty rows of 5 roll PINs fill their assessed value).
- Philadelphia: the OPA overlap (167 rows) is a second cut of phl-opa-properties (imported --partial);
  vacancy rows carry the OPA number and no ZIP: placed on OPA's parcel, or (buildings) a WGS84 point gives
  the ZIP, else kept parcel-only (1 building polygon and 40 land parcels outside both cuts).
- NYC: the tax-lien condo lots that share their building's address are lots of their own; one HPD vacate
  has no BBL, ZIP or point; the PLUTO lot without an address and the 5 DOF valuation lots (no PLUTO row)
  are kept parcel-only; ACRIS Legals carry no sale date or price (Master holds them, by document id).
- Cuyahoga: 52 documents have no parcel and no address; the one address without a ZIP has a parcel.
"""

from __future__ import annotations

import os
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import Property, PropertySignal
from marketplace.features.records.service_imports import import_file

MORE = Path(__file__).resolve().parents[2] / "fixtures" / "public_records_more"
TODAY = date(2026, 11, 27)
AT = datetime(2026, 11, 27, 8, 0, tzinfo=timezone.utc)

# (dataset id, file under public_records_more, partial, rows read, added, updated, rejected)
COOK = [
    ("cook-ccao-parcel-addresses", "cook-ccao-parcel-addresses/3723-97qp_batch_000_years2025-2026.json", False, 80, 40, 40, 0),
    ("cook-treasurer-annual-tax-sale", "cook-treasurer-annual-tax-sale/55ju-2fs9_batch_000.json", False, 99, 99, 0, 0),
    ("cook-treasurer-scavenger-sale", "cook-treasurer-scavenger-sale/ydgz-vkrp_batch_000.json", True, 10, 10, 0, 0),
    ("cook-treasurer-scavenger-sale", "cook-treasurer-scavenger-sale/tax_agency_scavenger_consolidated.json", False, 35, 25, 0, 0),
    ("cook-ccao-parcel-sales", "cook-ccao-parcel-sales/wvhk-k5uv_batch_000.json", False, 95, 95, 0, 0),
    ("cook-ccao-res-characteristics-sample", "cook-ccao-res-characteristics-sample/chars_sample_athena.csv", False, 70, 10, 15, 0),
    ("cook-ccao-residential-sales-assessments", "cook-ccao-residential-sales-assessments/cmfproperty_example_data_sample.csv", False, 262, 250, 8, 0),
]
PHILADELPHIA = [
    ("phl-opa-properties", "phl-opa-properties-vacant-overlap/opa_properties_public_vacant_overlap_sample.csv", True, 167, 167, 0, 0),
    ("phl-property-tax-balances-2014-with-li", "phl-property-tax-balances-2014-with-li/2014-Philadelphia-Property-Tax-Liabilities-With-Permits_sample.csv", False, 62, 62, 0, 0),
    ("phl-vacant-indicators-buildings", "phl-vacant-indicators-2024-backup/vacant_buildings_backup_2024_06_24_sample.csv", False, 97, 97, 0, 0),
    ("phl-vacant-indicators-land", "phl-vacant-indicators-2024-backup/vacant_land_backup_2024_06_24_sample.csv", False, 173, 173, 0, 0),
]
BALTIMORE = [
    ("bal-vacant-building-notices", "bal-vacant-building-notices/Vacant_Buildings_2016-10_sample.csv", False, 250, 250, 0, 0),
]
NEW_YORK = [
    ("nyc-dof-tax-lien-sale-list", "nyc-dof-tax-lien-sale-list/dof_tax_lien_sale_list_2019-04_first100.csv", False, 100, 100, 0, 0),
    ("nyc-hpd-vacate-orders", "nyc-hpd-vacate-orders/hpd_vacateorders_sample.csv", False, 100, 99, 0, 1),
    ("nyc-hpd-violations", "nyc-hpd-violations/hpd_violations_sample.csv", False, 100, 100, 0, 0),
    ("nyc-dob-vacate-orders", "nyc-dob-vacate-orders/dob_vacate_orders_2012_sample.csv", False, 100, 100, 0, 0),
    ("nyc-dcp-pluto", "nyc-dcp-pluto/pluto_16v2_BK_sample.csv", True, 100, 100, 0, 0),
    ("nyc-dcp-pluto", "nyc-dcp-pluto/pluto_25v2_1_first5.csv", True, 5, 5, 0, 0),
    ("nyc-dof-property-valuation-assessments", "nyc-dof-property-valuation-assessments/dof_property_valuation_and_assessments_sample.csv", False, 5, 5, 0, 0),
    ("nyc-acris-real-property", "nyc-acris-real-property/acris_real_property_legals_sample.csv", False, 100, 0, 0, 100),
]
CUYAHOGA = [
    ("cuy-recorder-probate-trigger-docs", "cuy-recorder-probate-trigger-docs/cuyahoga_all_records_20260317_150646.json", False, 150, 98, 0, 52),
]
MARKETS = {"cook": COOK, "philadelphia": PHILADELPHIA, "baltimore": BALTIMORE, "new_york": NEW_YORK,
           "cuyahoga": CUYAHOGA}


def test_every_folder_of_the_samples_is_imported_here():
    named = {path.split("/")[0] for market in MARKETS.values() for _, path, *_ in market}
    assert named == {p.name for p in MORE.iterdir() if p.is_dir()} - {"phl-real-estate-tax-balances-zip"}


def _count(model) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__)).scalar_one()


# Open lists whose sample's name gives no date: imported as exported on TODAY (import-records --as-of).
AS_OF = {"nyc-hpd-vacate-orders": TODAY, "nyc-hpd-violations": TODAY, "nyc-dob-vacate-orders": TODAY,
         "phl-property-tax-balances-2014-with-li": TODAY}


def _import(dataset_id: str, path: str, partial: bool):
    return import_file(dataset_id, MORE / path, partial=partial, today=TODAY, retrieved_at=AT,
                       as_of=AS_OF.get(dataset_id))


@pytest.mark.parametrize("market", sorted(MARKETS))
def test_each_sample_imports_and_a_second_import_changes_nothing(db_url, market):
    probe = os.environ.get("H9_PROBE")
    for dataset_id, path, partial, read, added, updated, rejected in MARKETS[market]:
        first = _import(dataset_id, path, partial)
        got = (first.rows_read, first.added, first.updated, first.rejected)
        if probe:
            print(market, dataset_id, path.split("/")[-1], got, first.updated, sorted(set(r.split(": ", 1)[-1].split(",")[0] for r in first.rejections)))
            continue
        assert first.status == "ok", (dataset_id, first.error)
        assert got == (read, added, updated, rejected), (dataset_id, path, first.rejections[:3])
        assert first.closed == 0
    if probe:
        return
    properties, signals = _count(Property), _count(PropertySignal)
    for dataset_id, path, partial, read, _added, _updated, rejected in MARKETS[market]:
        again = _import(dataset_id, path, partial)
        assert (again.rows_read, again.added, again.updated, again.closed, again.archived, again.rejected) == (
            read, 0, 0, 0, 0, rejected), (dataset_id, path)
        assert again.leads_added == 0
    assert (_count(Property), _count(PropertySignal)) == (properties, signals)
    if market == "cook":
        _cook_joins_by_pin()


def _cook_joins_by_pin():
    """The dashed Treasurer PIN and the Assessor's digits meet on one property with the roll's address."""
    props, signals = Property.__table__, PropertySignal.__table__
    with get_engine().connect() as conn:
        home = conn.execute(sa.select(props).where(props.c.parcel_id == "24252010800000")).one()
        kinds = conn.execute(sa.select(signals.c.dataset_id, signals.c.record_key)
                             .where(signals.c.property_id == home.id).order_by(signals.c.record_key)).all()
    assert (home.address, home.city, home.state, home.zip_code) == ("11904 ANN ST", "BLUE ISLAND", "IL", "60406")
    assert ("cook-treasurer-annual-tax-sale", "24-25-201-080-0000 2011") in kinds
    assert ("cook-treasurer-scavenger-sale", "24-25-201-080-0000 2015") in kinds


def test_import_records_command_takes_a_bare_soda_array_and_a_saved_answer(db_url, tmp_path):
    """The operator's command itself: the raw SODA array as /resource/{id}.json returns it, then the saved
    answer in its wrapper (the same rows: nothing changes)."""
    import json
    import subprocess
    import sys

    from marketplace.platform.config import PROJECT_ROOT

    saved = MORE / "cook-ccao-parcel-addresses" / "3723-97qp_batch_000_years2025-2026.json"
    bare = tmp_path / "3723-97qp.json"
    bare.write_text(json.dumps(json.loads(saved.read_text(encoding="utf-8"))["records"]), encoding="utf-8")
    outputs = []
    for path in (bare, saved):
        out = subprocess.run([sys.executable, "-m", "marketplace", "import-records", "cook-ccao-parcel-addresses",
                              "--file", str(path)], cwd=PROJECT_ROOT, env=dict(os.environ), capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        outputs.append(out.stdout.splitlines()[0])
    assert outputs[0].startswith("cook-ccao-parcel-addresses: read 80, added 40, updated 40, unchanged 0, closed 0, "
                                 "archived 0, rejected 0")
    assert outputs[1].startswith("cook-ccao-parcel-addresses: read 80, added 0, updated 0, unchanged 80, closed 0, "
                                 "archived 0, rejected 0")
