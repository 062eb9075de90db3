"""City resolution (issue 24 item 6): a city without a state and no state selected is the largest
city of that name, with states selected it matches only within them, 'City, ST' pins it."""

from __future__ import annotations

import pytest

from marketplace.features.marketplace.rules_criteria import CriteriaError, SearchCriteria
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.scrape.source_markets import (
    LARGEST_BY_POPULATION,
    geo_index,
    parse_city,
    pin_cities,
    resolve_city,
)


def test_a_city_without_a_state_is_the_largest_of_that_name_and_says_so():
    austin = resolve_city("Austin")
    assert austin.places == (("Austin", "TX"),)
    assert austin.picked and austin.namesakes == 8  # TX, PA, NV, MN, CO, AR, KY, IN (standard ZIP rows)
    assert austin.note == "Austin → Austin, TX (largest of 8 cities named Austin)"
    assert resolve_city("dallas").note == "dallas → Dallas, TX (largest of 8 cities named Dallas)"
    assert resolve_city("  Kansas   City ").places == (("Kansas City", "MO"),)


def test_the_census_table_decides_where_the_zip_count_proxy_is_wrong():
    # Springfield, MA has the most standard ZIP codes, Springfield, MO the most people (2020 Census).
    by_city, _ = geo_index()
    assert len(by_city[("SPRINGFIELD", "MA")]) > len(by_city[("SPRINGFIELD", "MO")])
    assert resolve_city("Springfield").places == (("Springfield", "MO"),)
    assert resolve_city("Charleston").places == (("Charleston", "SC"),)
    for name, state in LARGEST_BY_POPULATION.items():
        assert (name, state) in by_city, name  # every override names a city the index has


def test_selected_states_limit_a_city_to_them():
    match = resolve_city("Austin", ("NV", "TX"))
    assert match.places == (("Austin", "NV"), ("Austin", "TX"))
    assert not match.picked and match.note == ""
    with pytest.raises(CriteriaError, match=r"No such city in CA: Austin\."):
        resolve_city("Austin", ("CA",))


def test_city_and_state_pins_it():
    match = resolve_city("Austin, NV")
    assert match.places == (("Austin", "NV"),) and match.note == ""
    assert resolve_city("austin, tx", ("CA",)).places == (("Austin", "TX"),)  # the typed state wins
    with pytest.raises(CriteriaError, match=r"No such city: Austin, ZZ\."):
        resolve_city("Austin, ZZ")
    with pytest.raises(CriteriaError, match=r"No such city: Atlantis\."):
        resolve_city("Atlantis")


def test_pin_cities_gives_each_place_once():
    assert pin_cities(("Austin", "Dallas", "Austin, TX")) == ("Austin, TX", "Dallas, TX")
    assert pin_cities(("Austin",), ("TX", "NV")) == ("Austin, NV", "Austin, TX")
    assert parse_city("Austin", ()) == [("AUSTIN", "TX")]


def test_the_issue_example_stays_in_texas():
    """'Austin, Dallas' with no state: every lead in Austin, TX or Dallas, TX (not NV, CO, WV, GA...)."""
    leads = BuiltinSource(seed=3).search(SearchCriteria(count=200, cities=("Austin", "Dallas")))
    assert len(leads) == 200
    assert {(lead["city"], lead["state"]) for lead in leads} == {("Austin", "TX"), ("Dallas", "TX")}
