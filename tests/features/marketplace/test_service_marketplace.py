"""The marketplace query against a Python reference over every active lead."""

import pytest
import sqlalchemy as sa

from marketplace.features.marketplace import rules
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, UserLead, utcnow
from marketplace.features.marketplace import service as svc
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.scrape.source_builtin import BuiltinSource


@pytest.fixture
def leads(db_url):
    rows = BuiltinSource(seed=11).search(SearchCriteria(count=400))
    for i, row in enumerate(rows):  # edge cases: missing values and band boundaries
        if i % 37 == 0:
            row["roi"] = None
        if i % 41 == 0:
            row["roi"] = 30.0
        if i % 43 == 0:
            row["square_footage"] = 1000
        if i % 47 == 0:
            row["asking_price"] = None
        if i % 9 == 0:
            row["is_new"] = False
    rows[5]["is_active"] = False
    seeding.insert_leads(rows)
    return rows


def _reference(rows, filters, unlocked=frozenset()):
    def ok(r):
        if not r.get("is_active", True):
            return False
        if filters.lead_types and r["lead_type"] not in filters.lead_types:
            return False
        if filters.roi_ranges and rules.roi_band(r["roi"]) not in filters.roi_ranges:
            return False
        if filters.sizes and rules.size_band(r["square_footage"]) not in filters.sizes:
            return False
        if filters.states and r["state"] not in filters.states:
            return False
        if filters.cities and r["city"].lower() not in {c.lower() for c in filters.cities}:
            return False
        if filters.zips and r["zip_code"] not in filters.zips:
            return False
        price = r["asking_price"]
        if filters.has_price and (price is None or (filters.min_price is not None and price < filters.min_price)
                                  or (filters.max_price is not None and price > filters.max_price)):
            return False
        if filters.tags:
            hits = {"new": r["is_new"], "high_roi": r["is_high_roi"], "vacant": r["lead_type"] == "Vacancy",
                    "auction_soon": sale_dates.is_auction_soon(r["sale_date"], sale_dates.local_today(utcnow())),
                    "unlocked": str(r["id"]) in unlocked}
            if not any(hits[t] for t in filters.tags):
                return False
        return True

    return [r for r in rows if ok(r)]


FILTER_CASES = [
    rules.Filters(),
    rules.Filters(lead_types=("Probate", "Auction")),
    rules.Filters(roi_ranges=("gt30", "unknown")),
    rules.Filters(roi_ranges=("lt0",)),  # a loss is a band of its own, never Unknown
    rules.Filters(roi_ranges=("unknown",)),
    rules.Filters(roi_ranges=("20-30",), sizes=("small", "large")),
    rules.Filters(tags=("new", "vacant")),
    rules.Filters(lead_types=("Vacancy",), tags=("high_roi",), sizes=("medium",)),
    rules.Filters(roi_ranges=("0-10", "10-20"), tags=("auction_soon",)),
    # Location and price (issue 24 #8): counted over leads, not lead_facets.
    rules.Filters(states=("TX",)),
    rules.Filters(states=("FL", "AZ"), lead_types=("Probate", "Auction", "Pre-Foreclosure")),
    rules.Filters(cities=("MIAMI", "phoenix")),
    rules.Filters(states=("FL",), cities=("Phoenix",)),  # Phoenix is not in Florida: nothing
    rules.Filters(zips=("33613", "83716", "19143")),
    rules.Filters(min_price=200000, max_price=400000),
    rules.Filters(min_price=0),  # every lead with an asking price
    rules.Filters(max_price=250000, states=("TX", "FL"), tags=("new",)),
    rules.Filters(min_price=333600, max_price=333600),  # both ends included
]


@pytest.mark.parametrize("filters", FILTER_CASES, ids=lambda f: f.to_query() or "all")
def test_counts_and_pages_match_the_reference(leads, filters):
    expected = _reference(leads, filters)
    page = svc.query_page(filters)
    assert page.total == len(expected)
    assert {c.id for c in page.cards} <= {str(r["id"]) for r in expected}
    assert len(page.cards) == min(20, len(expected))


@pytest.mark.parametrize("sort", [s for s, _ in rules.SORTS])
def test_sorts_walk_every_page_in_order(leads, sort):
    filters = rules.Filters(sort=sort, page_size=50)
    seen = []
    for number in range(1, svc.query_page(filters).pages + 1):
        seen.extend(svc.query_page(rules.Filters(sort=sort, page_size=50, page=number)).cards)
    active = [r for r in leads if r.get("is_active", True)]
    assert len(seen) == len(active) and len({c.id for c in seen}) == len(active)
    key = {"roi_desc": "roi", "price_asc": "asking_price", "zestimate_desc": "zestimate",
           "sqft_asc": "square_footage"}.get(sort)
    if key:
        values = [getattr(c, key) for c in seen]
        present = [v for v in values if v is not None]
        assert values[: len(present)] == present  # missing values come last
        assert present == sorted(present, reverse=sort.endswith("desc"))


def test_a_price_range_hides_leads_without_a_price(leads):
    without = [r for r in leads if r.get("is_active", True) and r["asking_price"] is None]
    assert without
    shown = {c.id for n in (1, 2, 3, 4) for c in svc.query_page(rules.Filters(min_price=0, page_size=100, page=n)).cards}
    assert not shown & {str(r["id"]) for r in without}
    assert svc.query_page(rules.Filters(min_price=0)).total == len([r for r in leads if r.get("is_active", True)]) - len(
        without)


