"""The RentCast lead source against a local fake RentCast (real HTTP, no mocks)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

import pytest

from marketplace.platform import pricing
from marketplace.features.marketplace.rules_criteria import CriteriaError, Range, SearchCriteria
from marketplace.platform.leads import SOURCE_FOR_TYPE
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_http import HttpLeadSource, lead_type_for
from marketplace.features.scrape.source_markets import DEFAULT_MARKETS, matches
from tests.fakes.rentcast import LISTINGS, VALUE, FakeRentCast

KEY = "test-key"
NOW = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def listing(n: int = 1, **fields: Any) -> dict[str, Any]:
    """A sale listing shaped like RentCast's documented example."""
    street = f"{3800 + n} Hargis St"
    city, state, zip_code = fields.get("city", "Austin"), fields.get("state", "TX"), fields.get("zipCode", "78723")
    record = {
        "id": f"{street.replace(' ', '-')},-{city},-{state}-{zip_code}",
        "formattedAddress": f"{street}, {city}, {state} {zip_code}",
        "addressLine1": street,
        "addressLine2": None,
        "city": city,
        "state": state,
        "zipCode": zip_code,
        "county": "Travis",
        "latitude": 30.290643,
        "longitude": -97.701547,
        "propertyType": "Single Family",
        "bedrooms": 3,
        "bathrooms": 2,
        "squareFootage": 1500,
        "yearBuilt": 1998,
        "status": "Active",
        "price": 250_000,
        "listingType": "Standard",
        "daysOnMarket": 12,
        "mlsName": "UnlockMLS",
        "listingAgent": {"name": "Jennifer Welch", "phone": "5124313110"},
        "listingOffice": {"name": "Gottesman Residential R.E."},
    }
    record.update(fields)
    return record


@pytest.fixture
def fake() -> Iterator[FakeRentCast]:
    with FakeRentCast(api_key=KEY) as server:
        yield server


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def make_source(fake: FakeRentCast, sleeps: list[float]) -> Iterator[Callable[..., HttpLeadSource]]:
    created: list[HttpLeadSource] = []

    def make(**options: Any) -> HttpLeadSource:
        options = {"sleep": sleeps.append, "now": NOW, **options}
        source = HttpLeadSource(options.pop("base_url", fake.url), options.pop("api_key", KEY), **options)
        created.append(source)
        return source

    yield make
    for source in created:
        source.close()


def _offsets(fake: FakeRentCast) -> list[tuple[str | None, int]]:
    return [(r.params.get("city"), int(r.params["offset"])) for r in fake.requests_to(LISTINGS)]


# --------------------------------------------------------------------------- mapping


def test_one_listing_maps_field_by_field(fake, make_source):
    record = listing(
        21,
        bedrooms=4,
        bathrooms=2.5,
        squareFootage=2000,
        yearBuilt=2008,
        price=300_000,
        listingType="Foreclosure",
        daysOnMarket=99,
        listingUrl="https://www.zillow.com/homedetails/3821-Hargis-St/123_zpid/",
        photos=[
            "https://photos.zillowstatic.com/fp/a.jpg",
            "http://photos.zillowstatic.com/fp/plain-http.jpg",
            "https://evil.example.com/c.jpg",
            "https://ap.rdcpix.com/d.jpg",
        ],
    )
    fake.listings = [record]
    fake.values[record["formattedAddress"]] = {
        "price": 400_000, "priceRangeLow": 380_000, "priceRangeHigh": 420_000,
        "latitude": 30.29, "longitude": -97.70, "comparables": [{"id": "a"}, {"id": "b"}],
    }

    [lead] = make_source().search(SearchCriteria(count=5, cities=("Austin, TX",)))

    assert lead["external_id"] == "rentcast:3821-Hargis-St,-Austin,-TX-78723"
    assert lead["id"].version == 4
    assert (lead["address"], lead["city"], lead["state"]) == ("3821 Hargis St", "Austin", "TX")
    assert lead["zip_code"] == "78723"
    assert (lead["latitude"], lead["longitude"]) == (30.290643, -97.701547)
    assert lead["lead_type"] == "Pre-Foreclosure"
    assert lead["source"] == "Notice of Default Filings"
    assert lead["asking_price"] == 300_000
    assert lead["zestimate"] == 400_000  # the AVM value
    assert lead["arv"] == 460_000  # 400,000 x 1.15 (neutral condition)
    assert lead["rehab_estimate"] == 63_000  # 2,000 sqft x $31.5
    assert lead["roi"] == 26.7  # (460,000 - 363,000) / 363,000
    assert lead["is_high_roi"] is True
    assert (lead["beds"], lead["baths"], lead["square_footage"]) == (4, 2.5, 2000)
    assert lead["confidence_score"] == 98  # 70 (pre-foreclosure) + 7 known items x 4
    assert lead["credit_cost"] == 150
    assert lead["image_urls"] == ["https://photos.zillowstatic.com/fp/a.jpg", "https://ap.rdcpix.com/d.jpg"]
    assert lead["primary_image_url"] == "https://photos.zillowstatic.com/fp/a.jpg"
    assert lead["images_fetch_status"] == "success"
    assert (lead["is_new"], lead["is_active"], lead["created_at"]) == (True, True, NOW)
    raw = lead["raw_data"]
    assert raw["listing_url"] == "https://www.zillow.com/homedetails/3821-Hargis-St/123_zpid/"
    assert raw["zestimate_source"] == "rentcast_avm"
    assert raw["rentcast_value"] == {"price": 400_000, "priceRangeLow": 380_000, "priceRangeHigh": 420_000,
                                     "comparables": 2}
    assert (raw["listing_type"], raw["days_on_market"], raw["year_built"], raw["county"]) == (
        "Foreclosure", 99, 2008, "Travis")
    assert raw["rentcast"] == record

    [query] = fake.requests_to(LISTINGS)
    assert query.params == {"status": "Active", "city": "Austin", "state": "TX", "limit": "50", "offset": "0"}
    assert query.headers["x-api-key"] == KEY
    [value_query] = fake.requests_to(VALUE)
    assert value_query.params == {"address": "3821 Hargis St, Austin, TX 78723", "propertyType": "Single Family",
                                  "bedrooms": "4", "bathrooms": "2.5", "squareFootage": "2000"}


