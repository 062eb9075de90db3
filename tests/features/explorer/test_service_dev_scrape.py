"""The developer explorer's manual scrape (SPEC 7 dev-manual-scrape): leads go
into the marketplace inventory (active, New, priced by confidence), the facets
count them, nothing is charged, nothing is stored twice, and refused input
changes nothing."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import func, select

from marketplace.features.explorer import rules_scrape as dev_scrape
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules import Filters
from marketplace.platform.pricing import credit_cost_for_confidence
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, CreditLedger, Lead, LeadFacet
from marketplace.features.explorer import service_scrape as inventory_scrape
from marketplace.platform import ledger
from marketplace.features.scrape import service as scrapes
from marketplace.features.marketplace.service import query_page
from marketplace.features.scrape.service_seeding import insert_leads
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_builtin import BuiltinSource


def _defaults() -> dev_scrape.DevScrapeRequest:
    """The request the explorer's form makes as it first opens."""
    return dev_scrape.parse(dev_scrape.default_form(), dev_scrape.DEFAULTS["selectedStates"],
                            dev_scrape.DEFAULTS["selectedLeadTypes"])


class ListSource:
    """Hands out a fixed list of leads (or fails)."""

    name = "list"

    def __init__(self, leads: list[dict], error: Exception | None = None):
        self.leads = list(leads)
        self.error = error

    def search(self, criteria: SearchCriteria) -> list[dict]:
        if self.error:
            raise self.error
        batch, self.leads = self.leads[:criteria.count], self.leads[criteria.count:]
        return batch


def _snapshot():
    with session_scope() as s:
        return (
            s.exec(select(func.count()).select_from(Lead)).one(),
            s.exec(select(func.count()).select_from(BulkScrape)).one(),
            s.exec(select(func.count()).select_from(CreditLedger)).one(),
            s.exec(select(func.coalesce(func.sum(LeadFacet.lead_count), 0))).one(),
        )


def test_a_manual_scrape_adds_active_new_leads_to_the_marketplace(new_user):
    admin = new_user(credits=300, admin=True)
    leads_before, scrapes_before, ledger_before, _ = _snapshot()
    request = _defaults()
    result = inventory_scrape.run_inventory_scrape(admin.id, request, source=BuiltinSource(seed=11))

    assert (result.leads_generated, result.credits_used, result.balance) == (25, 0, 300)
    assert len(result.leads) == 25
    with session_scope() as s:
        rows = s.exec(select(Lead).where(Lead.id.in_([uuid.UUID(r["id"]) for r in result.leads]))).all()
        assert len(rows) == 25
        for lead in rows:
            assert lead.is_active and lead.is_new and lead.scrape_id is None
            assert lead.credit_cost == credit_cost_for_confidence(lead.confidence_score)
            assert lead.state in request.states and lead.lead_type in request.lead_types
            assert 150_000 <= lead.asking_price <= 550_000 and 2 <= lead.beds <= 6
            assert 1_000 <= lead.square_footage <= 3_000 and 70 <= lead.confidence_score <= 100
            assert lead.roi >= 15
        scrape = s.get(BulkScrape, result.scrape_id)
        assert (scrape.user_id, scrape.origin, scrape.credits_used, scrape.lead_count, scrape.leads_generated) == (
            admin.id, "explorer", 0, 25, 25)
        assert scrape.params["selectedLeadTypes"] == ["Probate", "Pre-Foreclosure", "Auction", "Make Me Move"]
        # It charges nothing: no ledger row at all, the balance as it was.
        assert s.exec(select(func.count()).select_from(CreditLedger)).one() == ledger_before
        assert ledger.balance(s, admin.id) == 300
    assert _snapshot()[:2] == (leads_before + 25, scrapes_before + 1)

    # The marketplace lists them and its counts (from the facets) include them.
    page = query_page(Filters(page_size=100, sort="newest"))
    assert page.total == 25
    assert {c.id for c in page.cards} == {r["id"] for r in result.leads}
    assert query_page(Filters(tags=("new",))).total == 25
    probate = sum(1 for r in result.leads if r["lead_type"] == "Probate")
    assert query_page(Filters(lead_types=("Probate",))).total == probate


