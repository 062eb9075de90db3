"""Location and asking-price filters (issue 24 #8): value parsing, the URL, saved-search criteria."""

import pytest

from marketplace.features.marketplace import rules_filter_values as fv
from marketplace.features.marketplace import rules as m
from marketplace.features.marketplace import rules_saved_searches as rules
from marketplace.platform.leads import US_STATES
from marketplace.platform.text_keys import city_key


def test_states_are_the_fifty_codes():
    assert len(fv.STATE_OPTIONS) == 50 and ("TX", "TX - Texas") in fv.STATE_OPTIONS
    assert [fv.clean_state(v) for v in ("TX", " tx ", "DC", "PR", "T", "TEX", "", None, 5, ["TX"])] == [
        "TX", "TX"] + [None] * 8
    assert all(fv.clean_state(code) == code for code in US_STATES)


def test_cities_are_trimmed_limited_free_text():
    assert fv.clean_city("  San   Antonio \t") == "San Antonio"
    assert fv.clean_city("x" * 100) == "x" * 100
    assert [fv.clean_city(v) for v in ("x" * 101, "", "   ", "Austin\x00", "A\x7fB", None, 7)] == [None] * 7
    assert fv.clean_city("Round\nRock") == "Round Rock"
    assert city_key(" SAN  antonio") == "san antonio"


def test_zip_codes_are_five_digits():
    assert fv.clean_zip(" 78701 ") == "78701" and fv.clean_zip("02134") == "02134"
    assert [fv.clean_zip(v) for v in ("7870", "787011", "78701-1234", "7870a", "", None, 78701)] == [None] * 7


@pytest.mark.parametrize(("raw", "price"), [
    ("250000", 250000), ("$250,000", 250000), (" $ 1,000 ", 1000), ("0", 0), (125000, 125000), (5.0, 5),
    ("1000000000", 1_000_000_000),
])
def test_prices_are_whole_dollars(raw, price):
    assert fv.parse_price(raw) == price


@pytest.mark.parametrize("raw", ["-5", "-1", -1, "12.50", 12.5, "abc", "", "$", "1000000001", 10**12, "1e6", True,
                                 None, float("nan"), float("inf"), ["5"], "12 000", "0x10"])
def test_junk_prices_are_refused(raw):
    assert fv.parse_price(raw) is None


def test_price_labels():
    assert fv.price_text(250000) == "$250,000" and fv.price_text(None) == ""
    assert fv.price_range_label(100000, 250000) == "$100,000 - $250,000"
    assert fv.price_range_label(100000, None) == "From $100,000"
    assert fv.price_range_label(None, 0) == "Up to $0"
    assert fv.price_range_label(None, None) == ""


def test_location_and_price_round_trip_through_the_url():
    f = m.Filters(lead_types=("Probate",), states=("TX", "OK"), cities=("Austin", "San Antonio"), zips=("78701",),
                  min_price=100000, max_price=250000, sort="price_asc")
    query = f.to_query()
    assert query == ("type=Probate&state=TX&state=OK&city=Austin&city=San+Antonio&zip=78701"
                     "&min_price=100000&max_price=250000&sort=price_asc")
    assert m.Filters.from_query(query) == f
    assert f.active_count == 7  # one type, two states, two cities, one ZIP, one price range
    assert m.Filters.from_query("state=tx,ok&city=austin&city=AUSTIN&city=Dallas,+TX") == m.Filters(
        states=("TX", "OK"), cities=("austin", "Dallas, TX"))


def test_junk_location_and_price_params_are_ignored():
    junk = m.Filters.from_query("state=XX&state=&city=" + "y" * 101 + "&zip=7870&zip=abcde&min_price=-5"
                                "&max_price=lots&city=%00")
    assert junk == m.Filters()
    assert m.Filters.from_query({"state": ["TX", {"a": 1}], "min_price": [None], "zip": 78701}) == m.Filters(
        states=("TX",), zips=("78701",))
    # A minimum above the maximum applies neither end.
    assert m.Filters.from_query("min_price=300000&max_price=100000&state=TX") == m.Filters(states=("TX",))
    assert m.Filters.from_query("min_price=0").min_price == 0
    many = "&".join(f"zip={70000 + n}" for n in range(15))
    assert len(m.Filters.from_query(many).zips) == m.MAX_PLACES == 10


def test_toggling_places_and_prices_returns_to_page_one():
    f = m.Filters(page=3).toggled("states", "TX")
    assert (f.states, f.page) == (("TX",), 1)
    assert f.toggled("states", "XX") == f  # not a state: nothing added
    f = f.with_value("cities", "  austin ").with_value("cities", "AUSTIN")
    assert f.cities == ("austin",)
    assert f.toggled("cities", "Austin").cities == ()
    priced = f.with_price(100, None)
    assert (priced.min_price, priced.max_price, priced.has_price) == (100, None, True)
    assert priced.cleared() == m.Filters()


def test_saved_search_criteria_summary_and_matching_with_places_and_prices():
    f = m.Filters(states=("TX",), cities=("Austin", "round rock"), min_price=100000, max_price=250000)
    assert rules.criteria(f) == [("state", "TX"), ("city", "austin"), ("city", "round rock")]
    assert rules.criteria_groups(f) == 3  # state, city, price
    assert rules.criteria_groups(m.Filters(max_price=5)) == 1
    assert rules.place_groups(f) == 3 and rules.place_groups(m.Filters(lead_types=("Probate",), zips=("78701",))) == 1
    assert rules.place_groups(m.Filters(lead_types=("Probate",), tags=("new",))) == 0
    assert rules.summary(f) == "TX · Austin or round rock · Asking price $100,000 - $250,000 · sorted by Highest ROI"
    assert rules.query_summary("zip=78701&zip=78702&min_price=5000") == (
        "ZIP 78701 or 78702 · Asking price from $5,000 · sorted by Highest ROI")
    assert rules.query_summary("max_price=90000&sort=newest") == "Asking price up to $90,000 · sorted by Newest"
    base = rules.lead_facets("Probate", 12.0, 1500, True, False)
    austin = base | rules.place_facets("TX", "AUSTIN", "78701")
    assert rules.matches(f, austin, 150000)
    assert rules.matches(f, austin, 100000) and rules.matches(f, austin, 250000)  # both ends included
    assert not rules.matches(f, austin, 250001)
    assert not rules.matches(f, austin, None)  # no asking price: hidden by a price range
    assert not rules.matches(f, base | rules.place_facets("TX", "Dallas", "75201"), 150000)
    assert not rules.matches(f, base | rules.place_facets("OK", "Austin", "73001"), 150000)
    assert rules.matches(m.Filters(states=("TX",)), austin, None)  # no range: the price does not matter
    assert rules.stored_filters("city=+Austin+&state=tx&min_price=$1,000&page=2").to_query() == (
        "state=TX&city=Austin&min_price=1000")