@pytest.mark.parametrize("fetch_values", [False, True])
def test_without_a_value_estimate_the_market_value_comes_from_the_price_and_is_flagged(fake, make_source, fetch_values):
    fake.listings = [listing(price=288_000, squareFootage=2000)]  # no AVM value: the fake answers 404

    [lead] = make_source(fetch_values=fetch_values).search(SearchCriteria(count=1, states=("TX",)))

    assert lead["lead_type"] == "Make Me Move"
    assert lead["zestimate"] == 300_000  # 288,000 / (1 - 0.04), the middle of the type's discount range
    assert lead["arv"] == 345_000
    assert lead["rehab_estimate"] == 63_000
    assert lead["roi"] == pricing.compute_roi(345_000, 288_000, 63_000) == -1.7
    assert lead["confidence_score"] == 94  # 74 (make me move) + 5 known items x 4: no listing URL or AVM value
    assert lead["images_fetch_status"] == "no_images" and lead["image_urls"] == []
    assert lead["raw_data"]["zestimate_source"] == "price_estimate"
    assert "rentcast_value" not in lead["raw_data"]
    assert len(fake.requests_to(VALUE)) == (1 if fetch_values else 0)


@pytest.mark.parametrize(
    ("fields", "lead_type"),
    [
        ({"listingType": "Standard"}, "Make Me Move"),
        ({"listingType": "New Construction"}, "Make Me Move"),
        ({"listingType": None}, "Make Me Move"),
        ({"listingType": "Short Sale"}, "Pre-Foreclosure"),
        ({"listingType": "Foreclosure"}, "Pre-Foreclosure"),
        ({"listingType": "Foreclosure", "listingOffice": {"name": "Auction.com"}}, "Auction"),
        ({"listingType": "Foreclosure", "mlsName": "Xome Auctions"}, "Auction"),
        ({"listingType": "Trustee Sale"}, "Auction"),
        ({"listingType": "Probate Sale"}, "Probate"),
        ({"listingType": "Tax Deed"}, "Tax Delinquent"),
        ({"listingType": "Vacant Property"}, "Vacancy"),
    ],
)
def test_lead_type_mapping(fields, lead_type):
    assert lead_type_for(listing(**fields)) == lead_type


def test_incomplete_and_land_listings_are_skipped(fake, make_source):
    fake.listings = [
        listing(1, price=None),
        listing(2, zipCode=None),
        listing(3, addressLine1=None, formattedAddress=None),
        listing(4, propertyType="Land", bedrooms=None, bathrooms=None, squareFootage=None),
        listing(5, addressLine1=None, addressLine2="Unit 4"),  # street taken from formattedAddress
    ]
    leads = make_source(fetch_values=False).search(SearchCriteria(count=10, cities=("Austin, TX",)))
    assert [lead["address"] for lead in leads] == ["3805 Hargis St Unit 4"]


