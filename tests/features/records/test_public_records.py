"""Public-record ingestion: properties, signals, idempotency, closing, leads, owner privacy (issue 23)."""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timezone

import pytest
import sqlalchemy as sa

from marketplace.features.records import service_titles as record_titles
from marketplace.features.marketplace import rules_cards as lead_cards
from marketplace.platform.leads import provenance_line
from marketplace.features.property.rules import record_section
from marketplace.features.marketplace import rules
from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.platform.db import get_engine
from marketplace.platform.models import DatasetRun, Lead, Property, PropertySignal, RecordedSale
from marketplace.features.records import (
    service as public_records,
    service_imports as record_imports,
    service_leads as record_leads,
    service_views as record_views,
)
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service import query_page
from tests.factories import add_lead, make_user

TODAY = date(2026, 11, 25)
RETRIEVED = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)
OWNER = "JANE Q DELINQUENT"


@dataclass(frozen=True)
class DS:
    """The fields of a dataset that ingestion reads (the readers' ``Dataset`` has them too)."""

    id: str
    title: str
    publisher: str = "City of Philadelphia"
    state: str = "PA"
    max_age_days: int = 400


TAX = DS("phl-tax-delinquencies", "Real Estate Tax Delinquencies")
SHERIFF = DS("phl-sheriff-sales-bid4assets", "Sheriff Sales (Bid4Assets)", publisher="Philadelphia Sheriff's Office")
OPA = DS("phl-opa-properties", "OPA Properties")
TITLES = public_records.dataset_titles([TAX, SHERIFF, OPA])


def tax(key="522145900", amount=12_400, years=4, **kw) -> MappedRecord:
    fields = dict(dataset_id=TAX.id, record_key=key, kind="tax_delinquent", as_of=date(2026, 10, 1),
                  address="5818 WOODCREST AVENUE", city="PHILADELPHIA", state="PA", zip_code="19131",
                  parcel_id=key, owner_name=OWNER, mailing_address="12 OCEAN DR", mailing_city="MIAMI",
                  mailing_state="FL", mailing_zip="33139", amount_owed=amount, years_owed=years,
                  delinquent_since=date(2022, 1, 1), square_footage=1200)
    fields.update(kw)
    return MappedRecord(**fields)


def sheriff(key="1275357", parcel="522145900", sale=date(2026, 12, 20), **kw) -> MappedRecord:
    fields = dict(dataset_id=SHERIFF.id, record_key=key, kind="sale_list", as_of=date(2026, 11, 1),
                  address="5818 WOODCREST AVE", state="PA", zip_code="19131", parcel_id=parcel, sale_type="sheriff",
                  sale_date=sale, amount_owed=274_634, opening_bid=37_600,
                  record_url="https://www.bid4assets.com/auction/index/1275357")
    fields.update(kw)
    return MappedRecord(**fields)


def ingest(dataset, records, full=True, **kw):
    return public_records.ingest(dataset, list(records), mode="file", retrieved_at=RETRIEVED, full=full,
                                 today=TODAY, titles=TITLES, **kw)


def rows(url, table, *where):
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(table.__table__).where(*where)).all()


