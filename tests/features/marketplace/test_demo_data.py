"""Invented data is never sold: in production a generated lead is neither listed, unlocked nor scraped;
scrapes draw from the real inventory whenever there is one and say "Only N of M matched" rather than
invent; only a pure demo install (generated leads, not production) is a demo install."""

from __future__ import annotations

from datetime import date

import pytest
import sqlalchemy as sa
from sqlmodel import func, select

from marketplace.platform.config import reload_settings
from marketplace.features.marketplace import rules as market_rules
from marketplace.features.scrape import rules
from marketplace.platform.leads import is_generated
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, UserLead
from marketplace.platform import demo_data, ledger
from marketplace.features.marketplace import service_map as lead_map
from marketplace.features.records import service_imports as record_imports
from marketplace.features.scrape import service as scrapes
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service import query_page, rebuild_facets_now
from marketplace.features.records.service_inventory import PublicRecordInventory, scrape_source
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests import factories
from tests.features.records.opendata_helpers import chicago_as_of

ANY = dict(price=(0, 1_000_000), size=(0, 10_000), roi=(0, 100), min_confidence=0)
RAW = {
    "generated": {"generated": True, "condition_score": 0.4},
    "legacy generated": {"condition_score": 0.4},
    "rentcast listing": {"provider": "rentcast", "condition_score": 0.5},
    "nothing said": {},
}


@pytest.fixture
def no_sources(monkeypatch):
    for name in ("OPEN_DATA_DATASETS", "BATCHDATA_LISTS", "BATCHDATA_API_KEY", "BATCHDATA_LOCATION", "APP_ENV"):
        monkeypatch.delenv(name, raising=False)
    reload_settings()
    demo_data.forget_demo_check()
    yield monkeypatch
    demo_data.forget_demo_check()


def _production(monkeypatch) -> None:
    monkeypatch.setenv("APP_ENV", "production")
    reload_settings()


def _leads() -> dict[str, object]:
    ids = {kind: factories.add_lead(raw_data=raw, address=f"{n} Oak St") for n, (kind, raw) in enumerate(RAW.items())}
    rebuild_facets_now()
    return ids


def test_the_sql_rule_is_the_python_rule(db_url, no_sources):
    ids = _leads()
    with get_engine().connect() as conn:
        flagged = set(conn.execute(sa.select(Lead.__table__.c.id).where(demo_data.generated_condition())).scalars())
    assert flagged == {ids["generated"], ids["legacy generated"]}
    assert {kind for kind, raw in RAW.items() if is_generated(raw)} == {"generated", "legacy generated"}


def test_production_lists_no_generated_lead(db_url, no_sources):
    ids = _leads()
    page = query_page(market_rules.Filters())
    assert page.total == 4  # development: the demo install lists its demo leads
    _production(no_sources)
    page = query_page(market_rules.Filters())
    assert {card.id for card in page.cards} == {str(ids["rentcast listing"]), str(ids["nothing said"])}
    assert page.total == 2  # counted without the facets, which count every active lead
    assert query_page(market_rules.Filters(lead_types=("Probate",))).total == 2
    assert lead_map.map_card(str(ids["generated"])) is None
    assert lead_map.map_card(str(ids["nothing said"])) is not None


@pytest.mark.parametrize("kind", ["generated", "legacy generated"])
def test_production_refuses_to_unlock_a_generated_lead(db_url, no_sources, new_user, kind):
    user = new_user(credits=500)
    ids = _leads()
    _production(no_sources)
    with pytest.raises(unlocks.UnlockError) as err:
        unlocks.unlock_lead(user.id, ids[kind])
    assert (err.value.title, err.value.message) == (
        "Error", "This lead is generated demo data, not a public record: it cannot be unlocked here.")
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 500
        assert s.exec(select(func.count()).select_from(UserLead)).one() == 0
    # a lead that is not invented unlocks as ever
    assert unlocks.unlock_lead(user.id, ids["rentcast listing"]).remaining_credits == 380


def test_development_still_unlocks_demo_leads(db_url, no_sources, new_user):
    user = new_user(credits=500)
    ids = _leads()
    assert unlocks.unlock_lead(user.id, ids["generated"]).remaining_credits == 380