def test_unknown_square_footage_gives_no_rehab_estimate_and_no_roi(fake, make_source):
    fake.listings = [listing(squareFootage=None)]
    [lead] = make_source(fetch_values=False).search(SearchCriteria(count=1, states=("TX",)))
    assert (lead["rehab_estimate"], lead["roi"], lead["is_high_roi"]) == (None, None, False)
    assert lead["square_footage"] is None


def test_an_id_too_long_for_the_column_is_stored_as_its_digest(fake, make_source):
    fake.listings = [listing(id="x" * 200)]
    [lead] = make_source(fetch_values=False).search(SearchCriteria(count=1, states=("TX",)))
    assert lead["external_id"].startswith("rentcast:sha256:") and len(lead["external_id"]) <= 128


def test_images_for_returns_nothing():
    source = HttpLeadSource("http://127.0.0.1:9", KEY)
    assert source.images_for({"external_id": "rentcast:x"}) == []
    source.close()


# --------------------------------------------------------------------------- queries and paging


def test_pages_with_limit_and_offset_until_enough(fake, make_source):
    fake.listings = [listing(n) for n in range(7)]
    leads = make_source(page_size=3, fetch_values=False).search(SearchCriteria(count=5, cities=("Austin, TX",)))
    assert len(leads) == 5
    assert _offsets(fake) == [("Austin", 0), ("Austin", 3)]
    assert {r.params["limit"] for r in fake.requests_to(LISTINGS)} == {"3"}


@pytest.mark.parametrize(("available", "offsets"), [(7, [0, 3, 6]), (6, [0, 3, 6])])
def test_pages_until_the_provider_runs_out(fake, make_source, available, offsets):
    fake.listings = [listing(n) for n in range(available)]
    leads = make_source(page_size=3, fetch_values=False).search(SearchCriteria(count=10, cities=("Austin, TX",)))
    assert len(leads) == available
    assert _offsets(fake) == [("Austin", offset) for offset in offsets]
    assert len({lead["external_id"] for lead in leads}) == available


def test_markets_are_paged_in_turn(fake, make_source):
    fake.listings = [listing(n) for n in range(4)] + [listing(n, city="Dallas", zipCode="75201") for n in range(4)]
    leads = make_source(page_size=2, fetch_values=False).search(
        SearchCriteria(count=8, cities=("Austin, TX", "Dallas, TX")))
    assert len(leads) == 8
    assert _offsets(fake) == [("Austin", 0), ("Dallas", 0), ("Austin", 2), ("Dallas", 2)]


def test_one_query_per_city_and_state_pair(fake, make_source):
    source = make_source(fetch_values=False)
    source.search(SearchCriteria(count=5, cities=("austin", "McAllen, TX"), states=("TX",)))
    assert [(r.params["city"], r.params["state"]) for r in fake.requests_to(LISTINGS)] == [
        ("Austin", "TX"), ("McAllen", "TX")]


def test_states_without_cities_are_queried_by_state(fake, make_source):
    make_source(fetch_values=False).search(SearchCriteria(count=5, states=("az", "NV")))
    queries = fake.requests_to(LISTINGS)
    assert [r.params.get("state") for r in queries] == ["AZ", "NV"]
    assert all("city" not in r.params for r in queries)


def test_no_location_queries_the_default_markets(fake, make_source):
    make_source(fetch_values=False).search(SearchCriteria(count=5))
    assert [(r.params["city"], r.params["state"]) for r in fake.requests_to(LISTINGS)] == DEFAULT_MARKETS


def test_an_exact_bed_count_is_sent_to_the_provider(fake, make_source):
    fake.listings = [listing(1, bedrooms=3), listing(2, bedrooms=4)]
    leads = make_source(fetch_values=False).search(SearchCriteria(count=5, states=("TX",), beds=Range(3, 3)))
    assert [lead["beds"] for lead in leads] == [3]
    assert fake.requests_to(LISTINGS)[0].params["bedrooms"] == "3"