def test_a_property_in_two_datasets_is_one_lead_with_two_signals(db_url):
    first = ingest(TAX, [tax(), tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125")])
    assert (first.status, first.rows_read, first.added, first.rejected) == ("ok", 2, 2, 0)
    second = ingest(SHERIFF, [sheriff()])
    assert (second.added, second.leads_updated) == (1, 1)

    assert len(rows(db_url, Property)) == 2
    prop = rows(db_url, Property, Property.__table__.c.parcel_id == "522145900")[0]
    signals = rows(db_url, PropertySignal, PropertySignal.__table__.c.property_id == prop.id)
    assert sorted(s.kind for s in signals) == ["sale_list", "tax_delinquent"]
    leads = rows(db_url, Lead, Lead.__table__.c.property_id == prop.id)
    assert len(leads) == 1
    lead = leads[0]
    # A sale list is stronger than a tax delinquency (records.rules_motivation.LEAD_TYPE_ORDER).
    assert (lead.lead_type, lead.source, lead.signal_count) == ("Auction", "Sheriff Sales (Bid4Assets)", 2)
    assert lead.external_id == f"pr:{prop.id}" and lead.is_active and lead.asking_price is None
    assert (lead.images_fetch_status, lead.image_urls) == ("no_images", [])
    assert (lead.address, lead.city, lead.state, lead.zip_code) == ("5818 WOODCREST AVENUE", "PHILADELPHIA", "PA", "19131")
    assert 0 < lead.motivation_score <= 100
    # The proving record as facts (its lines are written when shown).
    assert lead.raw_data["proof"] == {"publisher": "Philadelphia Sheriff's Office", "title": "Sheriff Sales (Bid4Assets)",
                                      "record_key": "1275357", "retrieved_at": "2026-11-25T12:00:00+00:00"}
    assert "source_line" not in lead.raw_data and "dataset_line" not in lead.raw_data
    assert {p["dataset_id"] for p in lead.raw_data["provenance"]} == {TAX.id, SHERIFF.id}
    # What cards and pages say of its origin, before and after the unlock (no record key).
    assert provenance_line(lead.raw_data, lead.source) == (
        "Public record: Philadelphia Sheriff's Office, Sheriff Sales (Bid4Assets)")
    assert lead.raw_data["motivation_reasons"]
    assert lead.credit_cost == record_leads.pricing.credit_cost_for_confidence(lead.confidence_score)

    # Locked: the chips name the signals and the datasets, never the record (a parcel number names the house).
    chips = record_views.public_record_panel(lead.id, titles=TITLES, database_url=db_url).chips
    assert [(c.label, c.record_key, c.record_url, c.as_of) for c in chips] == [("Sheriff sale", "", None, None),
                                                                               ("Tax delinquent", "", None, None)]
    assert [c.source for c in chips] == ["Public record: Philadelphia Sheriff's Office, Sheriff Sales (Bid4Assets)",
                                         "Public record: City of Philadelphia, Real Estate Tax Delinquencies"]
    assert "522145900" not in repr(chips) and "1275357" not in repr(chips)
    user = make_user(db_url, credits=500)
    assert record_views.public_record_panel(lead.id, user.id, titles=TITLES, database_url=db_url).chips == chips
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    chips = record_views.public_record_panel(lead.id, user.id, titles=TITLES, database_url=db_url).chips
    assert [(c.record_key, c.record_url, c.as_of) for c in chips] == [
        ("1275357", "https://www.bid4assets.com/auction/index/1275357", date(2026, 11, 1)),
        ("522145900", None, date(2026, 10, 1))]
    assert chips[1].source == "Public record: City of Philadelphia, Real Estate Tax Delinquencies"


def test_source_titles_fit_the_column_and_labels():
    assert record_titles.short_source("T" * 64) == "T" * 64
    assert record_titles.short_source("Title " * 20) == ("Title " * 11).rstrip()[:61].rstrip() + "..."
    assert len(record_titles.short_source("Title " * 20)) <= 64
    assert [record_titles.signal_label(k, t) for k, t in (("sale_list", "tax"), ("sale_list", None), ("vacant", None),
                                                          ("code_violation", None))] == [
        "Tax sale", "Sale list", "Vacant", "Code violation"]


def test_the_same_records_twice_change_nothing(db_url):
    records = [tax(), tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125"), sheriff("9", parcel="100200300")]
    ingest(TAX, records[:2])
    ingest(SHERIFF, records[2:])
    before = {t: rows(db_url, t) for t in (Property, PropertySignal, Lead)}
    again = ingest(TAX, records[:2])
    assert (again.status, again.rows_read, again.unchanged, again.added, again.updated, again.closed,
            again.archived) == ("ok", 2, 2, 0, 0, 0, 0)
    assert {t: rows(db_url, t) for t in (Property, PropertySignal, Lead)} == before
    runs = rows(db_url, DatasetRun, DatasetRun.__table__.c.dataset_id == TAX.id)
    assert [(r.status, r.unchanged) for r in sorted(runs, key=lambda r: r.id)] == [("ok", 0), ("ok", 2)]


def test_records_naming_no_state_take_the_datasets_and_reingest_unchanged(db_url):
    # The owner's mailing state (NJ) against the dataset's state (PA): out of state from the first run on.
    records = [tax(state=None, mailing_state="NJ"), tax("2", state=None, address="1 MAIN ST", zip_code="19106")]
    first = ingest(TAX, records)
    assert {(p.state, p.out_of_state_owner) for p in rows(db_url, Property)} == {("PA", True)}
    before = {t: rows(db_url, t) for t in (Property, PropertySignal, Lead)}
    again = ingest(TAX, records)
    assert (first.added, again.unchanged, again.updated, again.leads_updated) == (2, 2, 0, 0)
    assert {t: rows(db_url, t) for t in (Property, PropertySignal, Lead)} == before


def test_a_changed_amount_updates_the_signal_and_the_lead(db_url):
    ingest(TAX, [tax(amount=1_000, years=1)])
    lead_before = rows(db_url, Lead)[0]
    summary = ingest(TAX, [tax(amount=40_000, years=6)])
    assert (summary.updated, summary.unchanged) == (1, 0)
    signal = rows(db_url, PropertySignal)[0]
    assert (signal.amount_owed, signal.years_owed, signal.status) == (40_000, 6, "open")
    lead_after = rows(db_url, Lead)[0]
    assert lead_after.id == lead_before.id
    assert lead_after.motivation_score > lead_before.motivation_score


def test_a_row_gone_from_a_full_import_closes_its_signal_and_archives_the_lead(db_url):
    ingest(TAX, [tax(), tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125")])
    ingest(SHERIFF, [sheriff()])
    # 522145900 paid its tax: it stays a lead (on the sheriff's list); 100200300 is no longer a lead. (The
    # file still holds one record, so it is a real read: an empty file closes nothing.)
    # (Half the dataset's open records: the operator allows the drop.)
    summary = ingest(TAX, [tax("700800900", address="12 ELM ST", zip_code="19125")], allow_drop=True)
    assert (summary.closed, summary.archived) == (2, 1)
    closed = rows(db_url, PropertySignal, PropertySignal.__table__.c.dataset_id == TAX.id,
                  PropertySignal.__table__.c.record_key != "700800900")
    assert {(s.status, s.closed_reason) for s in closed} == {("closed", "no longer in the dataset as of 2026-11-25")}
    leads = {r.address: r for r in rows(db_url, Lead)}
    assert leads["1309 FRANKFORD AVE"].is_active is False
    assert leads["5818 WOODCREST AVENUE"].is_active is True
    assert (leads["5818 WOODCREST AVENUE"].lead_type, leads["5818 WOODCREST AVENUE"].signal_count) == ("Auction", 1)
    # The tax comes back (a new delinquency under the same record): the signal re-opens, the lead returns.
    back = ingest(TAX, [tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125")], full=False)
    assert back.updated == 1
    assert {r.address: r.is_active for r in rows(db_url, Lead)}["1309 FRANKFORD AVE"] is True
    assert len(rows(db_url, Lead)) == 3


def test_a_partial_import_never_closes(db_url):
    ingest(TAX, [tax(), tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125")])
    summary = ingest(TAX, [tax()], full=False)
    assert (summary.closed, summary.archived, summary.unchanged) == (0, 0, 1)
    assert {s.status for s in rows(db_url, PropertySignal)} == {"open"}


def test_a_held_sale_is_stored_closed_and_makes_no_lead(db_url):
    summary = ingest(SHERIFF, [sheriff(sale=date(2026, 7, 7))])
    assert summary.added == 1 and summary.leads_added == 0
    signal = rows(db_url, PropertySignal)[0]
    assert (signal.status, signal.closed_reason) == ("closed", "sale held on 2026-07-07")
    assert rows(db_url, Lead) == []
    assert ingest(SHERIFF, [sheriff(sale=date(2026, 7, 7))]).unchanged == 1


def test_two_parcels_at_one_known_address_are_two_properties_and_two_leads(db_url):
    """Properties are found by parcel first: a second parcel at a known street address (a condominium unit,
    a side lot) is a property of its own, with its own lead; a record without a parcel id at that address
    is kept on the address's own property (it names neither parcel)."""
    ingest(TAX, [tax()])
    summary = ingest(TAX, [tax(), tax("999999999")], full=False)
    assert (summary.added, summary.unchanged, summary.rejected) == (1, 1, 0)
    props = sorted((p.parcel_id or "", p.address, p.zip_code) for p in rows(db_url, Property))
    assert props == [("522145900", "5818 WOODCREST AVENUE", "19131"), ("999999999", "5818 WOODCREST AVENUE", "19131")]
    assert sorted(lead.address for lead in rows(db_url, Lead) if lead.is_active) == ["5818 WOODCREST AVENUE"] * 2
    ingest(TAX, [tax(), tax("999999999"), tax("no-parcel", parcel_id=None)], full=False)
    assert len(rows(db_url, Property)) == 3


def test_a_parcel_without_an_address_is_kept_without_a_lead_until_a_record_names_its_address(db_url):
    """A record with a parcel id and coordinates only (no street address; the coordinates' ZIP makes no
    address) is kept on a parcel-only property with its signal and no lead; the first record of the same
    parcel that names the street address and ZIP gives it the address, and its lead, in that batch."""
    first = ingest(TAX, [tax("111", address=None, zip_code=None, latitude=39.99, longitude=-75.23)])
    assert (first.added, first.rejected, first.leads_added) == (1, 0, 0)
    [prop] = rows(db_url, Property)
    assert (prop.parcel_id, prop.address, prop.address_key, prop.zip_code) == ("111", None, None, None)
    assert len(rows(db_url, PropertySignal)) == 1 and rows(db_url, Lead) == []
    named = ingest(TAX, [tax("111", address=None, zip_code=None, latitude=39.99, longitude=-75.23),
                         tax("111", record_key="roll-111", address="7 ELM ST", zip_code="19131")], full=False)
    assert named.leads_added == 1
    [prop] = rows(db_url, Property)
    assert (prop.address, prop.zip_code) == ("7 ELM ST", "19131")
    [lead] = rows(db_url, Lead)
    assert (lead.address, lead.zip_code, lead.is_active) == ("7 ELM ST", "19131", True)


def test_owner_flags_and_privacy(db_url):
    ingest(TAX, [tax(),
                 tax("2", address="1 MAIN ST", zip_code="19106", mailing_address="1 Main Street",
                     mailing_state="PA", mailing_zip="19106", owner_name="LOCAL OWNER"),
                 tax("3", address="2 MAIN ST", zip_code="19106", mailing_address="PO BOX 9", mailing_state="PA",
                     mailing_zip="19106", owner_name="ABSENT OWNER"),
                 tax("4", address="3 MAIN ST", zip_code="19106", mailing_address=None, mailing_city=None,
                     mailing_state=None, mailing_zip=None, owner_name="WELLS FARGO BANK NA")])
    flags = {p.address: (p.absentee_owner, p.out_of_state_owner, p.bank_owned) for p in rows(db_url, Property)}
    # No mailing address on record: unknown (None), never "no".
    assert flags == {"5818 WOODCREST AVENUE": (True, True, False), "1 MAIN ST": (False, False, False),
                     "2 MAIN ST": (True, False, False), "3 MAIN ST": (None, None, True)}
    leads = {r.address: r for r in rows(db_url, Lead)}
    assert (leads["5818 WOODCREST AVENUE"].absentee_owner, leads["5818 WOODCREST AVENUE"].out_of_state_owner) == (True, True)
    # Owner names and mailing addresses never reach a lead row, a locked card or a locked page.
    for lead in leads.values():
        text = repr(lead._mapping)
        assert OWNER not in text and "OCEAN DR" not in text and "OWNER" not in text
    user = make_user(db_url, credits=1000)
    page = query_page(rules.Filters(page_size=50), user.id, database_url=db_url)
    assert len(page.cards) == 4
    for card in page.cards:
        assert card.provenance == "Public record: City of Philadelphia, Real Estate Tax Delinquencies"
        shown = repr(lead_cards.with_action(lead_cards.card_data(card), True, 1000))
        assert OWNER not in shown and "OCEAN DR" not in shown and "MIAMI" not in shown
    target = leads["5818 WOODCREST AVENUE"].id
    assert record_views.public_record_panel(target, user.id, database_url=db_url).owner is None
    unlocks.unlock_lead(user.id, target, database_url=db_url)
    owner = record_views.public_record_panel(target, user.id, database_url=db_url).owner
    assert (owner.name, owner.mailing_address, owner.mailing_state) == (OWNER, "12 OCEAN DR", "FL")
    stranger = make_user(db_url)
    assert record_views.public_record_panel(target, stranger.id, database_url=db_url).owner is None


def test_zip_from_coordinates_and_rejections(db_url):
    chicago = DS("chi-vacant-buildings-violations", "Vacant and Abandoned Buildings - Violations",
                 publisher="City of Chicago", state="IL")
    titles = public_records.dataset_titles([chicago])
    records = [
        MappedRecord(dataset_id=chicago.id, record_key="11CP015666", kind="vacant", as_of=date(2026, 10, 7),
                     address="9332 S LASALLE", latitude=41.72433163710899, longitude=-87.62766855145455,
                     notice_date=date(2026, 10, 7), violations=("13-12-125 Duty to secure",)),
        MappedRecord(dataset_id=chicago.id, record_key="NOZIP", kind="vacant", as_of=date(2026, 10, 7),
                     address="1 NOWHERE ST"),
        MappedRecord(dataset_id=chicago.id, record_key="NOADDR", kind="vacant", as_of=date(2026, 10, 7),
                     zip_code="60620"),
        RejectedRow(dataset_id=chicago.id, row_number=4, reason="Issued Date: '13/45/2011' is not a date"),
    ]
    summary = public_records.ingest(chicago, records, mode="file", retrieved_at=RETRIEVED, today=TODAY,
                                    titles=titles, full=False)
    assert (summary.rows_read, summary.added, summary.rejected) == (4, 1, 3)
    assert summary.rejections == ["record NOZIP: no ZIP", "record NOADDR: no address",
                                  "row 4: Issued Date: '13/45/2011' is not a date"]
    prop = rows(db_url, Property)[0]
    assert (prop.zip_code, prop.state, prop.address_key) == ("60620", "IL", "9332 S LASALLE")
    lead = rows(db_url, Lead)[0]
    assert (lead.lead_type, lead.city, lead.source) == ("Vacancy", "CHICAGO", "Vacant and Abandoned Buildings - Violations")
    assert lead.raw_data["proof"] == {"publisher": "City of Chicago", "title": "Vacant and Abandoned Buildings - Violations",
                                      "record_key": "11CP015666", "retrieved_at": "2026-11-25T12:00:00+00:00"}
    assert summary.warning is None
    run = rows(db_url, DatasetRun)[0]
    assert (run.status, run.warning, run.rejected, run.newest_as_of) == ("ok", summary.warning, 3, date(2026, 10, 7))


def test_assessment_fills_facts_and_values(db_url):
    ingest(TAX, [tax()])
    assessment = MappedRecord(dataset_id=OPA.id, record_key="522145900", kind="assessment", as_of=date(2024, 1, 1),
                              address="5818 WOODCREST AVE", state="PA", zip_code="19131", parcel_id="522145900",
                              beds=3, baths=1.0, square_footage=1280, year_built=1925, market_value=150_000,
                              value_year=2025, sale_price=90_000, sale_date=date(2020, 5, 1))
    summary = ingest(OPA, [assessment])
    assert (summary.updated, summary.leads_updated) == (1, 1)
    prop = rows(db_url, Property)[0]
    # The assessment (as of 2024) is older than the tax record (2026): it fills the missing beds, and
    # keeps the newer record's 1,200 sqft; its values always fill the value columns.
    assert (prop.beds, prop.square_footage, prop.market_value, prop.value_dataset_id, prop.last_sale_price) == (
        3, 1200, 150_000, OPA.id, 90_000)
    assert prop.facts_record == f"{TAX.id}/522145900"
    lead = rows(db_url, Lead)[0]
    assert lead.zestimate is not None and lead.beds == 3 and lead.square_footage == 1200
    assert "OPA Properties" in lead.raw_data["basis"]["market_value"]
    assert ingest(OPA, [assessment]).unchanged == 1


def test_recorded_sales_and_hpi_points_are_stored_once(db_url):
    nyc = DS("nyc-dof-rolling-sales", "NYC Rolling Sales", state="NY")
    sale = MappedRecord(dataset_id=nyc.id, record_key="3-100-1-2020-01-02", kind="recorded_sale",
                        as_of=date(2020, 1, 2), address="1 KINGS HWY", zip_code="11223", sale_price=900_000,
                        sale_date=date(2020, 1, 2), square_footage=1800, property_class="01 ONE FAMILY DWELLINGS")
    assert public_records.ingest(nyc, [sale], mode="file", today=TODAY).added == 1
    assert public_records.ingest(nyc, [sale], mode="file", today=TODAY).unchanged == 1
    assert public_records.ingest(nyc, [dataclasses.replace(sale, sale_price=950_000)], mode="file",
                                 today=TODAY).updated == 1
    assert [r.price for r in rows(db_url, RecordedSale)] == [950_000]
    fhfa = DS("fhfa-hpi-zip3", "FHFA HPI ZIP3", state="")
    points = [HpiPoint(fhfa.id, "191", 2015, 180.5, 2.1), HpiPoint(fhfa.id, "191", 2016, 185.0, 2.5)]
    assert public_records.ingest(fhfa, points, mode="file", today=TODAY).added == 2
    assert public_records.ingest(fhfa, points, mode="file", today=TODAY).unchanged == 2


def test_two_records_of_one_property_disagreeing_do_not_flip_on_reingest(db_url):
    records = [tax("1", parcel_id="522145900", owner_name="OLD OWNER", as_of=date(2025, 1, 1), beds=2),
               tax("2", parcel_id="522145900", owner_name="NEW OWNER", as_of=date(2026, 1, 1), mailing_address="5818 WOODCREST AVE",
                   mailing_city="PHILADELPHIA", mailing_state="PA", mailing_zip="19131")]
    ingest(TAX, records)
    prop = rows(db_url, Property)[0]
    assert (prop.owner_name, prop.beds, prop.absentee_owner, prop.out_of_state_owner) == ("NEW OWNER", 2, False, False)
    for order in (records, records[::-1]):
        again = ingest(TAX, order)
        assert (again.unchanged, again.updated) == (2, 0)
        assert rows(db_url, Property) == [prop]


def test_rescore_closes_held_sales_and_archives(db_url):
    ingest(SHERIFF, [sheriff(sale=date(2026, 12, 1))])
    lead = rows(db_url, Lead)[0]
    assert lead.is_active and lead.lead_type == "Auction"
    assert public_records.rescore_leads(TODAY, titles=TITLES) == {"closed": 0, "archived": 0, "updated": 0}
    result = public_records.rescore_leads(date(2026, 12, 2), titles=TITLES)
    assert result == {"closed": 1, "archived": 1, "updated": 0}
    signal = rows(db_url, PropertySignal)[0]
    assert (signal.status, signal.closed_reason) == ("closed", "sale held on 2026-12-01")
    assert rows(db_url, Lead)[0].is_active is False


def test_a_new_index_revalues_the_leads_of_its_area(db_url):
    assessment = MappedRecord(dataset_id=OPA.id, record_key="522145900", kind="assessment", as_of=date(2020, 1, 1),
                              parcel_id="522145900", state="PA", market_value=100_000, value_year=2020)
    ingest(TAX, [tax()])
    ingest(OPA, [assessment])
    assert rows(db_url, Lead)[0].zestimate == 100_000
    fhfa = DS("fhfa-hpi-zip3", "FHFA HPI ZIP3", state="")
    summary = ingest(fhfa, [HpiPoint(fhfa.id, "191", 2020, 200.0, None), HpiPoint(fhfa.id, "191", 2025, 300.0, 3.0)])
    assert (summary.added, summary.leads_updated, summary.newest_as_of) == (2, 1, date(2025, 12, 31))
    lead = rows(db_url, Lead)[0]
    assert lead.zestimate == 150_000 and "indexed with FHFA HPI ZIP3 191" in lead.raw_data["basis"]["market_value"]


def test_last_runs_lists_the_latest_run_per_dataset(db_url):
    ingest(TAX, [tax()])
    ingest(TAX, [tax()])
    ingest(SHERIFF, [sheriff()])
    latest = record_imports.last_runs(db_url)
    assert set(latest) == {TAX.id, SHERIFF.id}
    assert (latest[TAX.id].unchanged, latest[TAX.id].status) == (1, "ok")


def test_bad_mode_is_refused(db_url):
    with pytest.raises(ValueError):
        public_records.ingest(TAX, [], mode="ftp")
    assert rows(db_url, DatasetRun) == []


def test_the_daily_refresh_never_archives_a_public_record_lead_by_age(db_url, monkeypatch):
    from marketplace.features.records import jobs_refresh as refresh
    from marketplace.features.scrape.source_builtin import BuiltinSource

    monkeypatch.setenv("LEAD_MAX_AGE_DAYS", "30")
    ingest(TAX, [tax()])
    with get_engine(db_url).begin() as conn:  # the lead was made 60 days before the refresh
        conn.execute(sa.update(Lead.__table__).values(created_at=datetime(2026, 9, 1, tzinfo=timezone.utc)))
    result = refresh.run_refresh(now=datetime(2026, 11, 1, 16, 0, tzinfo=timezone.utc),
                                 source=BuiltinSource(seed=1), count=3)
    assert (result["status"], result["leads_archived"]) == ("completed", 0)
    assert rows(db_url, Lead, Lead.__table__.c.property_id.is_not(None))[0].is_active is True


def test_a_full_run_that_could_not_read_its_rows_closes_nothing(db_url):
    ingest(TAX, [tax()])
    broken = [RejectedRow(TAX.id, n, "totalDue: 'abc' is not an amount") for n in range(1, 4)]
    summary = ingest(TAX, broken)
    assert (summary.closed, summary.archived, summary.rejected) == (0, 0, 3)
    assert summary.warning == "3 of 3 rows could not be read: nothing closed"
    empty = public_records.ingest(TAX, [], mode="api", retrieved_at=RETRIEVED, today=TODAY, titles=TITLES)
    assert (empty.closed, empty.warning) == (0, "the portal returned no rows: nothing closed")
    assert {s.status for s in rows(db_url, PropertySignal)} == {"open"}
    assert rows(db_url, Lead)[0].is_active is True


def test_signal_chips_name_the_dataset_files_titles(db_url):
    chicago = record_imports.find_dataset("chi-vacant-buildings-violations")
    record = MappedRecord(dataset_id=chicago.id, record_key="11CP015666", kind="vacant", as_of=date(2026, 11, 7),
                          address="9332 S LASALLE", zip_code="60620", state="IL")
    public_records.ingest(chicago, [record], mode="file", retrieved_at=RETRIEVED, today=TODAY)
    lead = rows(db_url, Lead)[0]
    (chip,) = record_views.public_record_panel(lead.id, database_url=db_url).chips
    assert (chip.label, chip.source) == ("Vacant", "Public record: City of Chicago, Vacant and Abandoned "
                                                         "Buildings - Violations")
    assert record_views.public_record_panel("not-a-uuid", database_url=db_url) is None


def test_overlong_text_is_cut_or_rejected_never_failing_the_run(db_url):
    summary = ingest(TAX, [
        tax(owner_name="X" * 400, mailing_state="Florida", property_class="C" * 300,
            record_url="javascript:alert(1)"),
        tax("2" * 200),
        tax("3", parcel_id="3", address="1 MAIN ST", zip_code="19106", state="Pennsylvania"),
    ], full=False)
    assert summary.status == "ok" and summary.added == 1
    assert summary.rejections == ["record 2222222222222222222222222222222222222222: record_key longer than 128 characters",
                                  "record 3: state 'Pennsylvania' is not a two-letter code"]
    prop = rows(db_url, Property)[0]
    # A mailing state that is not a two-letter code is dropped, then read from the mailing ZIP (33139: FL).
    assert (len(prop.owner_name), prop.mailing_state, len(prop.property_class)) == (255, "FL", 100)
    assert rows(db_url, PropertySignal)[0].record_url is None


def test_one_run_per_dataset_at_a_time(db_url):
    from datetime import timedelta

    from marketplace.platform.models import utcnow

    with get_engine(db_url).begin() as conn:
        conn.execute(sa.insert(DatasetRun.__table__).values(dataset_id=TAX.id, mode="api", status="running",
                                                            started_at=utcnow() - timedelta(minutes=5)))
    with pytest.raises(public_records.RunInProgress, match="another run .* is in progress"):
        ingest(TAX, [tax()])
    assert rows(db_url, Property) == []
    assert ingest(SHERIFF, [sheriff()]).status == "ok"  # other datasets are free
    with get_engine(db_url).begin() as conn:  # a run that died hours ago blocks nothing
        conn.execute(sa.update(DatasetRun.__table__).where(DatasetRun.__table__.c.status == "running")
                     .values(started_at=utcnow() - timedelta(hours=7)))
    assert ingest(TAX, [tax()]).status == "ok"


def test_the_public_record_panel_for_each_viewer(db_url):
    ingest(TAX, [tax(), tax("100200300", address="1309 FRANKFORD AVE", zip_code="19125")])
    ingest(SHERIFF, [sheriff(key="77", parcel="100200300")])
    ingest(TAX, [tax()], allow_drop=True)  # 100200300 paid its tax: closes; the sheriff sale keeps the lead
    lead = next(r for r in rows(db_url, Lead) if r.address == "1309 FRANKFORD AVE")
    locked = record_views.public_record_panel(lead.id, None, titles=TITLES, database_url=db_url)
    assert (locked.unlocked, locked.signal_count, locked.parcel_id, locked.owner, locked.closed) == (
        False, 1, None, None, [])
    assert locked.motivation_score == lead.motivation_score and locked.motivation_reasons == ()
    assert (locked.absentee_owner, locked.out_of_state_owner) == (True, True)
    assert record_section(locked).source_line == "Public record: Philadelphia Sheriff's Office, Sheriff Sales (Bid4Assets)"
    assert set(locked.basis) == {"market_value", "arv", "rehab", "roi", "confidence"}
    assert OWNER not in repr(locked) and "100200300" not in repr(locked) and "OCEAN" not in repr(locked)
    user = make_user(db_url, credits=500)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    opened = record_views.public_record_panel(lead.id, user.id, titles=TITLES, database_url=db_url)
    assert (opened.unlocked, opened.parcel_id, opened.owner.name) == (True, "100200300", OWNER)
    assert opened.closed == ["Tax delinquent as of Oct 1, 2026: no longer in the dataset as of 2026-11-25 (history)"]
    assert opened.motivation_reasons == tuple(lead.raw_data["motivation_reasons"]) != ()
    assert record_section(opened).source_line == ("Public record: Philadelphia Sheriff's Office, Sheriff Sales "
                                                  "(Bid4Assets), record 77, retrieved Nov 25, 2026, 12:00 PM UTC")
    assert record_views.public_record_panel(uuid.uuid4(), user.id, titles=TITLES, database_url=db_url) is None
    assert record_views.public_record_panel("junk", user.id, titles=TITLES, database_url=db_url) is None
    generated = add_lead(db_url)  # a lead not made from public records has no panel
    assert record_views.public_record_panel(generated, user.id, titles=TITLES, database_url=db_url) is None
