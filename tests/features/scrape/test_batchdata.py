"""BatchData property search against a local fake BatchData (real HTTP, no mocks), synthetic fixture data."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import httpx
import pytest

from marketplace.features.marketplace.rules_criteria import CriteriaError
from marketplace.features.records.rules_motivation import SignalFacts, lead_type_for, motivation
from marketplace.features.records.rules import SIGNAL_KINDS, MappedRecord, RejectedRow
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_batchdata import BatchDataClient, fetch_batchdata
from marketplace.features.scrape.source_batchdata_mapping import QUICK_LISTS
from tests.fakes.batchdata import SEARCH, FakeBatchData, fixture_properties

KEY = "bd-test-4f0c1e9a7d2b"
TODAY = date(2026, 11, 25)
PHOENIX = "Phoenix, AZ"


@pytest.fixture
def fake() -> Iterator[FakeBatchData]:
    with FakeBatchData(api_key=KEY) as server:
        yield server


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def make_client(fake: FakeBatchData, sleeps: list[float]) -> Iterator[Callable[..., BatchDataClient]]:
    created: list[BatchDataClient] = []

    def make(api_key: str = KEY, **options: Any) -> BatchDataClient:
        client = BatchDataClient(api_key, fake.url, **{"sleep": sleeps.append, "timeout": 5.0, **options})
        created.append(client)
        return client

    yield make
    for client in created:
        client.close()


def fetch(client: BatchDataClient, *lists: str, **options: Any) -> list[MappedRecord | RejectedRow]:
    return list(fetch_batchdata(list(lists), location=options.pop("location", PHOENIX), client=client,
                                today=TODAY, **options))


def by_street(rows: list[MappedRecord | RejectedRow]) -> dict[str, MappedRecord]:
    return {row.address: row for row in rows if isinstance(row, MappedRecord)}


def test_paging_reads_three_pages_with_skip_and_take_until_a_short_page(fake, make_client):
    rows = fetch(make_client(), "preforeclosure", page_size=3)

    # 7 Phoenix properties on the list (the Tucson one is not in the location): 3 + 3 + 1
    assert [(s.body["options"]["skip"], s.body["options"]["take"]) for s in fake.searches()] == [(0, 3), (3, 3), (6, 3)]
    assert len(rows) == 7
    assert sum(isinstance(row, MappedRecord) for row in rows) == 6
    assert "1201 N Stone Ave" not in by_street(rows)
    for search in fake.searches():
        assert search.body["searchCriteria"] == {"query": "Phoenix, AZ", "quickLists": ["preforeclosure"]}


def test_paging_stops_at_max_rows(fake, make_client):
    rows = fetch(make_client(), "preforeclosure", page_size=3, max_rows=4)

    assert len(rows) == 4
    assert [(s.body["options"]["skip"], s.body["options"]["take"]) for s in fake.searches()] == [(0, 3), (3, 1)]


def test_the_bearer_key_is_sent_on_every_request(fake, make_client):
    fetch(make_client(), "vacant", "inherited")

    assert len(fake.searches()) == 2
    assert {s.headers["authorization"] for s in fake.searches()} == {f"Bearer {KEY}"}
    assert [s.body["searchCriteria"]["quickLists"] for s in fake.searches()] == [["vacant"], ["inherited"]]


def test_each_quick_list_maps_to_its_signal_kind_with_provenance(fake, make_client):
    rows = fetch(make_client(), *QUICK_LISTS)
    records = [row for row in rows if isinstance(row, MappedRecord)]

    kinds = {(row.dataset_id, row.kind) for row in records}
    assert kinds == {
        ("batchdata-preforeclosure", "foreclosure"),
        ("batchdata-notice-of-default", "foreclosure"),
        ("batchdata-notice-of-lis-pendens", "foreclosure"),
        ("batchdata-notice-of-sale", "sale_list"),
        ("batchdata-active-auction", "sale_list"),
        ("batchdata-tax-default", "tax_delinquent"),
        ("batchdata-vacant", "vacant"),
        ("batchdata-inherited", "probate"),
    }
    assert all(row.kind in SIGNAL_KINDS for row in records)
    default = next(r for r in records
                   if r.dataset_id == "batchdata-notice-of-default" and r.address == "4127 W Roma Ave")
    assert default.record_key == "6a1f0001c3e2b7d4a9f0e101/notice-of-default"
    assert default.extra["Source"] == "BatchData property search (notice-of-default), retrieved Nov 25, 2026"
    # one property on two lists: two signals, two keys
    roma = sorted(r.record_key for r in records if r.address == "4127 W Roma Ave")
    assert roma == ["6a1f0001c3e2b7d4a9f0e101/notice-of-default", "6a1f0001c3e2b7d4a9f0e101/preforeclosure"]


def test_a_foreclosure_record_carries_the_notice_the_debt_the_owner_and_the_facts(make_client):
    rows = by_street(fetch(make_client(), "noticeOfDefault"))

    roma = rows["4127 W Roma Ave"]
    assert (roma.kind, roma.as_of, roma.notice_date, roma.amount_owed) == (
        "foreclosure", date(2026, 9, 3), date(2026, 9, 3), 14_238)  # $14,237.50 rounded half up
    assert (roma.city, roma.state, roma.zip_code, roma.parcel_id) == ("Phoenix", "AZ", "85019", "101-21-001A")
    assert (roma.latitude, roma.longitude) == (33.5021, -112.1436)
    assert (roma.owner_name, roma.mailing_address, roma.mailing_city, roma.mailing_state, roma.mailing_zip) == (
        "Daniel R Okafor", "4127 W Roma Ave", "Phoenix", "AZ", "85019")
    assert (roma.beds, roma.baths, roma.square_footage, roma.year_built) == (3, 2.0, 1410, 1971)
    assert (roma.assessed_value, roma.market_value, roma.value_year, roma.sale_price) == (
        21_100, 211_000, 2025, 185_500)
    # BatchData's AVM is an estimate: labelled as one, never the market value
    assert roma.extra["BatchData estimated value (AVM)"] == "$306,000"
    assert roma.extra["Unpaid balance (foreclosure document)"] == "$231,480"
    assert roma.extra["Lender"] == "Desert Plains Mortgage LLC"
    # a date-time and a thousands separator are read too
    pierce = rows["901 E Pierce St"]
    assert (pierce.notice_date, pierce.amount_owed) == (date(2026, 10, 14), 9_812)


def test_sale_lists_carry_the_auction_date_bid_debt_and_sale_type(make_client):
    rows = fetch(make_client(), "noticeOfSale", "activeAuction")
    notice = next(r for r in rows if r.dataset_id == "batchdata-notice-of-sale")
    sheriff = next(r for r in rows if r.dataset_id == "batchdata-active-auction" and r.address == "5119 S 31st Pl")

    assert (notice.kind, notice.sale_date, notice.sale_type, notice.opening_bid, notice.amount_owed) == (
        "sale_list", date(2026, 12, 15), "trustee", 172_450, 168_300)
    assert notice.extra["Auction location"] == "201 W Jefferson St"
    assert (sheriff.sale_date, sheriff.sale_type, sheriff.opening_bid, sheriff.amount_owed) == (
        date(2027, 1, 8), "sheriff", 98_000, 101_241)


def test_tax_default_and_vacant_records_say_only_what_batchdata_publishes(make_client):
    rows = by_street(fetch(make_client(), "taxDefault", "vacant"))

    tax = rows["1843 W Hazelwood St"]
    assert (tax.kind, tax.as_of, tax.delinquent_since, tax.amount_owed, tax.years_owed) == (
        "tax_delinquent", TODAY, date(2021, 1, 1), None, None)
    assert tax.extra["Yearly tax bill (2025)"] == "$1,642"
    vacant = rows["407 S 4th Ave"]
    assert (vacant.kind, vacant.as_of, vacant.unit, vacant.notice_date) == ("vacant", TODAY, "Unit 2", None)
    assert vacant.extra["Vacancy"] == "USPS flags the address as vacant (per BatchData)"


def test_inherited_is_a_probate_signal_labelled_as_a_deed_based_proxy(make_client):
    (record,) = [r for r in fetch(make_client(), "inherited") if isinstance(r, MappedRecord)]

    assert (record.dataset_id, record.kind, record.notice_date, record.as_of) == (
        "batchdata-inherited", "probate", date(2025, 8, 14), date(2025, 8, 14))
    assert record.extra["Quick list"] == "Inherited (deed-based probate proxy)"
    assert "deed-based probate proxy" in record.extra["Signal"]
    assert "not a probate court filing" in record.extra["Signal"]
    assert record.extra["Deed type"] == "Personal Representative's Deed"
    signal = SignalFacts(record.kind, record.as_of, notice_date=record.notice_date)
    assert lead_type_for([record.kind]) == "Probate"
    assert motivation([signal], market_value=record.market_value, today=TODAY).reasons == (
        "Inherited: the owner acquired it by inheritance on Aug 14, 2025 (deed-based probate proxy)",)


def test_malformed_properties_are_counted_as_rejected_rows(make_client):
    preforeclosure = fetch(make_client(), "preforeclosure")
    vacant = fetch(make_client(), "vacant")

    assert [r for r in preforeclosure if isinstance(r, RejectedRow)] == [RejectedRow(
        "batchdata-preforeclosure", 5, "foreclosure.recordingDate: '13/45/2011' is not a date")]
    assert [r for r in vacant if isinstance(r, RejectedRow)] == [RejectedRow(
        "batchdata-vacant", 2, "_id: missing (every BatchData property has one)")]


def test_unreadable_values_reject_the_row_and_missing_ones_are_none(sleeps):
    good = {"_id": "p1", "address": {"street": "1 Main St", "city": "Phoenix", "state": "AZ"},
            "quickLists": {"vacant": True}}
    properties = [
        "not an object",
        {**good, "_id": "p2", "address": {**good["address"], "latitude": "north"}},
        {**good, "_id": "p3", "address": {**good["address"], "zip": "85O08"}},
        {**good, "_id": "p4", "building": {"bedroomCount": 2.5}},
        {**good, "_id": "p5", "address": {"city": "Phoenix", "state": "AZ"}},
        {**good, "_id": "p6", "owner": {"mailingAddress": "PO Box 12"}},
        {**good, "_id": "p7", "valuation": {"estimatedValue": "twelve"}},
        {**good, "_id": "p8", "assessment": {"totalMarketValue": -5}},
        {**good, "_id": "p9", "address": {**good["address"], "longitude": float("nan")}},
        good,
    ]
    with FakeBatchData(api_key=KEY, properties=properties) as server, \
            BatchDataClient(KEY, server.url, sleep=sleeps.append) as client:
        rows = fetch(client, "vacant")

    assert [(r.row_number, r.reason) for r in rows if isinstance(r, RejectedRow)] == [
        (1, "property: expected an object, got 'not an object'"),
        (2, "address.latitude: 'north' is not a number"),
        (3, "address.zip: '85O08' is not a ZIP code"),
        (4, "building.bedroomCount: '2.5' is not a whole number"),
        (5, "address.street: missing (the property cannot be placed)"),
        (6, "owner.mailingAddress: expected an object, got 'PO Box 12'"),
        (7, "valuation.estimatedValue: 'twelve' is not an amount of money"),
        (8, "assessment.totalMarketValue: -5 is a negative amount"),
        (9, "address.longitude: nan is not a number"),
    ]
    (record,) = [r for r in rows if isinstance(r, MappedRecord)]
    assert (record.record_key, record.zip_code, record.owner_name, record.beds, record.market_value) == (
        "p1/vacant", None, None, None, None)


def test_a_property_not_flagged_for_the_list_it_came_from_is_rejected(fake, make_client):
    flagged_off = {"_id": "p9", "address": {"street": "9 Elm St", "city": "Phoenix", "state": "AZ"},
                   "quickLists": {"inherited": False}}
    fake.script(status=200, body={"status": {"code": 200, "text": "OK"},
                                  "results": {"properties": [flagged_off], "meta": {"results": {"resultCount": 1}}}})

    assert fetch(make_client(), "inherited") == [RejectedRow(
        "batchdata-inherited", 1, "quickLists.inherited: false for a property returned by the inherited search")]


def test_429_is_retried_after_retry_after_then_succeeds(fake, make_client, sleeps):
    fake.script(status=429, headers={"Retry-After": "2"})

    rows = fetch(make_client(), "inherited")

    assert sleeps == [2.0]
    assert len(fake.searches()) == 2
    assert [r.address for r in rows] == ["3902 E Monterosa St"]


def test_500_becomes_a_source_error_naming_batchdata_without_the_key(fake, make_client, sleeps):
    fake.script(status=500, times=10)

    with pytest.raises(SourceError) as caught:
        fetch(make_client(max_retries=2), "vacant")

    assert str(caught.value) == "BatchData returned HTTP 500 after 3 attempts on /property/search."
    assert KEY not in str(caught.value) and KEY not in repr(caught.value)
    assert sleeps == [0.5, 1.0]  # bounded exponential backoff


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_says_so_without_echoing_it(fake, make_client, status):
    wrong = "wrong-secret-0a9b8c7d"
    if status == 403:
        fake.script(status=403, body={"status": {"code": 403, "text": "Forbidden", "message": f"token {wrong}"}})

    with pytest.raises(SourceError) as caught:
        fetch(make_client(api_key=wrong), "vacant")

    assert str(caught.value) == f"BatchData refused the API key (HTTP {status}): check BATCHDATA_API_KEY."
    assert wrong not in str(caught.value) and wrong not in repr(make_client(api_key=wrong))
    assert len(fake.searches()) == 1  # not retried


def test_another_refusal_shows_batchdatas_message_scrubbed_of_the_key(fake, make_client):
    fake.script(status=400, body={"status": {"code": 400, "text": "Bad Request",
                                             "message": f"Bad token use {KEY} in searchCriteria"}})

    with pytest.raises(SourceError) as caught:
        fetch(make_client(), "vacant")

    assert str(caught.value) == (
        "BatchData refused the request to /property/search (HTTP 400): Bad token use [key] in searchCriteria")


@pytest.mark.parametrize("body, message", [
    (b"<html>oops", "BatchData sent malformed JSON on /property/search."),
    ({"status": {"code": 200}, "results": {"properties": {"_id": "x"}}},
     "BatchData sent an unexpected answer on /property/search: expected results.properties, a list."),
])
def test_an_unexpected_answer_is_a_source_error(fake, make_client, body, message):
    fake.script(status=200, body=body)

    with pytest.raises(SourceError) as caught:
        fetch(make_client(), "vacant")

    assert str(caught.value) == message


def test_the_fake_rejects_a_body_without_search_criteria_with_batchdatas_error_shape(fake):
    answer = httpx.post(f"{fake.url}/property/search", json={"options": {"take": 5}},
                        headers={"Authorization": f"Bearer {KEY}"})

    assert answer.status_code == 400
    assert answer.json() == {"status": {"code": 400, "text": "Bad Request", "message": '"searchCriteria" is required'}}


def test_bad_arguments_are_refused_before_any_request(fake, make_client):
    client = make_client()
    with pytest.raises(CriteriaError, match="Unknown BatchData quick list 'probate'"):
        fetch_batchdata(["probate"], location=PHOENIX, client=client)
    with pytest.raises(CriteriaError, match="needs a location"):
        fetch_batchdata(["vacant"], location="  ", client=client)
    with pytest.raises(CriteriaError, match="at least one"):
        fetch_batchdata([], location=PHOENIX, client=client)
    with pytest.raises(CriteriaError, match="Unknown BatchData quick list"):
        fetch_batchdata([{"vacant": True}], location=PHOENIX, client=client)
    with pytest.raises(CriteriaError, match="max_rows must be at least 1, not 0"):
        fetch_batchdata(["vacant"], location=PHOENIX, client=client, max_rows=0)
    assert fake.searches() == []
    # BatchData's own names are accepted too
    assert [r.dataset_id for r in fetch(client, "notice-of-lis-pendens")] == ["batchdata-notice-of-lis-pendens"]


def test_the_client_comes_from_the_settings(fake, monkeypatch):
    monkeypatch.delenv("BATCHDATA_API_KEY", raising=False)
    with pytest.raises(SourceError, match="BATCHDATA_API_KEY is not set"):
        list(fetch_batchdata(["vacant"], location=PHOENIX))

    monkeypatch.setenv("BATCHDATA_API_KEY", KEY)
    monkeypatch.setenv("BATCHDATA_BASE_URL", fake.url + "/")
    monkeypatch.setenv("BATCHDATA_MAX_ROWS", "1")
    rows = list(fetch_batchdata(["preforeclosure"], location=PHOENIX, today=TODAY))

    assert len(rows) == 1  # BATCHDATA_MAX_ROWS bounds the properties read per list
    assert fake.searches()[0].body["options"] == {"skip": 0, "take": 1}

    monkeypatch.setenv("BATCHDATA_TIMEOUT", "soon")
    with pytest.raises(SourceError, match="BATCHDATA_TIMEOUT must be a number of seconds, not 'soon'"):
        list(fetch_batchdata(["vacant"], location=PHOENIX))


def test_the_fixture_is_marked_synthetic():
    import json

    from tests.fakes.batchdata import FIXTURE

    assert json.loads(FIXTURE.read_text())["_comment"].startswith("SYNTHETIC")
    assert len(fixture_properties()) == 14