def test_every_criterion_is_honoured(fake, make_source):
    records = []
    for n in range(24):
        record = listing(n, price=150_000 + 15_000 * n, bedrooms=2 + n % 3, squareFootage=1200 + 50 * n,
                         listingType=("Standard", "Foreclosure", "Short Sale")[n % 3])
        records.append(record)
        if n % 4:  # a quarter have no AVM value
            fake.values[record["formattedAddress"]] = {"price": int(record["price"] * (1.0 + 0.1 * (n % 5)))}
    fake.listings = records
    criteria = SearchCriteria(count=50, cities=("Austin, TX",), price=Range(200_000, 400_000), beds=Range(3, None),
                              roi=Range(10, None), confidence=Range(80, None))

    leads = make_source().search(criteria)
    everything = make_source().search(SearchCriteria(count=50, cities=("Austin, TX",)))

    assert len(everything) == 24
    expected = [lead["external_id"] for lead in everything if matches(lead, criteria)]
    assert 0 < len(expected) < 24
    assert [lead["external_id"] for lead in leads] == expected
    for lead in leads:
        assert 200_000 <= lead["asking_price"] <= 400_000 and lead["beds"] >= 3
        assert lead["roi"] >= 10 and lead["confidence_score"] >= 80
        assert lead["roi"] == pricing.compute_roi(lead["arv"], lead["asking_price"], lead["rehab_estimate"])
        assert lead["is_high_roi"] == pricing.is_high_roi(lead["roi"])
        assert lead["credit_cost"] == pricing.credit_cost_for_confidence(lead["confidence_score"])
        assert lead["source"] == SOURCE_FOR_TYPE[lead["lead_type"]]
    # Value estimates are asked for only the listings within the price and beds ranges.
    in_range = [r for r in records if 200_000 <= r["price"] <= 400_000 and r["bedrooms"] >= 3]
    assert len(fake.requests_to(VALUE)) == len(in_range) + 24  # + the unfiltered search


def test_lead_types_and_sources_are_honoured(fake, make_source):
    fake.listings = [listing(n, listingType=("Standard", "Foreclosure", "Short Sale")[n % 3]) for n in range(9)]
    source = make_source(fetch_values=False)
    by_type = source.search(SearchCriteria(count=9, states=("TX",), lead_types=("Pre-Foreclosure",)))
    by_source = source.search(SearchCriteria(count=9, states=("TX",), sources=("Make Me Move Listings",)))
    assert len(by_type) == 6 and {lead["lead_type"] for lead in by_type} == {"Pre-Foreclosure"}
    assert len(by_source) == 3 and {lead["lead_type"] for lead in by_source} == {"Make Me Move"}


def test_returns_at_most_count(fake, make_source):
    fake.listings = [listing(n) for n in range(10)]
    assert len(make_source(fetch_values=False).search(SearchCriteria(count=4, states=("TX",)))) == 4


@pytest.mark.parametrize(
    ("criteria", "message"),
    [(SearchCriteria(count=0), "Lead count must be between 1 and 1000."),
     (SearchCriteria(count=5, states=("ZZ",)), "Unknown state code: ZZ."),
     (SearchCriteria(count=5, price=Range(300_000, 100_000)), "Price: the minimum"),
     (SearchCriteria(count=5, cities=("Atlantis",)), "No such city: Atlantis.")],
)
def test_invalid_criteria_fail_before_any_request(fake, make_source, criteria, message):
    with pytest.raises(CriteriaError, match=message):
        make_source().search(criteria)
    assert fake.requests == []


# --------------------------------------------------------------------------- failures and retries


def test_429_is_retried_after_the_retry_after_delay(fake, make_source, sleeps):
    fake.listings = [listing()]
    fake.script(LISTINGS, status=429, headers={"Retry-After": "7"}, times=2)
    leads = make_source(fetch_values=False).search(SearchCriteria(count=1, states=("TX",)))
    assert len(leads) == 1
    assert len(fake.requests_to(LISTINGS)) == 3
    assert sleeps == [7.0, 7.0]


@pytest.mark.parametrize(
    ("retry_after", "slept"),
    [("3600", 60.0),  # capped
     ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # an HTTP date already past
     ("soon", 0.5)],  # unreadable: the backoff
)
def test_retry_after_forms_and_cap(fake, make_source, sleeps, retry_after, slept):
    fake.listings = [listing()]
    fake.script(LISTINGS, status=429, headers={"Retry-After": retry_after})
    make_source(fetch_values=False).search(SearchCriteria(count=1, states=("TX",)))
    assert sleeps == [slept]


def test_value_estimates_are_retried_too(fake, make_source, sleeps):
    record = listing()
    fake.listings, fake.values[record["formattedAddress"]] = [record], {"price": 300_000}
    fake.script(VALUE, status=503)
    [lead] = make_source().search(SearchCriteria(count=1, states=("TX",)))
    assert lead["zestimate"] == 300_000
    assert len(fake.requests_to(VALUE)) == 2 and sleeps == [0.5]


def test_500_fails_after_max_retries_plus_one_attempts_with_exponential_backoff(fake, make_source, sleeps):
    fake.script(LISTINGS, status=500, times=100)
    with pytest.raises(SourceError, match=r"^RentCast returned HTTP 500 after 5 attempts on /listings/sale\.$"):
        make_source().search(SearchCriteria(count=1, states=("TX",)))
    assert len(fake.requests) == 5
    assert sleeps == [0.5, 1.0, 2.0, 4.0]