def test_no_lead_is_stored_twice(new_user):
    admin = new_user(admin=True)
    existing = BuiltinSource(seed=3).search(SearchCriteria(count=6, states=("AZ",), lead_types=("Probate",)))
    insert_leads(existing[:3])
    # Same address and ZIP under another listing id (another source, or an archived copy).
    twin = {**existing[3], "external_id": "other-source:1", "is_active": False}
    insert_leads([twin])
    source = ListSource(existing + existing[:2])  # repeats itself too
    request = dev_scrape.parse({**dev_scrape.default_form(), "leadCount": "10", "minPrice": "0",
                                "maxPrice": "100000000", "minSqft": "0", "maxSqft": "100000", "minBeds": "1",
                                "maxBeds": "10", "minConfidence": "0", "roiThreshold": "0"},
                               ["AZ"], ["Probate"])
    result = inventory_scrape.run_inventory_scrape(admin.id, request, source=source)
    assert result.leads_generated == 2
    assert {r["address"] for r in result.leads} == {existing[4]["address"], existing[5]["address"]}
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(Lead)).one() == 6
        addresses = s.exec(select(Lead.address, Lead.zip_code)).all()
        assert len(set(addresses)) == 6  # the twin stands for existing[3]: every address once

    # Everything the source has is already stored: refused, nothing changes.
    before = _snapshot()
    with pytest.raises(scrapes.ScrapeError) as err:
        inventory_scrape.run_inventory_scrape(admin.id, request, source=ListSource(existing))
    assert err.value.message == "No leads matched your criteria; nothing was added. Try widening the ranges."
    assert _snapshot() == before


def test_a_refresh_that_ran_meanwhile_is_not_duplicated(new_user):
    admin = new_user(admin=True)
    leads = BuiltinSource(seed=4).search(SearchCriteria(count=4, states=("TX",)))
    insert_leads(leads[:2])  # stored after generation, before the transaction
    result = inventory_scrape.store_inventory(admin.id, _defaults(), leads)
    assert result.leads_generated == 2
    with pytest.raises(scrapes.ScrapeError) as err:
        inventory_scrape.store_inventory(admin.id, _defaults(), leads)
    assert err.value.message == "Every lead found is already in the marketplace; nothing was added."


def test_failures_change_nothing(new_user):
    admin = new_user(credits=50, admin=True)
    insert_leads(BuiltinSource(seed=9).search(SearchCriteria(count=5)))
    before = _snapshot()
    with pytest.raises(scrapes.ScrapeError) as err:
        inventory_scrape.run_inventory_scrape(admin.id, _defaults(),
                                     source=ListSource([], error=SourceError("provider down (HTTP 503)")))
    assert err.value.message == ("The lead source is unavailable right now; nothing was charged. "
                                 "Please try again later.")
    # Criteria nobody can meet (the built-in source has nothing under $10,000).
    cheap = dev_scrape.parse({**dev_scrape.default_form(), "minPrice": "0", "maxPrice": "5000"},
                             ["AZ"], ["Probate"])
    with pytest.raises(scrapes.ScrapeError) as err:
        inventory_scrape.run_inventory_scrape(admin.id, cheap, source=BuiltinSource(seed=1))
    assert err.value.message == "No leads are priced below $10,000."
    assert _snapshot() == before


def test_refused_input_changes_nothing(new_user):
    """Validation refuses before the service is reached: no lead, scrape row, ledger row or facet moves."""
    new_user(admin=True)
    insert_leads(BuiltinSource(seed=8).search(SearchCriteria(count=5)))
    before = _snapshot()
    for form, states, types in (
        ({**dev_scrape.default_form(), "minBeds": "5", "maxBeds": "3"}, ["AZ"], ["Probate"]),
        ({**dev_scrape.default_form(), "leadCount": "101"}, ["AZ"], ["Probate"]),
        (dev_scrape.default_form(), [], ["Probate"]),
    ):
        with pytest.raises(dev_scrape.DevScrapeInvalid):
            dev_scrape.parse(form, states, types)
    assert _snapshot() == before