def test_place_and_price_filters_page_in_sort_order(leads):
    filters = rules.Filters(states=("FL", "TX", "AZ"), min_price=150000, sort="price_asc", page_size=20)
    expected = sorted(_reference(leads, filters), key=lambda r: (r["asking_price"], str(r["id"])))
    seen = []
    for number in range(1, svc.query_page(filters).pages + 1):
        seen.extend(svc.query_page(rules.Filters(**{**filters.__dict__, "page": number})).cards)
    assert [c.asking_price for c in seen] == [r["asking_price"] for r in expected]
    assert {c.id for c in seen} == {str(r["id"]) for r in expected}
    assert all(c.state in ("FL", "TX", "AZ") and c.asking_price >= 150000 for c in seen)


def test_city_suggestions_are_the_cities_of_the_chosen_states(leads):
    active = [r for r in leads if r.get("is_active", True)]
    assert svc.city_suggestions(["TX"]) == sorted({r["city"] for r in active if r["state"] == "TX"}, key=str.lower)
    both = svc.city_suggestions(["TX", "FL"])
    assert set(both) == {r["city"] for r in active if r["state"] in ("TX", "FL")}
    assert svc.city_suggestions([]) == [] and svc.city_suggestions(["WY", "VT"]) == sorted(
        {r["city"] for r in active if r["state"] in ("WY", "VT")})


def test_locked_addresses_are_masked_and_unlocked_shown(leads, new_user):
    user = new_user()
    target = next(r for r in leads if r.get("is_active", True))
    with session_scope() as s:
        s.add(UserLead(user_id=user.id, lead_id=target["id"], credit_cost=85))
    cards = {c.id: c for c in svc.query_page(rules.Filters(tags=("unlocked",)), user_id=user.id).cards}
    assert set(cards) == {str(target["id"])}
    assert cards[str(target["id"])].address == target["address"] and cards[str(target["id"])].unlocked
    anonymous = svc.query_page(rules.Filters(page_size=100))
    full = {r["address"] for r in leads}
    assert all(c.address not in full and c.address.startswith("••••") for c in anonymous.cards)
    assert svc.query_page(rules.Filters(tags=("unlocked",))).total == 0  # signed out


def test_a_page_past_the_end_is_clamped(leads):
    page = svc.query_page(rules.Filters(page=999))
    assert page.page == page.pages and page.cards


@pytest.mark.parametrize("filters", [rules.Filters(), rules.Filters(lead_types=("Probate", "Auction"), sort="price_asc")],
                         ids=["all", "filtered"])
def test_next_pictures_are_the_first_pictures_of_the_next_page(leads, filters):
    page = svc.query_page(filters)
    following = svc.query_page(rules.Filters(**{**filters.__dict__, "page": 2}))
    expected = [c.images[0] for c in following.cards[: rules.PREFETCH_PICTURES] if c.images]
    assert expected and page.next_pictures == expected
    assert svc.query_page(rules.Filters(**{**filters.__dict__, "page": page.pages})).next_pictures == []


def test_facets_follow_refresh_and_archiving(leads):
    with get_engine().begin() as conn:
        conn.execute(sa.update(Lead.__table__).values(is_active=False).where(Lead.__table__.c.lead_type == "Probate"))
        svc.rebuild_facets(conn)
    f = rules.Filters(lead_types=("Probate",))
    assert svc.query_page(f).total == 0 == len(svc.query_page(f).cards)


def test_a_generated_lead_s_card_says_demo_data_and_carries_its_illustration(leads, db_url):
    """Issue 24: every generated lead is labelled; a lead from elsewhere is not."""
    from tests import factories

    other = factories.add_lead(raw_data={"parcel_id": "123-456-789"}, confidence_score=100, roi=99.0)
    cards = svc.query_page(rules.Filters(page_size=100)).cards
    by_id = {card.id: card for card in cards}
    assert by_id[str(other)].provenance == ""
    generated = [card for card in cards if card.id != str(other)]
    assert generated and all(card.provenance == "Demo data (generated)" for card in generated)
    assert all(len(card.images) == 1 and card.images[0].startswith("/api/images/house/") for card in generated)
    assert all(card.image_status == "no_images" for card in generated)


@pytest.mark.parametrize("filters", [
    rules.Filters(tags=("new",)),  # counted from lead_facets
    rules.Filters(lead_types=("Probate", "Auction"), min_price=1),  # counted over leads
], ids=["facets", "leads"])
def test_a_query_builds_its_conditions_once(leads, monkeypatch, filters):
    """The count, the page and the next page's pictures share one set of conditions; so do the
    map's points and its count past the cap."""
    from marketplace.features.marketplace import service_map as map_service

    built = []
    real = svc._lead_conditions

    def counted(*args):
        built.append(args)
        return real(*args)

    monkeypatch.setattr(svc, "_lead_conditions", counted)
    monkeypatch.setattr(map_service, "_lead_conditions", counted)
    page = svc.query_page(filters, user_id=None)
    assert page.pages > 1 and page.next_pictures and len(built) == 1  # the next page's pictures too
    assert svc.counted_from_facets(filters) == (not filters.has_price)
    built.clear()
    points = map_service.map_points(filters, limit=3)
    assert points.capped and len(built) == 1