def test_a_slow_answer_times_out(fake, make_source, sleeps):
    fake.script(LISTINGS, delay=2.0, times=100)
    source = make_source(timeout=0.2, max_retries=1)
    with pytest.raises(SourceError, match=r"RentCast did not answer within 0.2s after 2 attempts"):
        source.search(SearchCriteria(count=1, states=("TX",)))
    assert len(fake.requests) == 2
    assert sleeps == [0.5]


def test_an_unreachable_provider_fails_after_retries(make_source, sleeps):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    source = make_source(base_url=f"http://127.0.0.1:{port}/v1", max_retries=2)
    with pytest.raises(SourceError, match=r"RentCast could not be reached .* after 3 attempts"):
        source.search(SearchCriteria(count=1, states=("TX",)))
    assert sleeps == [0.5, 1.0]


def test_malformed_json_fails_without_retry(fake, make_source, sleeps):
    fake.script(LISTINGS, body=b'[{"id": "3821-Hargis', headers={"Content-Type": "application/json"})
    with pytest.raises(SourceError, match="RentCast sent malformed JSON on /listings/sale"):
        make_source().search(SearchCriteria(count=1, states=("TX",)))
    assert len(fake.requests) == 1 and sleeps == []


@pytest.mark.parametrize("body", [{"listings": []}, ["not a listing"]])
def test_an_unexpected_shape_fails(fake, make_source, body):
    fake.script(LISTINGS, body=body)
    with pytest.raises(SourceError, match="RentCast sent an unexpected answer on /listings/sale"):
        make_source().search(SearchCriteria(count=1, states=("TX",)))


def test_a_bad_api_key_fails_at_once(fake, make_source, sleeps):
    with pytest.raises(SourceError, match=r"RentCast rejected the API key \(HTTP 401\): Your API key is invalid\."):
        make_source(api_key="wrong-key").search(SearchCriteria(count=1, states=("TX",)))
    assert len(fake.requests) == 1 and sleeps == []


def test_other_client_errors_are_not_retried(fake, make_source, sleeps):
    fake.script(LISTINGS, status=400, body={"status": 400, "error": "resource/bad-request", "message": "Bad state"})
    with pytest.raises(SourceError, match=r"RentCast refused the request to /listings/sale \(HTTP 400\): Bad state"):
        make_source().search(SearchCriteria(count=1, states=("TX",)))
    assert len(fake.requests) == 1 and sleeps == []


# --------------------------------------------------------------------------- configuration


def test_from_env_requires_the_api_key(monkeypatch):
    monkeypatch.delenv("LEAD_SOURCE_API_KEY", raising=False)
    with pytest.raises(SourceError, match="^LEAD_SOURCE_API_KEY is not set"):
        HttpLeadSource.from_env()


def test_from_env_reads_url_key_and_timeout(monkeypatch, fake):
    monkeypatch.setenv("LEAD_SOURCE_API_KEY", KEY)
    monkeypatch.setenv("LEAD_SOURCE_URL", fake.url + "/")
    monkeypatch.setenv("LEAD_SOURCE_TIMEOUT", "2.5")
    monkeypatch.setenv("LEAD_SOURCE_FETCH_VALUES", "0")
    fake.listings = [listing()]
    with HttpLeadSource.from_env() as source:
        assert (source.api.base_url, source.api.timeout, source.fetch_values) == (fake.url, 2.5, False)
        assert len(source.search(SearchCriteria(count=1, states=("TX",)))) == 1
    assert fake.requests_to(LISTINGS)[0].headers["x-api-key"] == KEY


def test_from_env_defaults_to_rentcast(monkeypatch):
    monkeypatch.setenv("LEAD_SOURCE_API_KEY", KEY)
    for name in ("LEAD_SOURCE_URL", "LEAD_SOURCE_TIMEOUT", "LEAD_SOURCE_FETCH_VALUES"):
        monkeypatch.delenv(name, raising=False)
    with HttpLeadSource.from_env() as source:
        assert (source.api.base_url, source.api.timeout) == ("https://api.rentcast.io/v1", 10.0)
        assert source.fetch_values is True


def test_from_env_rejects_a_bad_timeout(monkeypatch):
    monkeypatch.setenv("LEAD_SOURCE_API_KEY", KEY)
    monkeypatch.setenv("LEAD_SOURCE_TIMEOUT", "soon")
    with pytest.raises(SourceError, match="LEAD_SOURCE_TIMEOUT must be a number of seconds"):
        HttpLeadSource.from_env()
