"""Scrapes draw from the ingested public-record leads when the open-data source is configured (issue 23,
item 7): matching criteria, never a lead the user holds, the shortfall message when fewer match, a purchase
of the lead itself (its unlock, no copy), no owner data in the output; generated leads otherwise."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.config import PROJECT_ROOT
from marketplace.features.scrape import rules
from marketplace.features.explorer.rules_scrape import DevScrapeRequest
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, UserLead
from marketplace.features.explorer import service_scrape as inventory_scrape
from marketplace.features.records import service_imports as record_imports
from marketplace.features.scrape import service as scrapes
from marketplace.features.records.service_inventory import PublicRecordInventory, scrape_source
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.features.records.opendata_helpers import redated_copy

CHICAGO_FILE = (PROJECT_ROOT / "tests" / "fixtures" / "public_records" / "chi-vacant-buildings-violations"
                / "vacant_and_abandoned_buildings_violations_sample.csv")
ANY = dict(price=(0, 1_000_000), size=(0, 10_000), roi=(0, 100), min_confidence=0)


def _count(model, *where) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__).where(*where)).scalar_one()


def import_current(tmp_path, today=date(2026, 11, 25)):
    """The Chicago sample as the portal would serve it in the week before ``today`` (the 2023 rows
    themselves are older than the dataset's 60 days: history, no leads)."""
    current = redated_copy(CHICAGO_FILE, "Issued Date", today - timedelta(days=7), tmp_path / CHICAGO_FILE.name)
    return record_imports.import_file("chi-vacant-buildings-violations", current, today=today)


@pytest.fixture
def records(db_url, monkeypatch, tmp_path):
    import_current(tmp_path)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    leads = Lead.__table__
    return _count(Lead, leads.c.property_id.is_not(None), leads.c.is_active == sa.true())


def test_generated_leads_when_no_public_record_source_is_configured(db_url, monkeypatch):
    monkeypatch.delenv("OPEN_DATA_DATASETS", raising=False)
    monkeypatch.delenv("BATCHDATA_LISTS", raising=False)
    assert isinstance(scrape_source(), BuiltinSource)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    assert isinstance(scrape_source(), PublicRecordInventory)


def test_a_scrape_buys_public_record_leads_themselves_without_owner_data(records, new_user):
    user = new_user(credits=100_000)
    before = _count(Lead)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, states=("IL",), **ANY))
    assert (result.leads_generated, result.credits_used, result.balance) == (5, 500, 99_500)
    assert _count(Lead) == before  # no copy: the user bought the marketplace leads
    ids = {row["id"] for row in result.leads}
    with get_engine().connect() as conn:
        bought = conn.execute(sa.select(UserLead.__table__.c.lead_id, UserLead.__table__.c.purchase_type)
                              .where(UserLead.__table__.c.user_id == user.id)).all()
        owners = conn.execute(sa.select(Lead.__table__.c.property_id).where(
            Lead.__table__.c.id.in_([r.lead_id for r in bought]))).scalars().all()
    assert {str(r.lead_id) for r in bought} == ids and {r.purchase_type for r in bought} == {"bulk_scrape"}
    assert all(owners)  # every delivered lead is a public-record lead (its property page shows the records)
    assert all(row["city"] == "Chicago" and row["state"] == "IL" for row in result.leads)  # in reading case
    assert not any(key.startswith(("owner", "mailing")) for row in result.leads for key in row)

    # The next scrape never repeats them; asking for more than remain gets the shortfall message.
    again = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=records, states=("IL",), **ANY))
    assert not ids & {row["id"] for row in again.leads}
    assert again.leads_generated == records - 5
    assert again.shortfall == (f"Only {records - 5:,} of {records:,} matched your criteria; "
                               f"you were charged for the {records - 5:,} delivered.")


def test_criteria_filter_the_inventory(records, new_user):
    user = new_user(credits=100_000)
    with pytest.raises(scrapes.ScrapeError, match="No leads matched your criteria; nothing was charged"):
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, states=("TX",), **ANY))
    with pytest.raises(scrapes.ScrapeError, match="No leads matched"):
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, cities=("Austin, TX",), **ANY))
    got = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3, cities=("Chicago, IL",), **ANY))
    assert got.leads_generated == 3
    # An unknown value never counts as inside a narrowed range: the price range (on the estimated market
    # value; a record has no asking price) leaves out every lead without an estimate, which no Chicago
    # vacancy has (no assessment was imported); the full default range keeps them.
    assert _count(Lead, Lead.__table__.c.zestimate.is_not(None)) == 0
    search = PublicRecordInventory().search
    assert search(rules.ScrapeRequest(lead_count=1000, price=(1, 1_000_000), **{
        k: v for k, v in ANY.items() if k != "price"}).criteria()) == []
    assert len(search(rules.ScrapeRequest(lead_count=1000, **ANY).criteria())) == records
    assert _count(UserLead, UserLead.__table__.c.user_id == user.id) == 3


def test_the_explorers_manual_scrape_adds_no_generated_leads_to_a_real_inventory(records, new_user):
    admin = new_user()
    request = DevScrapeRequest(lead_count=10, price=(0, 1_000_000), sqft=(0, 10_000), beds=(0, 100),
                               confidence=(0, 100), roi_threshold=0, states=("IL",), lead_types=())
    # Every public-record lead is listed already: nothing new, and no generated lead is mixed in.
    with pytest.raises(scrapes.ScrapeError, match="No leads matched your criteria; nothing was added"):
        inventory_scrape.run_inventory_scrape(admin.id, request)
    assert _count(Lead) == records
