"""Cook County's tax-sale rows name a PIN and coordinates only; the Assessor's roll names the PIN's street
address, city and ZIP. Whatever order the datasets arrive in, each tax-sale PIN the roll names is one lead
with the roll's address (properties are found by parcel first; a parcel-only property holds its signals and
makes no lead until the roll names it), and importing any file again changes nothing. The expected leads
are computed here from the fixture files, not from the ingest's output."""

from __future__ import annotations

import json
import tomllib
from datetime import date, datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.features.marketplace import rules
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, Property, PropertySignal
from marketplace.features.marketplace.service import query_page
from marketplace.features.records.service_imports import import_file

MORE = Path(__file__).resolve().parents[2] / "fixtures" / "public_records_more"
# The day of the 2014 annual sale's list: the rows are current then (in 2026 they are history, no lead).
TODAY = date(2014, 6, 1)
AT = datetime(2014, 6, 1, 8, 0, tzinfo=timezone.utc)

ROLL = ("cook-ccao-parcel-addresses", "cook-ccao-parcel-addresses/3723-97qp_batch_000_years2025-2026.json")
TAX_SALE = ("cook-treasurer-annual-tax-sale", "cook-treasurer-annual-tax-sale/55ju-2fs9_batch_000.json")
SCAVENGER = ("cook-treasurer-scavenger-sale", "cook-treasurer-scavenger-sale/ydgz-vkrp_batch_000.json")
SCAVENGER_ALL = ("cook-treasurer-scavenger-sale",
                 "cook-treasurer-scavenger-sale/tax_agency_scavenger_consolidated.json")
SALES = ("cook-ccao-parcel-sales", "cook-ccao-parcel-sales/wvhk-k5uv_batch_000.json")
LISTS = (TAX_SALE, SCAVENGER, SCAVENGER_ALL)

ORDERS = {
    "tax sale first": [TAX_SALE, SCAVENGER, SCAVENGER_ALL, SALES, ROLL],
    "roll first": [ROLL, TAX_SALE, SCAVENGER, SCAVENGER_ALL, SALES],
    "sales in between": [SCAVENGER_ALL, SALES, TAX_SALE, ROLL, SCAVENGER],
    "roll between the lists": [SCAVENGER, SALES, ROLL, TAX_SALE, SCAVENGER_ALL],
}


def _records(path: str) -> list[dict]:
    data = json.loads((MORE / path).read_text(encoding="utf-8"))
    return data if isinstance(data, list) else data["records"]


def _max_age(dataset_id: str) -> int | None:
    with open(PROJECT_ROOT / "marketplace" / "features" / "records" / "datasets" / f"{dataset_id}.toml", "rb") as fh:
        return tomllib.load(fh).get("max_age_days")


def expected_leads() -> set[tuple[str, str, str, str]]:
    """(PIN, street address, city, ZIP) of every PIN on a tax-sale list whose row is current on TODAY (the
    list's year, its dataset's maximum age) and that the roll names (its newest tax year's address)."""
    listed: set[str] = set()
    for dataset_id, path in LISTS:
        age = _max_age(dataset_id)
        for row in _records(path):
            signal = SimpleNamespace(kind="sale_list", sale_date=None, notice_date=None, status="open",
                                     as_of=date(int(row["tax_sale_year"]), 1, 1))
            if signal_currency.is_current(signal, age, TODAY):
                listed.add(row["pin"].replace("-", ""))
    roll: dict[str, tuple[float, tuple[str, str, str]]] = {}
    for row in _records(ROLL[1]):
        year = float(row["year"])
        if row["pin"] not in roll or year > roll[row["pin"]][0]:
            roll[row["pin"]] = (year, (" ".join(row["prop_address_full"].split()).upper(),
                                       row["prop_address_city_name"].upper(), row["prop_address_zipcode_1"][:5]))
    return {(pin, *roll[pin][1]) for pin in listed if pin in roll}


def _leads() -> set[tuple[str, str, str, str]]:
    leads, props = Lead.__table__, Property.__table__
    with get_engine().connect() as conn:
        rows = conn.execute(sa.select(props.c.parcel_id, leads.c.address, leads.c.city, leads.c.zip_code)
                            .join(props, props.c.id == leads.c.property_id).where(leads.c.is_active)).all()
    return {tuple(r) for r in rows}


def _counts() -> tuple[int, int, int]:
    with get_engine().connect() as conn:
        return tuple(conn.execute(sa.select(sa.func.count()).select_from(m.__table__)).scalar_one()
                     for m in (Property, PropertySignal, Lead))


def _import(dataset_id: str, path: str):
    partial = path == SCAVENGER[1]  # the one batch is a cut of the dataset the consolidated file holds
    summary = import_file(dataset_id, MORE / path, partial=partial, today=TODAY, retrieved_at=AT)
    assert summary.status == "ok", (dataset_id, summary.error)
    return summary


def test_the_expected_leads_are_most_of_the_tax_sale_pins():
    """The fixture files themselves: 29 annual tax-sale PINs, all on the roll; on TODAY the 2014 list (27
    PINs) and the 2013 scavenger list are current, the 2011-only PIN is not."""
    expected = expected_leads()
    annual = {row["pin"].replace("-", "") for row in _records(TAX_SALE[1])}
    assert len(annual) == 29 and len(expected) == 28
    assert {pin for pin, *_ in expected} <= annual
    assert ("24252010800000", "11904 ANN ST", "BLUE ISLAND", "60406") in expected
    shared = [address for _, address, _, _ in expected]
    assert shared.count("1801 120TH ST") > 1  # several PINs at one street address: one lead each


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_every_tax_sale_pin_the_roll_names_is_one_lead_whatever_the_order(db_url, order):
    expected = expected_leads()
    for dataset_id, path in ORDERS[order]:
        summary = _import(dataset_id, path)
        if (dataset_id, path) == ROLL and ORDERS[order][-1] == ROLL:
            # The lists came first: the roll's own batch makes the leads of the parcel-only properties.
            assert summary.leads_added == len(expected)
        if (dataset_id, path) in LISTS and ORDERS[order].index(ROLL) > ORDERS[order].index((dataset_id, path)):
            assert summary.leads_added == 0  # no street address yet: no lead
    assert _leads() == expected
    # The marketplace lists exactly these: the parcel-only properties (PINs the roll does not name) never.
    page = query_page(rules.Filters(page_size=50), None, database_url=db_url)
    assert page.total == len(expected)
    assert sorted(card.zip_code for card in page.cards) == sorted(z for *_, z in expected)
    before = _counts()
    for dataset_id, path in ORDERS[order]:
        again = _import(dataset_id, path)
        assert (again.added, again.updated, again.closed, again.archived, again.leads_added,
                again.leads_updated) == (0, 0, 0, 0, 0, 0), (dataset_id, path)
    assert _counts() == before
    assert _leads() == expected