def test_production_never_calls_the_generator(db_url, no_sources, new_user):
    user = new_user(credits=10_000)
    _production(no_sources)
    assert isinstance(scrape_source(), PublicRecordInventory)
    with pytest.raises(scrapes.ScrapeError) as err:
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5), source=BuiltinSource(seed=1))
    assert err.value.message == ("The built-in generator makes demo data, which is never sold: scrapes draw only "
                                 "from public records here.")
    # the default source there is the (empty) real inventory: nothing matched, nothing invented or charged
    with pytest.raises(scrapes.ScrapeError, match="No leads matched your criteria; nothing was charged"):
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=5, **ANY))
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 10_000
        assert s.exec(select(func.count()).select_from(Lead)).one() == 0


def test_production_drops_generated_candidates_of_any_source(db_url, no_sources, new_user):
    class Mixed:
        name = "mixed"

        def __init__(self):
            self.leads = BuiltinSource(seed=5).search(
                scrapes.scrape_rules.ScrapeRequest(lead_count=4).criteria())

        def search(self, criteria):
            out, self.leads = self.leads[:criteria.count], self.leads[criteria.count:]
            return out

    user = new_user(credits=10_000)
    _production(no_sources)
    with pytest.raises(scrapes.ScrapeError, match="No leads matched your criteria"):
        scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=4), source=Mixed())
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 10_000


@pytest.fixture
def chicago(db_url, no_sources):
    """Real inventory, but OPEN_DATA_DATASETS not set (an install whose records were imported by hand)."""
    # The sample re-dated to the week before: its 2023 notices themselves are history (no leads).
    record_imports.import_file("chi-vacant-buildings-violations", chicago_as_of(date(2026, 11, 18)),
                               today=date(2026, 11, 25))
    leads = Lead.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(leads).where(
            leads.c.property_id.is_not(None), leads.c.is_active == sa.true())).scalar_one()


def test_scrapes_draw_from_real_inventory_even_without_datasets_configured(chicago, new_user):
    assert chicago > 0 and demo_data.has_real_inventory()
    assert isinstance(scrape_source(), PublicRecordInventory)
    user = new_user(credits=1_000_000)
    asked = chicago + 25
    with get_engine().connect() as conn:
        before = conn.execute(sa.select(sa.func.count()).select_from(Lead.__table__)).scalar_one()
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=asked, states=("IL",), **ANY))
    # Fewer matched: those are delivered and charged, and the user is told; nothing invented to fill the gap.
    assert result.leads_generated == chicago
    assert result.credits_used == rules.scrape_cost(chicago)
    assert result.balance == 1_000_000 - rules.scrape_cost(chicago)
    assert result.shortfall == (f"Only {chicago:,} of {asked:,} matched your criteria; "
                                f"you were charged for the {chicago:,} delivered.")
    assert all(row["provenance"].startswith("Public record: City of Chicago") for row in result.leads)
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(Lead.__table__)).scalar_one() == before


def test_a_pure_demo_install_generates_labelled_demo_data(db_url, no_sources, new_user):
    assert not demo_data.has_real_inventory()
    assert isinstance(scrape_source(), BuiltinSource)
    user = new_user(credits=10_000)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=3), source=BuiltinSource(seed=9))
    assert [row["provenance"] for row in result.leads] == ["Demo data (generated)"] * 3


def test_demo_install_is_generated_leads_outside_production(db_url, no_sources):
    # no leads and no real source: a pure demo install (its scrapes would generate)
    assert demo_data.demo_by_configuration() is True
    assert demo_data.demo_install(now=0.0) is True
    no_sources.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    assert demo_data.demo_by_configuration() is False
    assert demo_data.demo_install(now=1.0) is True  # cached a few seconds
    assert demo_data.demo_install(now=1.0 + demo_data.DEMO_CHECK_SECONDS) is False  # a real source, no demo lead
    factories.add_lead(raw_data={"generated": True})
    assert demo_data.demo_install(now=20.0) is True  # the marketplace lists a generated lead
    _production(no_sources)
    assert demo_data.demo_by_configuration() is False
    assert demo_data.demo_install(now=100.0) is False  # production lists no generated lead


def test_a_real_only_install_is_no_demo_install(chicago):
    factories.add_lead(raw_data={"generated": True}, is_active=False)  # an archived demo lead does not count
    factories.add_lead(raw_data={"provider": "rentcast", "condition_score": 0.5})
    assert demo_data.demo_install() is False
