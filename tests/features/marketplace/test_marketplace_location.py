"""``MarketplaceLocationState`` without a browser (real tabs: ``tests/platform/tabs.py``; the services
answered by ``tests/features/marketplace/recorders.py``): a
bad place or price shows its message and calls nothing; a good one is handed to the marketplace as
one ``Filters`` value (one ``query_page`` call); the price inputs and the city suggestions follow
the filters shown (one ``city_suggestions`` call per change of states)."""

from __future__ import annotations

import pytest

from marketplace.platform import texts as messages
from marketplace.platform.limits import MAX_PLACES
from marketplace.features.marketplace.rules import Filters
from marketplace.features.marketplace import state as state_module
from marketplace.features.marketplace import state_location as location_module
from marketplace.features.marketplace.state_location import MarketplaceLocationState
from tests.features.marketplace.recorders import Calls, lead_card, market, page_of
from tests.platform.tabs import answer, sessions_in_memory, substate


@pytest.fixture(autouse=True)
def _sessions(monkeypatch):
    """The tabs' users are made up: their sessions resolve from memory (no database)."""
    sessions_in_memory(monkeypatch)


@pytest.fixture
def services(monkeypatch):
    query = Calls(page_of([lead_card()]))
    cities = Calls(lambda states: [f"City of {state}" for state in states])
    monkeypatch.setattr(state_module, "query_page", query)
    monkeypatch.setattr(location_module, "city_suggestions", cities)
    return query, cities


def test_a_state_is_checked_added_once_and_brings_its_cities(services):
    query, cities = services
    tab = market()
    answer(tab.load())
    place = substate(tab, MarketplaceLocationState)
    for junk in ("ZZ", "", None, 5, ["XX"]):
        assert answer(place.add_state(junk)) is None and place.location_error == messages.STATE_INVALID
    assert len(query.calls) == 1 and cities.calls == []
    answer(place.add_state(["TX"]))
    assert query.calls[-1][0] == Filters(states=("TX",)) and place.location_error == ""
    assert cities.calls == [(("TX",),)] and place.city_options == ["City of TX"]
    answer(place.add_state("TX"))  # already chosen: the same filters, no new suggestions
    assert tab.chosen["states"] == ["TX"] and len(cities.calls) == 1
    answer(tab.toggle_filter("tags", "new"))  # other filters leave the suggestions alone
    assert len(cities.calls) == 1


def test_a_typed_city_or_zip_is_added_and_the_input_empties(services):
    query, _cities = services
    tab = market()
    answer(tab.load())
    place = substate(tab, MarketplaceLocationState)
    place.set_city_text("  austin ")
    answer(place.add_city({}))
    assert query.calls[-1][0].cities == ("austin",) and place.city_text == ""
    assert answer(place.add_zip({"zip": "7870"})) is None and place.location_error == messages.ZIP_INVALID
    answer(place.add_zip({"zip": "78701"}))
    assert tab.chosen["zips"] == ["78701"] and place.location_error == "" and len(query.calls) == 3
    assert [chip["label"] for chip in tab.filter_chips] == ["austin", "ZIP 78701"]


def test_places_past_the_limit_are_refused(services):
    query, _cities = services
    tab = market(query="&".join(f"zip={78701 + n}" for n in range(MAX_PLACES)))
    place = substate(tab, MarketplaceLocationState)
    answer(tab.load())
    assert answer(place.add_zip({"zip": "10001"})) is None
    assert place.location_error == messages.PLACES_LIMIT and len(query.calls) == 1
    answer(place.add_zip({"zip": "78701"}))  # one already chosen: no refusal
    assert place.location_error == "" and len(tab.chosen["zips"]) == MAX_PLACES


def test_the_price_range_is_checked_then_applied_once(services):
    query, _cities = services
    tab = market()
    answer(tab.load())
    place = substate(tab, MarketplaceLocationState)
    assert answer(place.apply_price({"min_price": "abc", "max_price": ""})) is None
    assert place.price_error == messages.PRICE_INVALID
    assert answer(place.apply_price({"min_price": "300000", "max_price": "200000"})) is None
    assert place.price_error == messages.PRICE_MIN_ABOVE_MAX and len(query.calls) == 1
    answer(place.apply_price({"min_price": "$250,000", "max_price": ""}))
    assert query.calls[-1][0] == Filters(min_price=250_000) and tab.has_price
    assert (place.price_min_text, place.price_max_text, place.price_error) == ("$250,000", "", "")
    place.set_price_min_text("250000")
    assert answer(place.apply_price({"min_price": "250000"})) is None  # the same range: shown as applied again
    assert place.price_min_text == "$250,000" and len(query.calls) == 2
    answer(tab.clear_filters())
    assert place.price_min_text == "" and not tab.has_price


def test_a_page_load_forgets_what_was_typed(services):
    _query, cities = services
    tab = market(query="state=TX")
    place = substate(tab, MarketplaceLocationState)
    answer(tab.load())
    place.set_city_text("Aus")
    place.location_error = messages.CITY_INVALID
    answer(tab.load())
    assert (place.city_text, place.location_error) == ("", "")
    assert len(cities.calls) == 2  # the suggestions are read afresh on every load


def _summary(cities: tuple[str, ...]):
    from datetime import date

    from marketplace.features.records.service_markets import MarketSummary
    return MarketSummary(id="cook-county-il", name="Cook County, IL", state="IL", holds="Roll: Assessor - Parcel Addresses",
                         completeness=(), leads=len(cities), newest=date(2026, 1, 1), last_run=None, cities=cities,
                         imported=("cook-ccao-parcel-addresses",))


def test_a_covered_market_is_listed_on_page_load_and_picking_it_filters_to_its_state_and_cities(services, monkeypatch):
    query, _cities = services
    summaries = Calls(lambda: [_summary(("CALUMET PARK", "MIDLOTHIAN"))])
    summary = Calls(lambda market_id: _summary(("CALUMET PARK", "MIDLOTHIAN")) if market_id == "cook-county-il"
                    else None)
    monkeypatch.setattr(location_module, "market_summaries", summaries)
    monkeypatch.setattr(location_module, "market_summary", summary)
    tab = market()
    answer(tab.load())
    place = substate(tab, MarketplaceLocationState)
    assert len(summaries.calls) == 1
    assert place.market_rows == [{"id": "cook-county-il", "name": "Cook County, IL",
                                  "holds": "Roll: Assessor - Parcel Addresses", "leads": "2 live leads",
                                  "newest": "Newest record Jan 1, 2026"}]
    for junk in (None, 5, "x" * 101, "nowhere"):
        assert answer(place.pick_market(junk)) is None
    assert len(query.calls) == 1
    answer(place.pick_market("cook-county-il"))
    assert query.calls[-1][0] == Filters(states=("IL",), cities=("Calumet Park", "Midlothian"))
    assert tab.chosen["cities"] == ["Calumet Park", "Midlothian"]


def test_a_market_without_live_leads_says_so_and_changes_nothing(services, monkeypatch):
    query, _cities = services
    monkeypatch.setattr(location_module, "market_summaries", Calls(lambda: []))
    monkeypatch.setattr(location_module, "market_summary", Calls(lambda market_id: _summary(())))
    tab = market()
    place = substate(tab, MarketplaceLocationState)
    answer(tab.load())
    assert answer(place.pick_market("cook-county-il")) is None
    assert place.location_error == messages.MARKET_NO_LEADS.format(name="Cook County, IL")
    assert len(query.calls) == 1
